import { describe, expect, it } from 'vitest';
import { streamUrl, subscribe } from './subscription.js';

/** A fetch answering with `status` and a body streamed in `chunks`, recording what it was asked. */
function fakeFetch(status: number, chunks: string[], fail?: Error) {
  const asked: Array<{ url: string; headers: Record<string, string> }> = [];
  const f = (async (url: string, init: { headers: Record<string, string> }) => {
    asked.push({ url, headers: init.headers });
    if (fail) throw fail;
    const enc = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const ch of chunks) c.enqueue(enc.encode(ch));
        c.close();
      },
    });
    return new Response(body, { status });
  }) as unknown as typeof fetch;
  return { f, asked };
}

describe('subscribe', () => {
  it('asks with the token, the version and the query, and yields the parsed items', async () => {
    const { f, asked } = fakeFetch(200, [': replay-exhausted s 0:', '3\n\nid: s:0:3\ndata: {"a"', ':1}\n\n']);
    const opened = await subscribe({ relay: 'http://r:1', token: 't', filter: { session: 's' }, from: 'all', signal: new AbortController().signal, fetch: f });
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    const items = [];
    for await (const item of opened.subscription) items.push(item);
    expect(items).toEqual([
      { kind: 'comment', text: 'replay-exhausted s 0:3' },
      { kind: 'message', id: 's:0:3', data: '{"a":1}' },
    ]);
    expect(opened.subscription.ended).toBe('stream ended');
    expect(asked).toEqual([{ url: 'http://r:1/stream?filter=%7B%22session%22%3A%22s%22%7D&from=all', headers: { accept: 'text/event-stream', 'aep-version': '0.1', authorization: 'Bearer t' } }]);
  });

  it('says why it did not open, as data', async () => {
    const refused = await subscribe({ relay: 'http://r:1', signal: new AbortController().signal, fetch: fakeFetch(401, ['{"error":"unauthorized"}']).f });
    expect(refused).toEqual({ ok: false, kind: 'refused', status: 401, body: '{"error":"unauthorized"}', reason: 'relay refused the subscription: HTTP 401 {"error":"unauthorized"}' });
    const down = await subscribe({ relay: 'http://r:1', signal: new AbortController().signal, fetch: fakeFetch(200, [], new Error('ECONNREFUSED')).f });
    expect(down).toEqual({ ok: false, kind: 'unreachable', reason: 'connect failed: ECONNREFUSED' });
  });

  it('builds the stream URL with filter, capture and from', () => {
    expect(streamUrl({ relay: 'http://127.0.0.1:8787/', filter: { session: 'a' }, capture: 'metadata', from: 'all' })).toBe(
      'http://127.0.0.1:8787/stream?filter=%7B%22session%22%3A%22a%22%7D&capture=metadata&from=all',
    );
    expect(streamUrl({ relay: 'http://h:1', filter: {} })).toBe('http://h:1/stream');
  });
});
