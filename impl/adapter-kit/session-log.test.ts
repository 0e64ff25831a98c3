/** The session-log writer: ordered per file, bounded handles, flushed on close, errors logged once and retried. */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionLog, flushSessionLogs } from './session-log.js';
import { sessionFileName } from './session-file.js';
import { nextEpoch } from './store.js';
import { tempHome } from './test-utils/daemon-harness.js';

const fileOf = (home: string, session: string): string => join(home, 'logs', 'claude-code', sessionFileName(session));
const read = (home: string, session: string): string => readFileSync(fileOf(home, session), 'utf8');
const line = (session: string, seq: number): string => JSON.stringify({ session, seq });

describe('SessionLog', () => {
  it('append returns before anything is written; after flush every line is there, in order, whole', async () => {
    const home = tempHome();
    const log = new SessionLog(home, 'claude-code');
    for (let seq = 0; seq < 500; seq++) log.append('s1', line('s1', seq));
    // Nothing is written synchronously: the reply path never waits for the disk.
    expect(readdirSync(home)).toEqual([]);
    await log.flush();
    const expected = Array.from({ length: 500 }, (_, seq) => `${line('s1', seq)}\n`).join('');
    expect(read(home, 's1')).toBe(expected);
    await log.close();
  });

  it('interleaved sessions: each file gets exactly its own lines in emission order, across flushes', async () => {
    const home = tempHome();
    const log = new SessionLog(home, 'claude-code');
    const want: Record<string, string> = { a: '', 'b/c': '', 'd:e': '' };
    for (let seq = 0; seq < 300; seq++) {
      const s = Object.keys(want)[seq % 3]!;
      log.append(s, line(s, seq));
      want[s] += `${line(s, seq)}\n`;
      if (seq === 150) await log.flush();
    }
    await log.flush();
    for (const [s, text] of Object.entries(want)) expect(read(home, s)).toBe(text);
    await log.close();
  });

  it('many sessions: never more than maxHandles files open; every line still lands', async () => {
    const home = tempHome();
    const log = new SessionLog(home, 'claude-code', { maxHandles: 4 });
    let most = 0;
    for (let round = 0; round < 3; round++) {
      for (let s = 0; s < 20; s++) {
        log.append(`s${s}`, line(`s${s}`, round));
        most = Math.max(most, log.openHandles);
        await new Promise((r) => setImmediate(r));
        most = Math.max(most, log.openHandles);
        // let some writes complete so idle handles exist to evict
        if (s % 5 === 4) await log.flush();
        most = Math.max(most, log.openHandles);
      }
    }
    await log.flush();
    expect(most).toBe(4);
    expect(log.openHandles).toBeLessThanOrEqual(4);
    for (let s = 0; s < 20; s++) expect(read(home, `s${s}`)).toBe([0, 1, 2].map((r) => `${line(`s${s}`, r)}\n`).join(''));
    await log.close();
    expect(log.openHandles).toBe(0);
  });

  it('idle handles are closed by the sweep; a later line reopens the file and appends', async () => {
    const home = tempHome();
    const log = new SessionLog(home, 'claude-code', { idleMs: 20 });
    log.append('s1', line('s1', 0));
    await log.flush();
    expect(log.openHandles).toBe(1);
    await new Promise((r) => setTimeout(r, 120));
    expect(log.openHandles).toBe(0);
    log.append('s1', line('s1', 1));
    await log.flush();
    expect(read(home, 's1')).toBe(`${line('s1', 0)}\n${line('s1', 1)}\n`);
    await log.close();
  });

  it('close flushes what is queued, closes every handle, and nextEpoch then sees the last line', async () => {
    const home = tempHome();
    const log = new SessionLog(home, 'claude-code');
    for (let seq = 0; seq < 50; seq++) log.append('s1', JSON.stringify({ aep: '0.1', session: 's1', epoch: 7, seq }));
    await log.close();
    expect(log.openHandles).toBe(0);
    expect(read(home, 's1').split('\n')).toHaveLength(51);
    // a corrupt state file falls back to the logs: the flushed last line carries epoch 7
    writeFileSync(join(home, 'adapter-claude-code.state.json'), 'not json');
    expect(nextEpoch(home, 'claude-code')).toBe(8);
  });

  it('flushSessionLogs flushes every live writer of the process', async () => {
    const home = tempHome();
    const one = new SessionLog(home, 'claude-code');
    const two = new SessionLog(home, 'claude-code');
    one.append('x', line('x', 0));
    two.append('y', line('y', 0));
    await flushSessionLogs();
    expect(read(home, 'x')).toBe(`${line('x', 0)}\n`);
    expect(read(home, 'y')).toBe(`${line('y', 0)}\n`);
    await one.close();
    await two.close();
  });

  it('a write error is logged once, never thrown; the lines stay queued in order and are written once the file is writable', async () => {
    const home = tempHome();
    const logs: string[] = [];
    const log = new SessionLog(home, 'claude-code', { log: (l) => logs.push(l) });
    // A directory where the log file should be: opening it for append fails (EISDIR).
    mkdirSync(fileOf(home, 'bad'), { recursive: true });
    expect(() => log.append('bad', line('bad', 0))).not.toThrow();
    await log.flush();
    log.append('bad', line('bad', 1));
    await log.flush();
    log.append('bad', line('bad', 2));
    await log.flush();
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(new RegExp(`^cannot append to the session log ${fileOf(home, 'bad').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: EISDIR`));
    // other sessions are unaffected
    log.append('good', line('good', 0));
    await log.flush();
    expect(read(home, 'good')).toBe(`${line('good', 0)}\n`);
    // the obstacle goes: the next flush writes the queued lines, in order, and says so once
    rmSync(fileOf(home, 'bad'), { recursive: true });
    await log.flush();
    expect(read(home, 'bad')).toBe([0, 1, 2].map((s) => `${line('bad', s)}\n`).join(''));
    expect(logs).toEqual([logs[0], `session log ${fileOf(home, 'bad')}: writing again`]);
    await log.close();
  });

  it('a failing file keeps at most maxPendingBytes queued: the oldest lines go first, and the count is said when it writes again', async () => {
    const home = tempHome();
    const logs: string[] = [];
    const log = new SessionLog(home, 'claude-code', { maxPendingBytes: 100, log: (l) => logs.push(l) });
    mkdirSync(fileOf(home, 'bad'), { recursive: true });
    log.append('bad', line('bad', 0));
    await log.flush(); // the first failure starts the streak
    for (let seq = 1; seq < 10; seq++) log.append('bad', line('bad', seq)); // 26 bytes each with the newline
    await log.flush(); // still failing
    rmSync(fileOf(home, 'bad'), { recursive: true });
    await log.flush();
    expect(read(home, 'bad')).toBe([7, 8, 9].map((s) => `${line('bad', s)}\n`).join(''));
    expect(logs.slice(1)).toEqual([`session log ${fileOf(home, 'bad')}: writing again; 7 oldest line(s) were dropped while it failed`]);
    await log.close();
  });

  it('a file that keeps failing: close says how many lines are lost; nothing throws', async () => {
    const home = tempHome();
    const logs: string[] = [];
    const log = new SessionLog(home, 'claude-code', { log: (l) => logs.push(l) });
    mkdirSync(fileOf(home, 'bad'), { recursive: true });
    log.append('bad', line('bad', 0));
    log.append('bad', line('bad', 1));
    await log.close();
    expect(logs).toHaveLength(2);
    expect(logs[1]).toBe(`session log ${fileOf(home, 'bad')}: 2 line(s) could not be written (EISDIR) and are lost`);
  });

  it('the log directory removed while idle is created again', async () => {
    const home = tempHome();
    const log = new SessionLog(home, 'claude-code', { idleMs: 10 });
    log.append('s1', line('s1', 0));
    await log.close(); // handles released
    rmSync(join(home, 'logs'), { recursive: true });
    log.append('s1', line('s1', 1));
    await log.close();
    expect(read(home, 's1')).toBe(`${line('s1', 1)}\n`);
  });
});
