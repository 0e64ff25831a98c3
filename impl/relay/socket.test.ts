import { describe, expect, it } from 'vitest';
import { useRelay } from './test-utils/use-relay.js';
import { helloWs, makeEvent, makeSeries, openSse, openWs, post, sleep, type WsClient } from './test-utils/testing.js';

const harness = useRelay({ instance: 'test/1' });
const { start, clients } = harness;
async function hello(base: string, h: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<WsClient> {
  const c = await helloWs(base, h, headers);
  clients.push(c);
  return c;
}
async function raw(base: string, headers: Record<string, string> = {}): Promise<WsClient> {
  const c = await openWs(`${base.replace('http', 'ws')}/socket`, headers);
  clients.push(c);
  return c;
}

describe('hello', () => {
  it('answers a hello with exactly one selected version and the relay capabilities, byte-exact', async () => {
    const base = await start({ buffer: 8 });
    const c = await hello(base, { versions: ['9.0', '0.1'] });
    expect(c.frames[0]).toBe(
      '{"type":"hello","versions":["0.1"],"role":"both","identity":{"agent":"aep-relay","instance":"test/1"},' +
        '"capabilities":{"filters":["attr-match"],"replay":{"buffer":8,"all":true},"capture":["none","metadata","redacted","full"],' +
        '"control":{"accepts":[]},"roster":{},"experimental":{"pong-acks":{}}}}',
    );
  });

  it('refuses a first frame that is not a hello with hello-required and closes', async () => {
    const base = await start();
    const c = await raw(base);
    c.send({ type: 'subscribe', id: 's' });
    expect((await c.closed).code).toBe(1008);
    expect(c.frames).toEqual(['{"type":"error","id":"s","code":"hello-required","detail":"the first frame on /socket must be a hello (AEP-0003 §3.5)"}']);
  });

  it('refuses garbage and binary first frames with hello-required', async () => {
    const base = await start();
    const a = await raw(base);
    a.sendRaw('not json at all');
    const b = await raw(base);
    b.sendRaw(Buffer.from([1, 2, 3]), true);
    for (const c of [a, b]) {
      expect((await c.closed).code).toBe(1008);
      expect(JSON.parse(c.frames[0]!).code).toBe('hello-required');
    }
  });

  it('closes with version-unsupported when no version is shared', async () => {
    const base = await start();
    const c = await raw(base);
    c.send({ type: 'hello', versions: ['2.0'], role: 'consumer' });
    await c.closed;
    expect(JSON.parse(c.frames[0]!)).toMatchObject({ type: 'error', code: 'version-unsupported', versions: ['0.1'] });
  });

  it('answers a second hello in-band and keeps the connection', async () => {
    const base = await start();
    const c = await hello(base);
    c.send({ type: 'hello', versions: ['0.1'], role: 'consumer' });
    c.send({ type: 'ping', t: 1 });
    await c.waitFor((f) => f?.type === 'pong');
    expect(JSON.parse(c.frames[1]!)).toMatchObject({ type: 'error', code: 'invalid-frame' });
    expect(c.frames[2]).toBe('{"type":"pong","t":1}');
  });

  it('refuses the upgrade without the token when AEP_TOKEN is set', async () => {
    const base = await start({ token: 'tok' });
    await expect(openWs(`${base.replace('http', 'ws')}/socket`)).rejects.toThrow(/401/);
    await expect(openWs(`${base.replace('http', 'ws')}/socket?access_token=bad`)).rejects.toThrow(/401/);
    const ok = await hello(base, {}, { authorization: 'Bearer tok' });
    expect(JSON.parse(ok.frames[0]!).type).toBe('hello');
  });
});

describe('frames after hello', () => {
  it('answers ping with pong, echoing t; ignores unknown frame types', async () => {
    const base = await start();
    const c = await hello(base);
    c.send({ type: 'future-frame', x: 1 });
    c.send({ type: 'closing', reason: 'x', delivered: [] });
    c.send({ type: 'ping', t: 'abc' });
    c.send({ type: 'ping' });
    await c.waitFor((_f, t) => t === '{"type":"pong"}');
    expect(c.frames.slice(1)).toEqual(['{"type":"pong","t":"abc"}', '{"type":"pong"}']);
  });

  it('answers garbage text, non-objects and binary frames in-band and survives', async () => {
    const base = await start();
    const c = await hello(base);
    c.sendRaw('{broken');
    c.sendRaw('[1,2]');
    c.sendRaw(Buffer.from('{"type":"ping"}'), true);
    c.send({ nope: true });
    c.send({ type: 'ping', t: 2 });
    await c.waitFor((f) => f?.type === 'pong');
    const codes = c.frames.slice(1, 5).map((f) => JSON.parse(f).code);
    expect(codes).toEqual(['invalid-frame', 'invalid-frame', 'invalid-frame', 'invalid-frame']);
  });

  it('closes a frame over AEP_MAX_BODY with 1009 and keeps serving others', async () => {
    const base = await start({ maxBody: 2048 });
    const big = await hello(base);
    const other = await hello(base);
    big.sendRaw(JSON.stringify({ type: 'ping', pad: 'x'.repeat(5000) }));
    expect((await big.closed).code).toBe(1009);
    other.send({ type: 'ping', t: 3 });
    await other.waitFor((f) => f?.type === 'pong');
  });

  it('answers an invalid event with invalid-event carrying its id as cause', async () => {
    const base = await start();
    const c = await hello(base, { role: 'emitter' });
    c.send(makeEvent({ id: 'bad-ev-1', time: 'never' }));
    const err = JSON.parse(await c.waitFor((f) => f?.type === 'error'));
    expect(err).toMatchObject({ type: 'error', cause: 'bad-ev-1', code: 'invalid-event' });
    expect(err.detail).toMatch(/\$\.time/);
  });
});

describe('subscriptions', () => {
  it('subscribes, replays, goes live byte-exact, and unsubscribes', async () => {
    const base = await start();
    const lines = makeSeries('ws-a', 0, 3);
    await post(base, lines.slice(0, 2));
    const c = await hello(base);
    c.send({ type: 'subscribe', id: 'sub-1', filter: { session: 'ws-a' }, from: [{ session: 'ws-a', epoch: 0, seq: 0 }] });
    await c.waitFor((_f, t) => t === lines[1]);
    await post(base, [...makeSeries('ws-other', 0, 0), ...lines.slice(2)]);
    await c.waitFor((_f, t) => t === lines[3]);
    expect(c.frames.slice(1)).toEqual(['{"type":"subscribed","id":"sub-1"}', lines[1], lines[2], lines[3]]);
    c.send({ type: 'unsubscribe', id: 'sub-1' });
    await c.waitFor((f) => f?.type === 'unsubscribed');
    await post(base, makeSeries('ws-a', 4, 4));
    c.send({ type: 'ping', t: 'after' });
    await c.waitFor((f) => f?.type === 'pong');
    expect(c.frames.slice(5)).toEqual(['{"type":"unsubscribed","id":"sub-1"}', '{"type":"pong","t":"after"}']);
  });

  it('sends the replay-exhausted frame after subscribed and before the replay', async () => {
    const base = await start({ buffer: 2 });
    const lines = makeSeries('ws-ev', 0, 4);
    await post(base, lines);
    const c = await hello(base);
    c.send({ type: 'subscribe', id: 7, from: [{ session: 'ws-ev', epoch: 0, seq: 1 }] });
    await c.waitFor((_f, t) => t === lines[4]);
    expect(c.frames.slice(1)).toEqual([
      '{"type":"subscribed","id":7}',
      '{"type":"replay-exhausted","sub":7,"session":"ws-ev","earliest":{"epoch":0,"seq":3}}',
      lines[3],
      lines[4],
    ]);
  });

  it('replays every held session for from "all"', async () => {
    const base = await start();
    const a = makeSeries('all-1', 0, 1);
    const b = makeSeries('all-2', 0, 0);
    await post(base, [...a, ...b]);
    const c = await hello(base);
    c.send({ type: 'subscribe', id: 'x', from: 'all' });
    await c.waitFor((_f, t) => t === b[0]);
    expect(c.frames.slice(1)).toEqual(['{"type":"subscribed","id":"x"}', ...a, ...b]);
  });

  it('refuses bad subscribes in-band from the closed code set, keeping the other subscriptions', async () => {
    const base = await start({ maxFrom: 2, maxSubscriptions: 2 });
    const c = await hello(base);
    c.send({ type: 'subscribe', id: 'good', filter: { session: 'keep' } });
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ id: 'f1', filter: { NotAnAttr: 1 } }, 'invalid-filter'],
      [{ id: 'f2', filter: { type: '*' } }, 'invalid-filter'],
      [{ id: 'f3', from: 'nope' }, 'invalid-filter'],
      [{ id: 'f4', from: [{ session: 'a', epoch: 0, seq: 'x' }] }, 'invalid-filter'],
      [{ id: 'f5', from: [1, 2, 3].map((seq) => ({ session: `s${seq}`, epoch: 0, seq })) }, 'limit-exceeded'],
      [{ id: 'f6', capture: 'loud' }, 'invalid-filter'],
      [{ id: '', filter: {} }, 'invalid-filter'],
    ];
    for (const [sub] of refusals) c.send({ type: 'subscribe', ...sub });
    c.send({ type: 'subscribe', id: 'two' });
    c.send({ type: 'subscribe', id: 'three' });
    await c.waitFor((f) => f?.id === 'three');
    const replies = c.frames.slice(1).map((f) => JSON.parse(f));
    expect(replies[0]).toEqual({ type: 'subscribed', id: 'good' });
    refusals.forEach(([sub, code], i) => expect(replies[i + 1], JSON.stringify(sub)).toMatchObject({ type: 'error', code, ...(sub.id !== undefined ? { id: sub.id } : {}) }));
    expect(replies[refusals.length + 1]).toEqual({ type: 'subscribed', id: 'two' });
    expect(replies[refusals.length + 2]).toMatchObject({ type: 'error', id: 'three', code: 'limit-exceeded' });
    expect(replies[refusals.length + 2].detail).toContain('AEP_MAX_SUBS');
    const line = makeSeries('keep', 0, 0)[0]!;
    await post(base, line);
    await c.waitFor((_f, t) => t === line);
  });

  it('delivers to a capture-ceiling subscription down-leveled, to others as received', async () => {
    const base = await start();
    const c = await hello(base);
    c.send({ type: 'subscribe', id: 'meta', capture: 'metadata' });
    c.send({ type: 'subscribe', id: 'asis' });
    await c.waitFor((f) => f?.id === 'asis');
    const line = JSON.stringify(makeEvent({ session: 'cap-ws', capture: 'redacted', data: { message: 'hidden', phase: 'p' } }));
    await post(base, line);
    await c.waitFor((_f, t) => t === line);
    const delivered = c.frames.slice(3).map((f) => JSON.parse(f));
    expect(delivered).toHaveLength(2);
    expect(delivered[0]).toMatchObject({ capture: 'metadata', data: { phase: 'p' } });
    expect(delivered[0].data.message).toBeUndefined();
  });

  it('sends a closing frame with delivered positions, then 1001, on shutdown', async () => {
    const base = await start();
    const c = await hello(base);
    c.send({ type: 'subscribe', id: 's', filter: { session: 'bye' } });
    await c.waitFor((f) => f?.type === 'subscribed');
    const lines = makeSeries('bye', 0, 1);
    await post(base, lines);
    await c.waitFor((_f, t) => t === lines[1]);
    await harness.relay().close();
    expect((await c.closed).code).toBe(1001);
    expect(c.frames.at(-1)).toBe('{"type":"closing","reason":"shutting-down","delivered":[{"sub":"s","session":"bye","epoch":0,"seq":1}]}');
  });

  it('gives an SSE consumer and a WS consumer the same bytes', async () => {
    const base = await start();
    const c = await hello(base);
    c.send({ type: 'subscribe', id: 'same' });
    await c.waitFor((f) => f?.type === 'subscribed');
    const sse = await openSse(`${base}/stream`);
    const line = `{"aep":"0.1","id":"01KSAME000000000000000000A","type":"progress.status","time":"2026-11-30T05:00:00Z","source":"aep://x/y","agent":"y","session":"same","seq":3 ,"data":{}}`;
    await post(base, line);
    await c.waitFor((_f, t) => t === line);
    expect(await sse.waitFor((t) => t.endsWith('\n\n'))).toBe(`id: same:0:3\nevent: progress.status\ndata: ${line}\n\n`);
    sse.close();
    await sleep(0);
  });
});

