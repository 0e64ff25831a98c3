/**
 * Three fleet nodes on one real nats-server (JetStream): fan-out across nodes, one copy on
 * replay, exact-tail resume after kill -9, control across nodes, and NATS going away.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningRelay } from '../server.js';
import { fleetStream, spawnNode, startNode, type ChildNode } from '../test-utils/fleet-nodes.js';
import { NATS_MISSING, natsServerBinary, startNats, type NatsServer } from '../test-utils/nats-server.js';
import { skipped } from '../../test-utils/skip.js';
import { helloWs, makeEvent, openSse, post, sleep, type SseReader, type WsClient } from '../test-utils/testing.js';

const present = natsServerBinary() !== undefined;
if (!present) console.warn(NATS_MISSING);
const suite = present ? describe : describe.skip;

/** The `data:` payloads of the complete SSE messages in `text`, in order. */
function dataOf(text: string): string[] {
  const complete = text.slice(0, text.lastIndexOf('\n\n') + 2);
  return complete
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => l.slice(6));
}

/** The `id:` of the last complete SSE message in `text`. */
function lastId(text: string): string | undefined {
  const complete = text.slice(0, text.lastIndexOf('\n\n') + 2);
  const ids = complete.split('\n').filter((l) => l.startsWith('id: '));
  return ids.at(-1)?.slice(4);
}

const seqOf = (raw: string): number => (JSON.parse(raw) as { seq: number }).seq;

let nats: NatsServer;
const relays: RunningRelay[] = [];
const children: ChildNode[] = [];
const readers: SseReader[] = [];
const sockets: WsClient[] = [];

beforeAll(async () => {
  if (present) nats = await startNats();
});
afterAll(async () => {
  await nats?.dispose();
});
afterEach(async () => {
  for (const r of readers.splice(0)) r.close();
  for (const s of sockets.splice(0)) s.ws.terminate();
  await Promise.all(relays.splice(0).map((r) => r.close()));
  await Promise.all(children.splice(0).map((c) => c.kill9()));
});

async function node(stream: string, name: string, opts: Parameters<typeof startNode>[3] = {}, url = nats.url): Promise<RunningRelay> {
  const r = await startNode(url, stream, name, opts);
  relays.push(r);
  return r;
}

async function sse(url: string, headers: Record<string, string> = {}): Promise<SseReader> {
  const r = await openSse(url, headers);
  readers.push(r);
  return r;
}

