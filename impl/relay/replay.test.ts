/**
 * Issue 14 defects 7, 8 and 9: replays are delivered whole (backpressure, bounded chunks), and a
 * resume that cannot be served without a gap always says `replay-exhausted` (AEP-0003 §5).
 */
import { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REPLAY_CHUNK } from './sse.js';
import { useRelay } from './test-utils/use-relay.js';
import { helloWs, makeEvent, makeSeries, openSse, post } from './test-utils/testing.js';

const h = useRelay();
afterEach(() => vi.restoreAllMocks());

const big = (session: string, seq: number, kb: number): string => JSON.stringify(makeEvent({ session, seq, severity: 'info', capture: 'redacted', data: { message: 'z'.repeat(kb * 1024) } }));

describe('defect 7: a large WebSocket replay loses nothing', () => {
  it('delivers all 199 info events of 100 kB to a reading consumer, in order, with a small slow bound', async () => {
    const base = await h.start({ slowBytes: 1024 * 1024, maxBody: 64 * 1024 * 1024 });
    for (let i = 0; i < 199; i += 20) expect((await post(base, Array.from({ length: Math.min(20, 199 - i) }, (_, k) => big('wide', i + k, 100)))).status).toBe(202);
    const c = await helloWs(base);
    h.clients.push(c);
    c.send({ type: 'subscribe', id: 'all', from: 'all', filter: { session: 'wide' } });
    await c.waitFor((f) => f?.session === 'wide' && f.seq === 198, 20_000);
    const seqs = c.frames.filter((f) => f.startsWith('{"aep"')).map((f) => JSON.parse(f).seq as number);
    expect(seqs).toEqual(Array.from({ length: 199 }, (_, i) => i));
    expect(c.frames.some((f) => f.includes('"type":"closing"'))).toBe(false);
    console.log(`[reliability] WS replay: ${seqs.length} events of 100 kB delivered, 0 lost`);
  }, 30_000);
});

describe('defect 8: an SSE replay is streamed in bounded chunks', () => {
  it('never writes more than one chunk plus one message at once, and delivers every event', async () => {
    const base = await h.start({ maxBody: 64 * 1024 * 1024 });
    for (let i = 0; i < 400; i += 50) expect((await post(base, Array.from({ length: 50 }, (_, k) => big('chunky', i + k, 64)))).status).toBe(202);
    const sizes: number[] = [];
    const write = ServerResponse.prototype.write;
    vi.spyOn(ServerResponse.prototype, 'write').mockImplementation(function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
      if (typeof chunk === 'string') sizes.push(chunk.length);
      return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    });
    const sse = await openSse(`${base}/stream?from=all&live=0`);
    await sse.ended;
    const ids = sse.text().match(/^id: chunky:0:\d+$/gm) ?? [];
    expect(ids.length).toBe(400);
    expect(sse.text().endsWith(': replay-complete\n\n')).toBe(true);
    const oneMessage = 64 * 1024 + 1024;
    expect(Math.max(...sizes)).toBeLessThanOrEqual(REPLAY_CHUNK + oneMessage);
    console.log(`[reliability] SSE replay: 400 events of 64 kB in ${sizes.length} writes, largest ${Math.max(...sizes)} chars`);
  }, 30_000);
});

