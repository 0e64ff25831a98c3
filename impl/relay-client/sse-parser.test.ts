import { describe, expect, it } from 'vitest';
import { SseParser, type SseItem, type SseMessage } from './sse-parser.js';

function parse(chunks: Array<string | Uint8Array>, maxLine?: number) {
  const msgs: SseMessage[] = [];
  const comments: string[] = [];
  const overflow: string[] = [];
  const p = new SseParser({ ...(maxLine ? { maxLine } : {}), onOverflow: (w) => overflow.push(w) });
  for (const c of chunks) p.feed(c, (m) => msgs.push(m), (c2) => comments.push(c2));
  return { msgs, comments, overflow, parser: p };
}

/** A sample stream using every rule: BOM, the three line ends, comments, retry, id, event, multi-line data. */
const SAMPLE = '\uFEFF: hello\r\nretry: 1500\nid: s:0:1\r\nevent: run.started\rdata: {"a":\ndata:1}\n\n:no-space\r\n\r\ndata\nunknown: x\nid: 2\n\ndata: é ✓ 𝄞\r\rid: n\u0000ul\ndata: z\n\n';
const SAMPLE_ITEMS: SseItem[] = [
  { kind: 'comment', text: 'hello' },
  { kind: 'message', id: 's:0:1', event: 'run.started', data: '{"a":\n1}' },
  { kind: 'comment', text: 'no-space' },
  { kind: 'message', id: '2', data: '' },
  { kind: 'message', data: 'é ✓ 𝄞' },
  { kind: 'message', data: 'z' },
];

describe('SseParser (WHATWG event-stream rules)', () => {
  it('reads the sample stream exactly, with retry and the sticky last event id', () => {
    const p = new SseParser();
    expect(p.push(SAMPLE)).toEqual(SAMPLE_ITEMS);
    expect(p.retry).toBe(1500);
    expect(p.lastEventId).toBe('2'); // the id holding U+0000 is ignored
  });

  it('gives the same items for a split at every character position', () => {
    for (let cut = 0; cut <= SAMPLE.length; cut++) {
      const p = new SseParser();
      expect([...p.push(SAMPLE.slice(0, cut)), ...p.push(SAMPLE.slice(cut))], `cut ${cut}`).toEqual(SAMPLE_ITEMS);
    }
    const p = new SseParser();
    expect([...SAMPLE].flatMap((c) => p.push(c))).toEqual(SAMPLE_ITEMS);
  });

  it('gives the same items for bytes split at every byte position, inside UTF-8 sequences too', () => {
    const bytes = new TextEncoder().encode(SAMPLE);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const p = new SseParser();
      expect([...p.push(bytes.subarray(0, cut)), ...p.push(bytes.subarray(cut))], `byte cut ${cut}`).toEqual(SAMPLE_ITEMS);
    }
  });

  it('drops one BOM at the start of the stream only, even after an empty first chunk', () => {
    expect(new SseParser().push('\uFEFFdata: a\n\n')).toEqual([{ kind: 'message', data: 'a' }]);
    const p = new SseParser();
    expect([...p.push(''), ...p.push('\uFEFFdata: a\n\n')]).toEqual([{ kind: 'message', data: 'a' }]);
    expect(p.push('\uFEFFdata: b\n\n')).toEqual([]); // a later BOM is part of a field name
    expect(new SseParser().push('\uFEFF\uFEFFdata: a\n\n')).toEqual([]);
  });

  it('keeps the data bytes exact: one space after the colon is dropped, no more', () => {
    expect(new SseParser().push('data:  two\ndata:none\ndata: \n\n')).toEqual([{ kind: 'message', data: ' two\nnone\n' }]);
  });

  it('does not dispatch a message without data, and discards an unfinished one at the end', () => {
    const p = new SseParser();
    expect(p.push('event: x\nid: 7\n\ndata: half')).toEqual([]);
    expect(p.lastEventId).toBe('7');
    p.end();
    expect(p.push('\n\ndata: next\n\n')).toEqual([{ kind: 'message', data: 'next' }]);
  });

  it('ignores a retry that is not all ASCII digits', () => {
    const p = new SseParser();
    p.push('retry: 10x\nretry: -1\nretry:\n\n');
    expect(p.retry).toBeUndefined();
    p.push('retry: 0\n');
    expect(p.retry).toBe(0);
  });

  it('parses the same messages however the text is chunked, CRLF split across chunks included', () => {
    const text = 'id: 1\r\nevent: a\r\ndata: x\r\ndata: y\r\n\r\n: hi\n\ndata: z\r\rdata: w\n\n';
    const whole = parse([text]);
    expect(whole.msgs).toEqual([{ id: '1', event: 'a', data: 'x\ny' }, { data: 'z' }, { data: 'w' }]);
    expect(whole.comments).toEqual(['hi']);
    for (let cut = 1; cut < text.length; cut++) expect(parse([text.slice(0, cut), text.slice(cut)]).msgs, `cut ${cut}`).toEqual(whole.msgs);
    expect(parse(['data: a\r', '', '\ndata: b\n\n']).msgs).toEqual([{ data: 'a\nb' }]);
  });

  it('skips a line over the bound up to its end, and a message whose data lines add up over it', () => {
    const r = parse(['data: ', 'a'.repeat(50), 'b'.repeat(50), '\n\ndata: ok\n\n', 'data: 123456\ndata: 123456\n\ndata: fine\n\n'], 12);
    expect(r.msgs).toEqual([{ data: 'ok' }, { data: 'fine' }]);
    expect(r.overflow).toEqual(['line', 'message']);
  });

  it('a 32 MiB line without a newline, in 64 KiB chunks, costs linear time and one bounded line', () => {
    const chunk = 'a'.repeat(64 * 1024);
    let overflows = 0;
    const p = new SseParser({ maxLine: 16 * 1024 * 1024, onOverflow: () => overflows++ });
    const t0 = Date.now();
    p.feed('data: ', () => undefined);
    for (let i = 0; i < 512; i++) p.feed(chunk, () => undefined);
    const msgs: SseMessage[] = [];
    p.feed('\n\ndata: after\n\n', (m) => msgs.push(m));
    expect(Date.now() - t0).toBeLessThan(3_000);
    expect(msgs).toEqual([{ data: 'after' }]);
    expect(overflows).toBe(1);
  });

  it('imports nothing from Node (the page bundles it)', async () => {
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(new URL('./sse-parser.ts', import.meta.url), 'utf8');
    expect(text).not.toMatch(/^\s*import\s/m);
  });
});
