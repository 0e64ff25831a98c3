/** The epoch never goes backwards: atomic state file, corrupt file derived from the logs, or a refusal. */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EpochError, appendLog, nextEpoch } from './store.js';
import { tempHome } from './test-utils/daemon-harness.js';

const stateFile = (home: string): string => join(home, 'adapter-claude-code.state.json');

function writeLog(home: string, session: string, epochs: number[], torn = false): void {
  const dir = join(home, 'logs', 'claude-code');
  mkdirSync(dir, { recursive: true });
  const lines = epochs.map((epoch, seq) => JSON.stringify({ aep: '0.1', id: `e${seq}`, session, epoch, seq }));
  writeFileSync(join(dir, `${session}.jsonl`), `${lines.join('\n')}\n${torn ? '{"aep":"0.1","epo' : ''}`);
}

describe('nextEpoch', () => {
  it('starts at 0, bumps once per start, writes the file atomically (no temporary left)', () => {
    const home = tempHome();
    expect(nextEpoch(home, 'claude-code')).toBe(0);
    expect(nextEpoch(home, 'claude-code')).toBe(1);
    expect(readFileSync(stateFile(home), 'utf8')).toBe('{"epoch":1}\n');
    expect(readdirSync(home)).toEqual(['adapter-claude-code.state.json']);
  });

  it('a corrupt state file ({"epoch": 3 cut off) continues after the last epoch in the session logs, and says so', () => {
    const home = tempHome();
    writeLog(home, 's1', [0, 2, 3]);
    writeLog(home, 's2', [1, 3, 4], true);
    writeFileSync(stateFile(home), '{"epoch": 3\n');
    const logs: string[] = [];
    expect(nextEpoch(home, 'claude-code', (l) => logs.push(l))).toBe(5);
    expect(logs).toEqual([`the state file ${stateFile(home)} is unreadable (it is not JSON (a torn write?)); continuing at epoch 5, after the last epoch in the session logs (4)`]);
    expect(readFileSync(stateFile(home), 'utf8')).toBe('{"epoch":5}\n');
  });

  it('a corrupt state file with no logs: refuses to start with a clear message, and leaves the file alone', () => {
    const home = tempHome();
    writeFileSync(stateFile(home), '{"epoch": "three"}');
    expect(() => nextEpoch(home, 'claude-code')).toThrow(EpochError);
    expect(() => nextEpoch(home, 'claude-code')).toThrow(/is unreadable: it holds no non-negative integer "epoch", and no session log .* shows the last epoch\. Starting at epoch 0 could reuse \(epoch, seq\) positions/);
    expect(readFileSync(stateFile(home), 'utf8')).toBe('{"epoch": "three"}');
  });

  it('a deleted state file with logs left: continues after the logs, never at 0', () => {
    const home = tempHome();
    writeLog(home, 's1', [6, 7]);
    expect(existsSync(stateFile(home))).toBe(false);
    expect(nextEpoch(home, 'claude-code')).toBe(8);
  });
});

describe('appendLog', () => {
  it('sessions a/b and a_b (one file under the earlier mapping) get a log each', () => {
    const home = tempHome();
    appendLog(home, 'claude-code', 'a/b', '{"session":"a/b","n":1}');
    appendLog(home, 'claude-code', 'a_b', '{"session":"a_b","n":2}');
    appendLog(home, 'claude-code', 'a/b', '{"session":"a/b","n":3}');
    const dir = join(home, 'logs', 'claude-code');
    expect(readdirSync(dir).sort()).toEqual(['a%2Fb.jsonl', 'a_b.jsonl']);
    expect(readFileSync(join(dir, 'a%2Fb.jsonl'), 'utf8')).toBe('{"session":"a/b","n":1}\n{"session":"a/b","n":3}\n');
    expect(readFileSync(join(dir, 'a_b.jsonl'), 'utf8')).toBe('{"session":"a_b","n":2}\n');
  });

  it('a log left by the earlier mapping stays where it is and still counts for the epoch', () => {
    const home = tempHome();
    const dir = join(home, 'logs', 'claude-code');
    mkdirSync(dir, { recursive: true });
    // the earlier mapping wrote session "x:y" to x_y.jsonl
    writeFileSync(join(dir, 'x_y.jsonl'), `${JSON.stringify({ aep: '0.1', session: 'x:y', epoch: 9, seq: 0 })}\n`);
    appendLog(home, 'claude-code', 'x:y', JSON.stringify({ aep: '0.1', session: 'x:y', epoch: 10, seq: 0 }));
    expect(readdirSync(dir).sort()).toEqual(['x%3Ay.jsonl', 'x_y.jsonl']);
    expect(readFileSync(join(dir, 'x_y.jsonl'), 'utf8')).toBe('{"aep":"0.1","session":"x:y","epoch":9,"seq":0}\n');
    rmSync(join(dir, 'x%3Ay.jsonl'));
    expect(nextEpoch(home, 'claude-code')).toBe(10);
  });
});
