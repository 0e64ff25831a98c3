import { describe, expect, it } from 'vitest';
import { createSseParser, type SseItem } from './sse.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Feed bytes one at a time: the harshest possible chunking. */
function byteByByte(bytes: Uint8Array): SseItem[] {
  const p = createSseParser();
  const out: SseItem[] = [];
  for (const b of bytes) out.push(...p.push(Uint8Array.of(b)));
  return [...out, ...p.end()];
}

describe('createSseParser', () => {
  it('parses an AEP message with event, id and one data line', () => {
    const p = createSseParser();
    const items = p.push(enc('event: run.started\nid: s1:0:4\ndata: {"a":1}\n\n'));
    expect(items).toEqual([{ kind: 'message', event: 'run.started', id: 's1:0:4', data: '{"a":1}', dataLines: 1 }]);
  });

  it('surfaces comments in stream order, before and between messages', () => {
    const p = createSseParser();
    const items = p.push(enc(': replay-exhausted live-x 0:7\n\ndata: a\n\n: ping\n'));
    expect(items).toEqual([
      { kind: 'comment', text: 'replay-exhausted live-x 0:7' },
      { kind: 'message', data: 'a', dataLines: 1 },
      { kind: 'comment', text: 'ping' },
    ]);
  });

  it('survives any chunking, including a split UTF-8 sequence and a split CRLF', () => {
    const wire = enc('data: caf\u00e9 \u{1F600}\r\nid: s:0:1\r\n\r\n');
    expect(byteByByte(wire)).toEqual([{ kind: 'message', data: 'caf\u00e9 \u{1F600}', dataLines: 1, id: 's:0:1' }]);
  });

  it('accepts CR-only line endings', () => {
    expect(byteByByte(enc('data: x\r\r'))).toEqual([{ kind: 'message', data: 'x', dataLines: 1 }]);
  });

  it('joins multi-line data with LF and counts the lines so a checker can flag it', () => {
    const p = createSseParser();
    expect(p.push('data: {"a":\ndata: 1}\n\n')).toEqual([{ kind: 'message', data: '{"a":\n1}', dataLines: 2 }]);
  });

  it('strips a leading BOM and only one space after the colon', () => {
    const p = createSseParser();
    expect(p.push(Uint8Array.of(0xef, 0xbb, 0xbf, ...enc('data:  two\n\n')))).toEqual([
      { kind: 'message', data: ' two', dataLines: 1 },
    ]);
  });

  it('does not dispatch a message without data, and discards an unterminated one at end', () => {
    const p = createSseParser();
    expect(p.push('event: x\nid: 1\n\n')).toEqual([]);
    expect(p.push('data: half')).toEqual([]);
    expect(p.end()).toEqual([]);
  });

  it('ignores retry and unknown fields, and an id containing NUL', () => {
    const p = createSseParser();
    expect(p.push('retry: 10\nfoo: bar\nid: a\u0000b\ndata: z\n\n')).toEqual([{ kind: 'message', data: 'z', dataLines: 1 }]);
  });
});
