/**
 * Two fleet rules that only a real race or a real wait exercises:
 * - the same event posted through two nodes at once is stored once: the nodes' local buffers
 *   have not seen either copy yet, so only JetStream's `Nats-Msg-Id` window can drop one;
 * - a live owner keeps its session past its lease: renewal, not the first claim, is what refuses
 *   a rival on another node after several lease periods.
 */
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningRelay } from '../server.js';
import { fleetStream, startNode } from '../test-utils/fleet-nodes.js';
import { NATS_MISSING, natsServerBinary, startNats, type NatsServer } from '../test-utils/nats-server.js';
import { skipped } from '../../test-utils/skip.js';
import { helloWs, makeEvent, post, sleep, type WsClient } from '../test-utils/testing.js';

const present = natsServerBinary() !== undefined;
if (!present) console.warn(NATS_MISSING);
const suite = present ? describe : describe.skip;

let nats: NatsServer;
const relays: RunningRelay[] = [];
const sockets: WsClient[] = [];

beforeAll(async () => {
  if (present) nats = await startNats();
});
afterAll(async () => {
  await nats?.dispose();
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.ws.terminate();
  await Promise.all(relays.splice(0).map((r) => r.close()));
});

async function node(stream: string, name: string, opts: Parameters<typeof startNode>[3] = {}): Promise<RunningRelay> {
  const r = await startNode(nats.url, stream, name, opts);
  relays.push(r);
  return r;
}

/** How many messages JetStream holds in `stream`: the count the nodes' own dedupe cannot hide. */
async function storedCount(stream: string): Promise<number> {
  const nc = await connect({ servers: nats.url });
  try {
    const jsm = await jetstreamManager(nc);
    return (await jsm.streams.info(stream)).state.messages;
  } finally {
    await nc.close();
  }
}