describe('replay then live, under backpressure', () => {
  it('live events posted while a large replay drains to a slow reader all follow it, in order', async () => {
    const base = await h.start({ maxBody: 64 * 1024 * 1024 });
    for (let i = 0; i < 3000; i += 500) expect((await post(base, Array.from({ length: 500 }, (_, k) => big('mix', i + k, 2)))).status).toBe(202);
    const { request } = await import('node:http');
    let text = '';
    const res = await new Promise<import('node:http').IncomingMessage>((resolve) => request(`${base}/stream?filter=${encodeURIComponent('{"session":"mix"}')}&from=${encodeURIComponent('[{"session":"mix","epoch":0,"seq":0}]')}`, { headers: { accept: 'text/event-stream' } }, resolve).end());
    res.setEncoding('utf8');
    res.on('data', (c: string) => (text += c));
    // Read in bursts, so the relay's writes keep hitting backpressure, while live events arrive.
    const reading = (async () => {
      for (let i = 0; i < 40; i++) {
        res.pause();
        await new Promise((r) => setTimeout(r, 5));
        res.resume();
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    for (let seq = 3000; seq < 3060; seq += 3) expect((await post(base, [big('mix', seq, 2), big('mix', seq + 1, 2), big('mix', seq + 2, 2)])).status).toBe(202);
    await reading;
    const deadline = Date.now() + 15_000;
    while (!text.slice(-10_000).includes('id: mix:0:3059\n') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    res.destroy();
    const seqs = (text.match(/^id: mix:0:(\d+)$/gm) ?? []).map((l) => Number(l.split(':').pop()));
    expect(seqs).toEqual(Array.from({ length: 3059 }, (_, i) => i + 1));
  }, 30_000);
});

describe('defect 9: no silent gap after a restart or a session eviction', () => {
  it('after a restart (the relay holds seq 100 onwards), a resume from 49 says replay-exhausted on SSE and WS; one from 99 does not', async () => {
    const base = await h.start();
    expect((await post(base, makeSeries('rs', 100, 104))).status).toBe(202);
    const sse = await openSse(`${base}/stream?live=0&from=${encodeURIComponent(JSON.stringify([{ session: 'rs', epoch: 0, seq: 49 }]))}`);
    await sse.ended;
    expect(sse.text().startsWith(': replay-exhausted rs 0:100\n\nid: rs:0:100\n')).toBe(true);
    const last = await openSse(`${base}/stream?live=0`, { 'last-event-id': 'rs:0:49' });
    await last.ended;
    expect(last.text().startsWith(': replay-exhausted rs 0:100\n\n')).toBe(true);
    const fine = await openSse(`${base}/stream?live=0`, { 'last-event-id': 'rs:0:99' });
    await fine.ended;
    expect(fine.text().startsWith('id: rs:0:100\n')).toBe(true);
    const c = await helloWs(base);
    h.clients.push(c);
    c.send({ type: 'subscribe', id: 'w', from: [{ session: 'rs', epoch: 0, seq: 49 }] });
    await c.waitFor((f) => f?.seq === 104);
    expect(c.frames.slice(1, 3)).toEqual(['{"type":"subscribed","id":"w"}', '{"type":"replay-exhausted","sub":"w","session":"rs","earliest":{"epoch":0,"seq":100}}']);
  });

  it('a resume into a session held nowhere is judged at its first event: a marker unless it follows', async () => {
    const base = await h.start();
    const gap = await openSse(`${base}/stream?from=${encodeURIComponent(JSON.stringify([{ session: 'late', epoch: 0, seq: 49 }, { session: 'next', epoch: 0, seq: 9 }]))}`);
    const c = await helloWs(base);
    h.clients.push(c);
    c.send({ type: 'subscribe', id: 'w', from: [{ session: 'late', epoch: 0, seq: 49 }] });
    await c.waitFor((f) => f?.type === 'subscribed');
    expect((await post(base, [...makeSeries('late', 100, 101), ...makeSeries('next', 10, 11)])).status).toBe(202);
    await gap.waitFor((t) => t.includes('id: next:0:11'));
    expect(gap.text().split('\n\n').filter((m) => m !== '').map((m) => m.split('\n')[0])).toEqual([': replay-exhausted late 0:100', 'id: late:0:100', 'id: late:0:101', 'id: next:0:10', 'id: next:0:11']);
    await c.waitFor((f) => f?.seq === 101);
    expect(c.frames[2]).toBe('{"type":"replay-exhausted","sub":"w","session":"late","earliest":{"epoch":0,"seq":100}}');
    expect(JSON.parse(c.frames[3]!).seq).toBe(100);
    gap.close();
  });

  it('a session evicted whole (AEP_MAX_SESSIONS) answers a resume with replay-exhausted', async () => {
    const base = await h.start({ maxSessions: 1 });
    expect((await post(base, makeSeries('evicted', 0, 4))).status).toBe(202);
    expect((await post(base, makeSeries('newer', 0, 0))).status).toBe(202);
    const sse = await openSse(`${base}/stream?live=0`, { 'last-event-id': 'evicted:0:2' });
    await sse.ended;
    expect(sse.text()).toBe(': replay-exhausted evicted 0:5\n\n: replay-complete\n\n');
    const c = await helloWs(base);
    h.clients.push(c);
    c.send({ type: 'subscribe', id: 'e', from: [{ session: 'evicted', epoch: 0, seq: 2 }] });
    await c.waitFor((f) => f?.type === 'replay-exhausted');
    expect(c.frames[2]).toBe('{"type":"replay-exhausted","sub":"e","session":"evicted","earliest":{"epoch":0,"seq":5}}');
  });
});