suite(`a three-node fleet${skipped(!present, NATS_MISSING)}`, () => {
  it('fans an event posted to A out to B and C in (epoch, seq) order, and every replay serves one copy', async () => {
    const stream = fleetStream();
    const [a, b, c] = [await node(stream, 'a'), await node(stream, 'b'), await node(stream, 'c')];
    const onB = await sse(`${b.url}/stream`);
    const onC = await sse(`${c.url}/stream`);
    const lines: string[] = [];
    for (let seq = 0; seq < 10; seq++) for (const session of ['f-1', 'f-2']) lines.push(JSON.stringify(makeEvent({ session, seq, epoch: 1 })));
    expect((await post(a.url, lines)).body).toEqual({ accepted: 20, duplicates: 0 });
    for (const r of [onB, onC]) {
      await r.waitFor((t) => dataOf(t).length >= 20, 5000);
      expect(dataOf(r.text())).toEqual(lines);
    }
    // The same batch again, through B: JetStream keeps one copy, every copy is still forwarded live.
    expect((await post(b.url, lines)).body).toEqual({ accepted: 20, duplicates: 20 });
    for (const r of [onB, onC]) {
      await r.waitFor((t) => dataOf(t).length >= 40, 5000);
      expect(dataOf(r.text())).toEqual([...lines, ...lines]);
    }
    const bySession = [...lines.filter((l) => l.includes('"f-1"')), ...lines.filter((l) => l.includes('"f-2"'))];
    for (const n of [a, b, c]) {
      const all = await sse(`${n.url}/stream?from=all&live=0`);
      await all.ended;
      expect(dataOf(all.text())).toEqual(bySession);
      const from = await sse(`${n.url}/stream?live=0&from=${encodeURIComponent(JSON.stringify([{ session: 'f-1', epoch: 1, seq: 6 }]))}`);
      await from.ended;
      expect(dataOf(from.text()).map(seqOf)).toEqual([7, 8, 9]);
      const resumed = await sse(`${n.url}/stream?live=0`, { 'last-event-id': 'f-2:1:8' });
      await resumed.ended;
      expect(dataOf(resumed.text())).toEqual([lines[19]]);
    }
    // A fourth node started later reads the stream from its start and answers the same.
    const late = await node(stream, 'late');
    const all = await sse(`${late.url}/stream?from=all&live=0`);
    await all.ended;
    expect(dataOf(all.text())).toEqual(bySession);
  });

  it('answers replay-exhausted at the same position on every node, also on one started after the eviction', async () => {
    const stream = fleetStream();
    const [a, b] = [await node(stream, 'a', { buffer: 4 }), await node(stream, 'b', { buffer: 4 })];
    const lines: string[] = [];
    for (let seq = 0; seq < 12; seq++) lines.push(JSON.stringify(makeEvent({ session: 'ex', seq })));
    expect((await post(a.url, lines)).status).toBe(202);
    await sleep(200);
    const late = await node(stream, 'late', { buffer: 4 });
    const answers: string[][] = [];
    for (const n of [a, b, late]) {
      const texts: string[] = [];
      for (const seq of [0, 6, 7, 8]) {
        const r = await sse(`${n.url}/stream?live=0&from=${encodeURIComponent(JSON.stringify([{ session: 'ex', epoch: 0, seq }]))}`);
        await r.ended;
        texts.push(r.text());
      }
      answers.push(texts);
    }
    expect(answers[0]![0]!.startsWith(': replay-exhausted ex 0:8\n\n')).toBe(true);
    expect(answers[0]![2]!.startsWith(': replay-exhausted ex 0:8\n\n')).toBe(true); // seq 7 was itself evicted
    expect(answers[0]![3]).not.toContain('replay-exhausted');
    expect(dataOf(answers[0]![3]!)).toEqual(lines.slice(9));
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it('after kill -9 of node B its subscriber resumes on C with Last-Event-ID and gets exactly the tail (loss 0, duplicates 0)', async () => {
    const stream = fleetStream();
    const a = await node(stream, 'a');
    const b = await spawnNode(nats.url, stream, 'b');
    children.push(b);
    const c = await node(stream, 'c');
    const onB = await sse(`${b.url}/stream`);
    const total = 300;
    let posted = 0;
    const posting = (async () => {
      for (let first = 0; first < total; first += 10) {
        const batch: string[] = [];
        for (let seq = first; seq < first + 10; seq++) batch.push(JSON.stringify(makeEvent({ session: 'kill', seq })));
        expect((await post(a.url, batch)).status).toBe(202);
        posted += batch.length;
        await sleep(5);
      }
    })();
    await onB.waitFor((t) => dataOf(t).length >= 100, 10_000);
    await b.kill9();
    expect(posted).toBeLessThan(total); // mid-stream
    await onB.ended;
    const before = dataOf(onB.text()).map(seqOf);
    const id = lastId(onB.text());
    expect(id).toBe(`kill:0:${before.at(-1)}`);
    const onC = await sse(`${c.url}/stream`, { 'last-event-id': id! });
    await posting;
    await onC.waitFor((t) => dataOf(t).length >= total - before.length, 10_000);
    await sleep(100);
    const got = [...before, ...dataOf(onC.text()).map(seqOf)];
    const loss = total - new Set(got).size;
    const duplicates = got.length - new Set(got).size;
    expect({ loss, duplicates }).toEqual({ loss: 0, duplicates: 0 });
    expect(got).toEqual([...Array(total).keys()]);
    expect(onC.text()).not.toContain('replay-exhausted');
  });

  it('stores WebSocket events through JetStream, and a pong follows only when every earlier event is stored', async () => {
    const stream = fleetStream();
    const [a, c] = [await node(stream, 'a'), await node(stream, 'c')];
    const emitter = await helloWs(a.url, { role: 'emitter' });
    sockets.push(emitter);
    const lines: string[] = [];
    for (let seq = 0; seq < 500; seq++) lines.push(JSON.stringify(makeEvent({ session: 'ws-1', seq })));
    const t0 = Date.now();
    for (const l of lines) emitter.send(l);
    emitter.send({ type: 'ping', t: 'after-500' });
    await emitter.waitFor((f) => f?.type === 'pong' && f.t === 'after-500', 10_000);
    const ms = Date.now() - t0;
    const onA = await sse(`${a.url}/stream?from=all&live=0`);
    await onA.ended;
    expect(dataOf(onA.text())).toEqual(lines);
    expect(emitter.frames.some((f) => f.includes('"type":"error"'))).toBe(false);
    const onC = await sse(`${c.url}/stream`, { 'last-event-id': 'ws-1:0:249' });
    await onC.waitFor((t) => dataOf(t).length >= 250, 5000);
    expect(dataOf(onC.text())).toEqual(lines.slice(250));
    console.log(`[fleet] 500 WebSocket events stored and ponged in ${ms} ms`);
  });

  it('routes a command from a consumer on A to the target on C, the ack reaches A once, and a second claimant on B is refused', async () => {
    const stream = fleetStream();
    const token = 'fleet-token';
    const AUTH = { authorization: `Bearer ${token}` };
    const [a, b, c] = [await node(stream, 'a', { token }), await node(stream, 'b', { token }), await node(stream, 'c', { token })];
    const ws = async (url: string, hello: Record<string, unknown>): Promise<WsClient> => {
      const s = await helloWs(url, hello, AUTH);
      sockets.push(s);
      return s;
    };
    const target = await ws(c.url, { role: 'emitter', identity: { agent: 'tgt', instance: 'on-c' }, capabilities: { control: { accepts: ['control.attention.respond'], ack_window_ms: 5000 } } });
    const consumer = await ws(a.url, { role: 'consumer' });
    consumer.send({ type: 'subscribe', id: 'w', filter: { session: 'perm' } });
    await consumer.waitFor((f) => f?.type === 'subscribed');
    target.send(JSON.stringify(makeEvent({ type: 'session.started', session: 'perm', seq: 0, data: {} })));
    const ask = JSON.stringify(makeEvent({ id: 'ask-1', type: 'attention.request', session: 'perm', seq: 1, data: { kind: 'permission', prompt: 'run rm?' } }));
    target.send(ask);
    await consumer.waitFor((_f, text) => text === ask, 5000);

    const cmdEvent = makeEvent({ id: 'cmd-perm', type: 'control.attention.respond', session: 'perm', agent: 'op', source: 'aep://t/op', cause: 'ask-1', data: { answer: { option: 'yes' } } });
    delete cmdEvent.seq;
    delete cmdEvent.epoch;
    const cmd = JSON.stringify(cmdEvent);
    consumer.send(cmd);
    expect(await target.waitFor((_f, text) => text === cmd, 5000)).toBe(cmd);
    const ack = JSON.stringify(makeEvent({ id: 'ack-perm', type: 'control.accepted', session: 'perm', seq: 2, cause: 'cmd-perm', data: {} }));
    target.send(ack);
    await consumer.waitFor((_f, text) => text === ack, 5000);
    await sleep(200);
    expect(consumer.frames.filter((f) => f === ack)).toHaveLength(1);
    expect(consumer.frames.some((f) => f.includes('"type":"error"'))).toBe(false);

    // A second target claiming the session on B is refused, and so is a forged ack from it.
    const rival = await ws(b.url, { role: 'emitter', identity: { agent: 'tgt', instance: 'on-b' }, capabilities: { control: { accepts: ['control.attention.respond'] } } });
    rival.send(JSON.stringify(makeEvent({ id: 'rival-3', type: 'progress.status', session: 'perm', seq: 3, data: {} })));
    const refused = JSON.parse(await rival.waitFor((f) => f?.type === 'error', 5000));
    expect(refused).toMatchObject({ type: 'error', cause: 'rival-3', code: 'unauthorized' });
    expect(refused.detail).toContain('fleet node "c"');
    rival.send(JSON.stringify(makeEvent({ id: 'forged', type: 'control.accepted', session: 'perm', seq: 4, cause: 'cmd-perm', data: {} })));
    expect(JSON.parse(await rival.waitFor((f) => f?.cause === 'forged', 5000))).toMatchObject({ code: 'unauthorized' });

    // The retry arrives on B: routed to C again, the target re-sends its recorded ack, the same bytes reach B's consumer.
    const retrier = await ws(b.url, { role: 'consumer' });
    retrier.send({ type: 'subscribe', id: 'r', filter: { type: 'control.*' } });
    await retrier.waitFor((f) => f?.type === 'subscribed');
    retrier.send(cmd);
    await target.waitFor((_f, text) => text === cmd, 5000, target.frames.indexOf(cmd) + 1);
    target.send(ack);
    expect(await retrier.waitFor((_f, text) => text === ack, 5000)).toBe(ack);
    const replay = await sse(`${b.url}/stream?from=all&live=0&access_token=${token}`);
    await replay.ended;
    expect(dataOf(replay.text()).filter((d) => d === ack)).toHaveLength(1);
    expect(dataOf(replay.text()).some((d) => d.includes('rival-3') || d.includes('forged'))).toBe(false);
  });

  it('stops routing to a dead node once its lease expires, and the session can be claimed elsewhere', async () => {
    const stream = fleetStream();
    const token = 'lease-token';
    const AUTH = { authorization: `Bearer ${token}` };
    const a = await node(stream, 'a', { token, fleet: { leaseMs: 600 } as never });
    const b = await spawnNode(nats.url, stream, 'b', { AEP_TOKEN: token, AEP_NATS_LEASE_MS: '600' });
    children.push(b);
    const target = await helloWs(b.url, { role: 'emitter', capabilities: { control: { accepts: ['control.cancel'] } } }, AUTH);
    sockets.push(target);
    target.send(JSON.stringify(makeEvent({ type: 'session.started', session: 'lease', seq: 0, data: {} })));
    await sleep(300);
    await b.kill9();
    const sender = await helloWs(a.url, { role: 'consumer' }, AUTH);
    sockets.push(sender);
    await sleep(1_500); // longer than the lease
    const cmd = makeEvent({ id: 'cmd-dead', type: 'control.cancel', session: 'lease', source: 'aep://t/op', data: { scope: 'session' } });
    delete cmd.seq;
    delete cmd.epoch;
    sender.send(JSON.stringify(cmd));
    const err = JSON.parse(await sender.waitFor((f) => f?.cause === 'cmd-dead', 5000));
    expect(err).toMatchObject({ code: 'no-route' });
    expect(err.detail).toContain('no connected emitter owns session');
    const heir = await helloWs(a.url, { role: 'emitter', capabilities: { control: { accepts: ['control.cancel'] } } }, AUTH);
    sockets.push(heir);
    heir.send(JSON.stringify(makeEvent({ id: 'heir-1', type: 'progress.status', session: 'lease', seq: 1, data: {} })));
    await sleep(300);
    expect(heir.frames.some((f) => f.includes('"type":"error"'))).toBe(false);
  });
});

suite(`a fleet node when NATS goes away${skipped(!present, NATS_MISSING)}`, () => {
  it('holds a POST through an outage shorter than the failover window: 202, not 503; /healthz and one log line report the failover and its duration', async () => {
    const own = await startNats();
    const lines: string[] = [];
    try {
      const stream = fleetStream();
      const a = await node(stream, 'a', { fleet: { failoverMs: 8_000 } as never, log: (l: string) => lines.push(l) }, own.url);
      const onA = await sse(`${a.url}/stream?filter=${encodeURIComponent(JSON.stringify({ session: 'held' }))}`);
      const first = JSON.stringify(makeEvent({ session: 'held', seq: 0 }));
      expect((await post(a.url, [first])).status).toBe(202);
      const health = async (): Promise<any> => (await fetch(`${a.url}/healthz`)).json();
      await own.stop();
      for (let i = 0; i < 100 && (await health()).fleet.nats !== 'unreachable'; i++) await sleep(50);
      const second = JSON.stringify(makeEvent({ session: 'held', seq: 1 }));
      const askedAt = Date.now();
      const held = post(a.url, [second]);
      await sleep(600);
      expect((await health()).fleet.failover).toMatchObject({ state: 'holding', since: expect.any(String), held_ms: expect.any(Number), count: 0 });
      await own.restart();
      const answer = await held;
      const tookMs = Date.now() - askedAt;
      expect(answer.status).toBe(202);
      expect(answer.body).toEqual({ accepted: 1, duplicates: 0 });
      expect(tookMs).toBeLessThan(8_500);
      await onA.waitFor((t) => dataOf(t).length >= 2, 10_000);
      expect(dataOf(onA.text())).toEqual([first, second]);
      const after = (await health()).fleet.failover;
      expect(after).toMatchObject({ state: 'none', count: 1, last: { ended: expect.any(String), refused: 0 } });
      expect(after.last.ms).toBeGreaterThan(0);
      expect(after.last.ms).toBeLessThanOrEqual(tookMs + 1_000);
      const said = lines.filter((l) => l.startsWith('fleet failover over on node a'));
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(/after \d+\.\d s \(\d+ ms\) of held publishes; no request was refused$/);
    } finally {
      await Promise.all(relays.splice(0).map((r) => r.close()));
      await own.dispose();
    }
  }, 60_000);

  it('answers 503 while NATS is down, acknowledges nothing, and ingests again once NATS is back', async () => {
    const own = await startNats();
    try {
      const stream = fleetStream();
      // A short failover window: this test is about an outage longer than it.
      const a = await node(stream, 'a', { fleet: { failoverMs: 1_000 } as never }, own.url);
      const c = await node(stream, 'c', {}, own.url);
      const onC = await sse(`${c.url}/stream?filter=${encodeURIComponent(JSON.stringify({ session: 'down' }))}`);
      const first = JSON.stringify(makeEvent({ session: 'down', seq: 0 }));
      expect((await post(a.url, [first])).status).toBe(202);
      const emitter = await helloWs(a.url, { role: 'emitter' });
      sockets.push(emitter);
      emitter.send(JSON.stringify(makeEvent({ session: 'down-ws', seq: 0 })));
      emitter.send({ type: 'ping', t: 'stored' });
      await emitter.waitFor((f) => f?.type === 'pong' && f.t === 'stored', 5000);
      await own.stop();
      const health = async (): Promise<any> => (await fetch(`${a.url}/healthz`)).json();
      for (let i = 0; i < 100 && (await health()).fleet.nats !== 'unreachable'; i++) await sleep(50);
      expect((await health()).fleet).toEqual({ node: 'a', stream, nats: 'unreachable', failover: { state: 'none', count: 0 } });
      const second = JSON.stringify(makeEvent({ session: 'down', seq: 1 }));
      const askedAt = Date.now();
      const refused = await post(a.url, [second]);
      // Held for the 1 s failover window, then refused: never sooner, never much later.
      expect(Date.now() - askedAt).toBeGreaterThanOrEqual(900);
      expect(Date.now() - askedAt).toBeLessThan(2_500);
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.body.error).toBe('unavailable');
      expect(refused.body.detail).toContain('nothing of this request is acknowledged');
      const lost = makeEvent({ session: 'down-ws', seq: 1 });
      emitter.send(JSON.stringify(lost));
      const wsRefusal = JSON.parse(await emitter.waitFor((f) => f?.type === 'error', 5000));
      expect(wsRefusal).toMatchObject({ type: 'error', code: 'unavailable', cause: lost.id });
      expect(wsRefusal.detail).toContain('was not stored');
      const newcomer = await helloWs(a.url, { role: 'emitter' });
      sockets.push(newcomer);
      const unclaimed = makeEvent({ session: 'down-new', seq: 0 });
      newcomer.send(JSON.stringify(unclaimed));
      expect(JSON.parse(await newcomer.waitFor((f) => f?.type === 'error', 5000))).toMatchObject({ code: 'unavailable', cause: unclaimed.id });
      const disc = await (await fetch(`${a.url}/.well-known/aep`)).json();
      expect((disc as any).fleet).toMatchObject({ node: 'a', stream, nats: 'unreachable', failover: { state: 'holding' } });
      await own.restart();
      let status = 0;
      for (let i = 0; i < 200 && status !== 202; i++) {
        status = (await post(a.url, [second])).status;
        if (status !== 202) await sleep(100);
      }
      expect(status).toBe(202);
      await onC.waitFor((t) => dataOf(t).length >= 2, 20_000);
      expect(dataOf(onC.text())).toEqual([first, second]);
      expect((await health()).fleet.nats).toBe('reachable');
    } finally {
      await Promise.all(relays.splice(0).map((r) => r.close()));
      await own.dispose();
    }
  }, 60_000);
});
