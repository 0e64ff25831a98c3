/**
 * `aep sink`'s writer as its files show it (issue 37, mutation testing where the I/O is): what is
 * on disk when (a full batch at once, a partial one after `flushMs`), where rotation cuts (the
 * exact byte bound, never an empty file, pending lines go with the rotated file, a name taken
 * moves one millisecond on), what recovery reports (sessions, torn bytes) and resumes from (the
 * highest position whatever the rotated files' order), and the counters and notices a user reads.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { positionFor } from './positions.js';
import { SinkWriter } from './sink-writer.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'aep-sink-mut-'));
  dirs.push(d);
  return d;
};

const SRC = 'aep://h/a';
const ev = (session: string, seq: number, pad = ''): { raw: string; e: Record<string, unknown> } => {
  const e = { aep: '0.1', id: `${session}-${seq}`, source: SRC, session, epoch: 0, seq, type: 'progress.status', data: { pad } };
  return { raw: JSON.stringify(e), e };
};
const lines = (path: string): string[] => readFileSync(path, 'utf8').split('\n').filter((l) => l !== '');
const seqs = (path: string): number[] => lines(path).map((l) => (JSON.parse(l) as { seq: number }).seq);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('when lines reach the disk', () => {
  it('a full batch is written at once; a partial one after flushMs, not before', async () => {
    const dir = tempDir();
    const w = new SinkWriter({ dir, batch: 3, flushMs: 150 });
    w.recover();
    for (const s of [0, 1]) w.accept(ev('b', s).raw, ev('b', s).e);
    expect(lines(join(dir, 'b.jsonl'))).toEqual([]);
    w.accept(ev('b', 2).raw, ev('b', 2).e);
    expect(seqs(join(dir, 'b.jsonl'))).toEqual([0, 1, 2]);
    w.accept(ev('b', 3).raw, ev('b', 3).e);
    await sleep(40);
    expect(seqs(join(dir, 'b.jsonl'))).toEqual([0, 1, 2]);
    await sleep(400);
    expect(seqs(join(dir, 'b.jsonl'))).toEqual([0, 1, 2, 3]);
    expect(JSON.parse(readFileSync(join(dir, '.sink-state.json'), 'utf8'))).toBeTruthy();
    expect(w.events).toBe(4);
    w.close();
  });

  it('duplicates are counted and not written; a jump in a session is a notice naming both positions', () => {
    const dir = tempDir();
    const notices: string[] = [];
    const w = new SinkWriter({ dir, batch: 1, notice: (l) => notices.push(l) });
    w.recover();
    expect(w.accept(ev('d', 0).raw, ev('d', 0).e)).toBe(true);
    expect(w.accept(ev('d', 0).raw, ev('d', 0).e)).toBe(false);
    expect(w.accept(ev('d', 1).raw, ev('d', 1).e)).toBe(true);
    expect(w.accept(ev('d', 4).raw, ev('d', 4).e)).toBe(true);
    expect([w.events, w.duplicates]).toEqual([3, 1]);
    expect(notices).toEqual([`warning: session d jumps from 0:1 to 0:4 (source ${SRC}); the relay no longer held the events in between`]);
    expect(seqs(join(dir, 'd.jsonl'))).toEqual([0, 1, 4]);
    // A new epoch starts its own sequence: no jump across epochs.
    const next = { ...ev('d', 9).e, id: 'd-e1-9', epoch: 1 };
    expect(w.accept(JSON.stringify(next), next)).toBe(true);
    expect(notices).toHaveLength(1);
    w.close();
  });
});

describe('rotation', () => {
  it('rotates only when the next line would pass rotateBytes (a file may reach it exactly), with the pending lines in the rotated file', () => {
    const dir = tempDir();
    const notices: string[] = [];
    const one = `${ev('r', 0).raw}\n`.length; // every line of this test has the same length
    const w = new SinkWriter({ dir, batch: 100, flushMs: 60_000, rotateBytes: 2 * one, now: () => 5_000, notice: (l) => notices.push(l) });
    w.recover();
    for (const s of [0, 1]) w.accept(ev('r', s).raw, ev('r', s).e);
    expect(w.rotations).toBe(0);
    w.accept(ev('r', 2).raw, ev('r', 2).e);
    expect(w.rotations).toBe(1);
    expect(notices).toEqual(['rotated r.jsonl to r.5000.jsonl']);
    expect(seqs(join(dir, 'r.5000.jsonl'))).toEqual([0, 1]);
    w.accept(ev('r', 3).raw, ev('r', 3).e);
    // The same clock: the next rotated name moves on by one.
    w.accept(ev('r', 4).raw, ev('r', 4).e);
    expect(notices[1]).toBe('rotated r.jsonl to r.5001.jsonl');
    w.close();
    expect(seqs(join(dir, 'r.5001.jsonl'))).toEqual([2, 3]);
    expect(seqs(join(dir, 'r.jsonl'))).toEqual([4]);
    expect(readdirSync(dir).sort()).toEqual(['.sink-state.json', 'r.5000.jsonl', 'r.5001.jsonl', 'r.jsonl']);
  });

  it('lines written out by a rotation no longer count toward the batch', () => {
    const dir = tempDir();
    const one = `${ev('q', 0).raw}\n`.length;
    const w = new SinkWriter({ dir, batch: 4, flushMs: 60_000, rotateBytes: 2 * one, now: () => 9_000 });
    w.recover();
    for (const s of [0, 1, 2]) w.accept(ev('q', s).raw, ev('q', s).e); // 2 rotated out, 1 pending
    expect(seqs(join(dir, 'q.9000.jsonl'))).toEqual([0, 1]);
    w.accept(ev('q', 3).raw, ev('q', 3).e); // 2 pending: under the batch of 4
    expect(lines(join(dir, 'q.jsonl'))).toEqual([]);
    w.close();
    expect(seqs(join(dir, 'q.jsonl'))).toEqual([2, 3]);
  });

  it('a first line longer than rotateBytes goes into the empty live file: no empty file is rotated', () => {
    const dir = tempDir();
    const w = new SinkWriter({ dir, batch: 1, rotateBytes: 10, now: () => 7_000 });
    w.recover();
    w.accept(ev('x', 0).raw, ev('x', 0).e);
    expect(w.rotations).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['.sink-state.json', 'x.jsonl']);
    w.close();
  });
});

describe('recovery', () => {
  it('reports the sessions and the torn bytes it cut, and resumes after the highest position whatever the rotated files\' names say', () => {
    const dir = tempDir();
    // Rotated files named against their content's order (a clock that went back).
    writeFileSync(join(dir, 'k.200.jsonl'), `${ev('k', 0).raw}\n${ev('k', 1).raw}\n`);
    writeFileSync(join(dir, 'k.100.jsonl'), `${ev('k', 2).raw}\n${ev('k', 3).raw}\n`);
    writeFileSync(join(dir, 'm.jsonl'), `${ev('m', 0).raw}\n${ev('m', 1).raw.slice(0, 30)}`);
    const w = new SinkWriter({ dir, batch: 1 });
    const report = w.recover();
    expect(report).toEqual({ sessions: 2, torn: [{ file: 'm.jsonl', bytes: 30 }] });
    expect(positionFor(w.written, SRC, 'k')).toEqual({ epoch: 0, seq: 3 });
    expect(positionFor(w.durable, SRC, 'k')).toEqual({ epoch: 0, seq: 3 });
    expect(positionFor(w.written, SRC, 'm')).toEqual({ epoch: 0, seq: 0 });
    expect(readFileSync(join(dir, 'm.jsonl'), 'utf8')).toBe(`${ev('m', 0).raw}\n`);
    // What is on disk is not written again.
    expect(w.accept(ev('k', 3).raw, ev('k', 3).e)).toBe(false);
    expect(w.accept(ev('k', 1).raw, ev('k', 1).e)).toBe(false);
    expect(w.accept(ev('m', 1).raw, ev('m', 1).e)).toBe(true);
    w.close();
    expect(seqs(join(dir, 'm.jsonl'))).toEqual([0, 1]);
  });
});
