import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateJsonl } from '../cli/validate.js';
import { durableLength, encodeSession, parseName, summarize } from './sink-files.js';
import { SinkWriter } from './sink-writer.js';
import { flowEvent } from './test-utils/stack.js';

const line = (e: Record<string, unknown>) => JSON.stringify(e);

describe('sink layout and repair (pure)', () => {
  it('encodes session ids so live and rotated names never clash, and parses them back', () => {
    expect(encodeSession('a.b/c é')).toBe('a%2Eb%2Fc%20%C3%A9');
    expect(parseName(`${encodeSession('a.b')}.jsonl`)).toEqual({ session: 'a.b' });
    expect(parseName(`${encodeSession('a.b')}.1700000000000.jsonl`)).toEqual({ session: 'a.b', rotated: 1700000000000 });
    expect(parseName('.sink-state.json')).toBeUndefined();
    expect(parseName('notes.txt')).toBeUndefined();
  });
  it('cuts only a torn final line, and reads the last position and ids of the rest', () => {
    expect(durableLength(Buffer.from('a\nb\n'))).toBe(4);
    expect(durableLength(Buffer.from('a\nb\n{"x":'))).toBe(4);
    expect(durableLength(Buffer.from('{"x":'))).toBe(0);
    const s = summarize(`${line(flowEvent('s', 0))}\n${line(flowEvent('s', 1))}\n`);
    expect(s).toEqual({ positions: { s: { 'aep://test/agent/s': { epoch: 1, seq: 1 } } }, keys: ['aep://test/agent/s\u0000s-e1-0', 'aep://test/agent/s\u0000s-e1-1'], lines: 2 });
  });
});

describe('SinkWriter (files)', () => {
  it('after a crash: repairs the torn line, resumes at the last durable line, drops the overlap', () => {
    const dir = mkdtempSync(join(tmpdir(), 'aep-sinkw-'));
    const file = join(dir, 's1.jsonl');
    writeFileSync(file, `${line(flowEvent('s1', 0))}\n${line(flowEvent('s1', 1))}\n${line(flowEvent('s1', 2)).slice(0, 30)}`);
    const notices: string[] = [];
    const w = new SinkWriter({ dir, notice: (l) => notices.push(l) });
    const report = w.recover();
    expect(report.torn).toEqual([{ file: 's1.jsonl', bytes: 30 }]);
    expect(w.written.s1).toEqual({ 'aep://test/agent/s1': { epoch: 1, seq: 1 } });
    // The relay replays everything it holds: 0..4 (0 and 1 are the overlap).
    const accepted = [0, 1, 2, 3, 4].map((i) => w.accept(line(flowEvent('s1', i)), flowEvent('s1', i)));
    expect(accepted).toEqual([false, false, true, true, true]);
    expect(w.accept(line(flowEvent('s1', 3)), flowEvent('s1', 3))).toBe(false);
    w.close();
    const text = readFileSync(file, 'utf8');
    expect(text.trimEnd().split('\n').map((l) => JSON.parse(l).seq)).toEqual([0, 1, 2, 3, 4]);
    expect(validateJsonl(Buffer.from(text)).ok).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, '.sink-state.json'), 'utf8'))).toEqual({ version: 2, positions: { s1: { 'aep://test/agent/s1': { epoch: 1, seq: 4 } } } });
    expect(notices).toEqual([]);
  });
  it('rotates before a line would pass the limit, never reopens a segment, and dedupes across the boundary', () => {
    const dir = mkdtempSync(join(tmpdir(), 'aep-sinkw-'));
    let now = 1000;
    const w = new SinkWriter({ dir, rotateBytes: 600, now: () => now++ });
    for (let i = 0; i < 12; i++) w.accept(line(flowEvent('r', i)), flowEvent('r', i));
    expect(w.accept(line(flowEvent('r', 0)), flowEvent('r', 0))).toBe(false);
    w.close();
    const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort((a, b) => (parseName(a)!.rotated ?? Infinity) - (parseName(b)!.rotated ?? Infinity));
    expect(files.length).toBeGreaterThan(2);
    expect(files.at(-1)).toBe('r.jsonl');
    const seqs = files.flatMap((f) => {
      const t = readFileSync(join(dir, f), 'utf8');
      expect(Buffer.byteLength(t)).toBeLessThanOrEqual(600);
      return t.trimEnd().split('\n').map((l) => JSON.parse(l).seq);
    });
    expect(seqs).toEqual([...Array(12).keys()]);
    expect(w.rotations).toBe(files.length - 1);
  });
  it('warns when a session jumps (events the relay no longer held)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'aep-sinkw-'));
    const notices: string[] = [];
    const w = new SinkWriter({ dir, notice: (l) => notices.push(l) });
    w.accept(line(flowEvent('g', 0)), flowEvent('g', 0));
    w.accept(line(flowEvent('g', 5)), flowEvent('g', 5));
    w.close();
    expect(notices).toEqual(['warning: session g jumps from 1:0 to 1:5 (source aep://test/agent/g); the relay no longer held the events in between']);
  });
});