suite(`fleet rules under a race and a wait${skipped(!present, NATS_MISSING)}`, () => {
  it('stores an event posted through two nodes at once exactly once (the Nats-Msg-Id window)', async () => {
    const stream = fleetStream();
    const [a, b] = [await node(stream, 'a'), await node(stream, 'b')];
    // Many distinct events in one batch, the same batch to both nodes in the same tick: neither
    // node's buffer has applied any of them when the other publishes.
    const batch = Array.from({ length: 60 }, (_, i) => JSON.stringify(makeEvent({ session: `race-${i % 6}`, seq: Math.floor(i / 6) })));
    const [ra, rb] = await Promise.all([post(a.url, batch), post(b.url, batch)]);
    expect([ra.status, rb.status]).toEqual([202, 202]);
    let stored = 0;
    for (let i = 0; i < 50 && stored < batch.length; i++) {
      stored = await storedCount(stream);
      if (stored < batch.length) await sleep(50);
    }
    await sleep(200); // a second copy, if any, lands by now
    expect(await storedCount(stream)).toBe(batch.length);
  });

  it('keeps a live owner past several lease periods: a rival on another node is refused at every moment of the wait', async () => {
    const stream = fleetStream();
    const token = 'renew-token';
    const AUTH = { authorization: `Bearer ${token}` };
    const leaseMs = 500;
    const a = await node(stream, 'a', { token, fleet: { leaseMs } as never });
    const b = await node(stream, 'b', { token, fleet: { leaseMs } as never });
    const owner = await helloWs(a.url, { role: 'emitter', identity: { agent: 'tgt', instance: 'on-a' }, capabilities: { control: { accepts: ['control.cancel'] } } }, AUTH);
    sockets.push(owner);
    owner.send(JSON.stringify(makeEvent({ id: 'own-0', type: 'session.started', session: 'renew', seq: 0, data: {} })));
    owner.send({ type: 'ping', t: 'claimed' });
    await owner.waitFor((f) => f?.type === 'pong' && f.t === 'claimed', 5000);
    const claimedAt = Date.now();
    const rival = await helloWs(b.url, { role: 'emitter', identity: { agent: 'tgt', instance: 'on-b' }, capabilities: { control: { accepts: ['control.cancel'] } } }, AUTH);
    sockets.push(rival);
    // The rival tries again and again for four lease periods (the claim alone would have expired
    // three times over). A renewal that is missing, or slower than the lease, leaves a moment in
    // which a try is accepted; each try is followed by a ping, so its answer is in by the pong.
    const accepted: string[] = [];
    let tries = 0;
    for (let i = 1; Date.now() - claimedAt < 4 * leaseMs && accepted.length === 0; i++) {
      const id = `rival-${i}`;
      rival.send(JSON.stringify(makeEvent({ id, type: 'progress.status', session: 'renew', seq: i, data: {} })));
      rival.send({ type: 'ping', t: id });
      await rival.waitFor((f) => f?.type === 'pong' && f.t === id, 5000);
      tries++;
      const refused = rival.frames.map((f) => JSON.parse(f)).find((f) => f?.type === 'error' && f.cause === id);
      if (refused === undefined) accepted.push(`${id} at ${Date.now() - claimedAt} ms after the claim`);
      else {
        expect(refused).toMatchObject({ type: 'error', cause: id, code: 'unauthorized' });
        expect(refused.detail).toContain('fleet node "a"');
      }
      await sleep(leaseMs / 10);
    }
    expect(accepted).toEqual([]);
    expect(tries).toBeGreaterThanOrEqual(10);
    expect(owner.frames.some((f) => f.includes('"type":"error"'))).toBe(false);
    // And a command sent on B still reaches the owner on A.
    const sender = await helloWs(b.url, { role: 'consumer' }, AUTH);
    sockets.push(sender);
    const cmd = makeEvent({ id: 'cmd-renew', type: 'control.cancel', session: 'renew', source: 'aep://t/op', data: { scope: 'session' } });
    delete cmd.seq;
    delete cmd.epoch;
    sender.send(JSON.stringify(cmd));
    expect(JSON.parse(await owner.waitFor((f) => f?.id === 'cmd-renew', 5000))).toMatchObject({ type: 'control.cancel' });
  }, 20_000);

  it('answers a roster on any node with the sessions targets on other nodes own, verbatim', async () => {
    const stream = fleetStream();
    const token = 'roster-token';
    const AUTH = { authorization: `Bearer ${token}` };
    const [a, b] = [await node(stream, 'a', { token }), await node(stream, 'b', { token })];
    const control = { accepts: ['control.cancel'], ack_window_ms: 4000 };
    const owner = await helloWs(a.url, { role: 'emitter', identity: { agent: 'ros-agent', instance: 'host/1' }, capabilities: { control, emits: ['session', 'run'] } }, AUTH);
    sockets.push(owner);
    owner.send(JSON.stringify(makeEvent({ id: 'ros-0', type: 'session.started', session: 'ros', seq: 0, data: {} })));
    const watcher = await helloWs(b.url, { role: 'consumer' }, AUTH);
    sockets.push(watcher);
    let reply: any;
    for (let i = 0; i < 40; i++) {
      watcher.send({ type: 'roster', id: `r-${i}` });
      reply = JSON.parse(await watcher.waitFor((f) => f?.type === 'roster' && f.id === `r-${i}`, 5000));
      if (reply.entries.length > 0) break;
      await sleep(50);
    }
    expect(reply.entries).toEqual([{ session: 'ros', agent: 'ros-agent', instance: 'host/1', control, emits: ['session', 'run'] }]);
    // The owner's own node lists it once, from its connection.
    const local = await helloWs(a.url, { role: 'consumer' }, AUTH);
    sockets.push(local);
    local.send({ type: 'roster', id: 'here' });
    expect(JSON.parse(await local.waitFor((f) => f?.type === 'roster', 5000)).entries).toEqual(reply.entries);
  });

  it('releases its leases as a clean shutdown begins: a target that moves while its old connection drains claims its session at once', async () => {
    const stream = fleetStream();
    const token = 'drain-token';
    const AUTH = { authorization: `Bearer ${token}` };
    const a = await startNode(nats.url, stream, 'a', { token, drainMs: 3_000 }); // the default lease (15 s)
    const b = await node(stream, 'b', { token });
    const first = await helloWs(a.url, { role: 'emitter', capabilities: { control: { accepts: ['control.cancel'] } } }, AUTH);
    sockets.push(first);
    first.send(JSON.stringify(makeEvent({ type: 'session.started', session: 'moving', seq: 0, data: {} })));
    first.send({ type: 'ping', t: 'claimed' });
    await first.waitFor((f) => f?.type === 'pong' && f.t === 'claimed', 5000);
    // The old connection stops reading (a target already reconnecting elsewhere): A's drain waits on it.
    (first.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const stopped = a.shutdown();
    await sleep(300);
    const moved = await helloWs(b.url, { role: 'emitter', capabilities: { control: { accepts: ['control.cancel'] } } }, AUTH);
    sockets.push(moved);
    moved.send(JSON.stringify(makeEvent({ type: 'progress.status', session: 'moving', seq: 1, data: {} })));
    moved.send({ type: 'ping', t: 'after' });
    await moved.waitFor((f) => f?.type === 'pong' && f.t === 'after', 5000);
    expect(moved.frames.filter((f) => f.includes('"type":"error"'))).toEqual([]);
    await stopped;
  }, 30_000);


});
