import { describe, expect, it } from 'vitest';
import type { Received } from './buffer.js';
import { renderAt } from './render.js';
import { joinShared, messageBytes } from './sse-bytes.js';
import { sseEvent } from './sse-format.js';

const raw = '{"aep":"0.1","id":"e1","type":"tool.completed","time":"2026-11-30T06:00:00.000Z","source":"aep://h/agent/a/session/s1","agent":"a","session":"s1","seq":3,"epoch":0,"capture":"full","data":{"tool":{"name":"Edit","call_id":"c"},"status":"success","result":"secret ü text"}}';
const rec = (): Received => ({ raw, event: JSON.parse(raw) } as unknown as Received);

describe('messageBytes', () => {
  it('is exactly the UTF-8 of the SSE message, at every ceiling, encoded once', () => {
    const r = rec();
    for (const ceiling of [undefined, 'full', 'redacted', 'metadata', 'none'] as const) {
      expect(messageBytes(r, ceiling).toString('utf8')).toBe(sseEvent(r.event, renderAt(r, ceiling)));
      expect(messageBytes(r, ceiling)).toBe(messageBytes(r, ceiling));
    }
    expect(messageBytes(r, undefined).toString('utf8')).toBe(`id: s1:0:3\nevent: tool.completed\ndata: ${raw}\n\n`);
    expect(messageBytes(r, 'metadata').toString('utf8')).not.toContain('secret');
  });
});

describe('joinShared', () => {
  it('joins in order and shares one buffer for the same parts', () => {
    const a = Buffer.from('a'), b = Buffer.from('bc');
    const first = joinShared([a, b]);
    expect(first.toString()).toBe('abc');
    expect(joinShared([a, b])).toBe(first);
    expect(joinShared([b, a]).toString()).toBe('bca');
    expect(joinShared([a, Buffer.from('bc')])).not.toBe(first);
  });
});