describe('frame order when the hub answers with promises', () => {
  it('stores and fans out a burst of frames in the order sent, though a session\'s first event waits for its claim, and answers the roster and the pong after them', async () => {
    const base = await start();
    const watcher = await hello(base);
    watcher.send({ type: 'subscribe', id: 'w', filter: { session: ['o-1', 'o-2', 'o-3'] } });
    await watcher.waitFor((f) => f?.type === 'subscribed');
    const emitter = await hello(base, { role: 'both' });
    const order = [['o-1', 0], ['o-1', 1], ['o-2', 0], ['o-1', 2], ['o-3', 0], ['o-2', 1], ['o-3', 1]] as const;
    const lines = order.map(([session, seq]) => JSON.stringify(makeEvent({ session, seq })));
    // One synchronous burst: the frames reach the relay together; each session's first event claims it.
    for (const l of lines.slice(0, 3)) emitter.sendRaw(l);
    emitter.send({ type: 'roster', id: 'r' });
    for (const l of lines.slice(3)) emitter.sendRaw(l);
    emitter.send({ type: 'ping', t: 'end' });
    await emitter.waitFor((f) => f?.type === 'pong');
    await watcher.waitFor((_f, t) => t === lines.at(-1));
    expect(watcher.frames.filter((f) => f.startsWith('{"aep"'))).toEqual(lines);
    const replies = emitter.frames.filter((f) => /"type":"(roster|pong|error)"/.test(f));
    expect(replies).toEqual(['{"type":"roster","id":"r","entries":[{"session":"o-1"},{"session":"o-2"}]}', '{"type":"pong","t":"end"}']);
  });
});
