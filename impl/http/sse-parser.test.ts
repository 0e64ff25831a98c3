import { describe, expect, it } from 'vitest';
import { SseParser, type SseMessage } from './sse-parser.js';

function parse(chunks: string[], maxLine?: number) {
  const msgs: SseMessage[] = [];
  const comments: string[] = [];
  const overflow: string[] = [];
  const p = new SseParser({ ...(maxLine ? { maxLine } : {}), onOverflow: (w) => overflow.push(w) });
  for (const c of chunks) p.feed(c, (m) => msgs.push(m), (c2) => comments.push(c2));
  return { msgs, comments, overflow };
}

describe('SseParser (impl/http): linear and bounded', () => {
  it('parses the same messages however the text is chunked, CRLF split across chunks included', () => {
    const text = 'id: 1\r\nevent: a\r\ndata: x\r\ndata: y\r\n\r\n: hi\n\ndata: z\r\rdata: w\n\n';
    const whole = parse([text]);
    expect(whole.msgs).toEqual([{ id: '1', event: 'a', data: 'x\ny' }, { data: 'z' }, { data: 'w' }]);
    expect(whole.comments).toEqual(['hi']);
    for (let cut = 1; cut < text.length; cut++) expect(parse([text.slice(0, cut), text.slice(cut)]).msgs, `cut ${cut}`).toEqual(whole.msgs);
    expect(parse([...text]).msgs).toEqual(whole.msgs);
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
});
