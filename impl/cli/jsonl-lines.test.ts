/** Line-by-line reading: the same verdict as the whole-input validator, with one line of memory. */
import { describe, expect, it } from 'vitest';
import type { Issue } from '../core/issue.js';
import { MAX_LINE_BYTES } from '../core/stream.js';
import { jsonlLines } from './jsonl-lines.js';
import { validateChunks, validateJsonl } from './validate.js';

async function* split(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

const SRC = 'aep://h/agent/heron/session/s1';
const ev = (id: string, type: string, seq: number, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ aep: '0.1', id, type, time: '2026-05-05T09:00:00Z', source: SRC, agent: 'heron', session: 's1', seq, ...extra, data: { ...((extra.data as object) ?? {}) } });

describe('jsonlLines', () => {
  it('splits on \\n across chunk borders, keeps \\r out of the size, measures long lines without keeping them', async () => {
    const text = Buffer.from(`a\r\nbb\n\n${'x'.repeat(50)}\nlast`);
    for (const size of [1, 3, 7, 1000]) {
      const got = [];
      for await (const l of jsonlLines(split(text, size), 10)) got.push({ line: l.line, text: l.bytes?.toString() ?? null, size: l.size });
      expect(got).toEqual([
        { line: 1, text: 'a\r', size: 1 },
        { line: 2, text: 'bb', size: 2 },
        { line: 3, text: '', size: 0 },
        { line: 4, text: null, size: 50 },
        { line: 5, text: 'last', size: 4 },
      ]);
    }
  });

  it('gives each line its byte offset in the source, so a reader can find it again', async () => {
    const text = Buffer.from(`a\r\nbb\n\n${'x'.repeat(50)}\nlast`);
    for (const size of [1, 3, 7, 1000]) {
      const got = [];
      for await (const l of jsonlLines(split(text, size), 10)) got.push(l.offset);
      expect(got).toEqual([0, 3, 6, 7, 58]);
      expect(text.subarray(58).toString()).toBe('last');
    }
  });
});

describe('validateChunks', () => {
  const cases: Record<string, string> = {
    valid: `${ev('E1', 'session.started', 0, { data: {} })}\n${ev('E2', 'run.started', 1, { run: 'r1' })}\n`,
    'seq order': `${ev('E1', 'session.started', 3)}\n${ev('E2', 'run.started', 1, { run: 'r1' })}\n`,
    'torn line and crlf': `${ev('E1', 'session.started', 0)}\r\n{"aep":\r\n\r\n${ev('E2', 'run.started', 1, { run: 'r1' })}`,
    'bom first and later': `\ufeff${ev('E1', 'session.started', 0)}\n\ufeff${ev('E2', 'run.started', 1)}\n`,
    'oversize line': `${ev('E1', 'session.started', 0)}\n"${'y'.repeat(MAX_LINE_BYTES + 5)}"\n`,
    'bad utf-8 and surrogate': `\u0000\n{"a":"\\ud800"}\n`,
    empty: '\n\n',
    duplicate: `${ev('E1', 'session.started', 0)}\n${ev('E1', 'session.started', 1)}\n`,
  };
  it.each(Object.keys(cases))('%s: the same issues, in the same order, as validateJsonl', async (name) => {
    const bytes = Buffer.from(cases[name]!);
    const whole = validateJsonl(bytes);
    for (const size of [5, 4096, 65536]) {
      const found: Issue[] = [];
      const counts = await validateChunks(split(bytes, size), (i) => found.push(i));
      expect(found).toEqual(whole.issues);
      expect(counts).toEqual({ events: whole.events, issues: whole.issues.length });
    }
  });
});
