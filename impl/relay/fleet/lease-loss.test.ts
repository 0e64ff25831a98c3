/**
 * Split brain after a lost lease: when a node's renewal finds that another node owns one of its
 * sessions (a partition outlasted the lease and a target elsewhere claimed it), the local
 * connection's claim ends. Its next sequenced event claims again and is refused while the other
 * lease is live, commands for the session go to the new owner, and the node says so once.
 *
 * The loss is made the way another node makes it: the test overwrites the session's lease entry
 * with node "b" as its owner, then a target on B claims the session (B takes over "its" entry
 * and renews it), so A's next renewal meets a lease that is no longer its own.
 */
import { connect } from '@nats-io/transport-node';
import { Kvm } from '@nats-io/kv';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningRelay } from '../server.js';
import { fleetStream, startNode } from '../test-utils/fleet-nodes.js';
import { NATS_MISSING, natsServerBinary, startNats, type NatsServer } from '../test-utils/nats-server.js';
import { skipped } from '../../test-utils/skip.js';
import { helloWs, makeEvent, sleep, type WsClient } from '../test-utils/testing.js';
import { fleetNames, sessionToken } from './names.js';
import { startProxy, type TcpProxy } from './test-utils/proxy.js';

const present = natsServerBinary() !== undefined;
if (!present) console.warn(NATS_MISSING);
const suite = present ? describe : describe.skip;

let nats: NatsServer;
const relays: RunningRelay[] = [];
const sockets: WsClient[] = [];
const proxies: TcpProxy[] = [];

beforeAll(async () => {
  if (present) nats = await startNats();
});
afterAll(async () => {
  await nats?.dispose();
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.ws.terminate();
  await Promise.all(relays.splice(0).map((r) => r.close()));
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

const token = 'lease-loss-token';
const AUTH = { authorization: `Bearer ${token}` };
const leaseMs = 1_500;
const TARGET = { role: 'emitter', capabilities: { control: { accepts: ['control.cancel'] } } };

async function node(stream: string, name: string, log: (line: string) => void = () => {}, url = nats.url): Promise<RunningRelay> {
  const r = await startNode(url, stream, name, { token, log, fleet: { leaseMs } as never });
  relays.push(r);
  return r;
}

async function socket(url: string, hello: Record<string, unknown>): Promise<WsClient> {
  const c = await helloWs(url, hello, AUTH);
  sockets.push(c);
  return c;
}

/** Send `event` then a ping; answer the frames the relay sent about it (by the pong, every answer is in). */
async function emit(c: WsClient, event: Record<string, unknown>): Promise<string[]> {
  const from = c.frames.length;
  c.send(JSON.stringify(event));
  c.send({ type: 'ping', t: event.id });
  await c.waitFor((f) => f?.type === 'pong' && f.t === event.id, 5_000, from);
  return c.frames.slice(from).filter((f) => f.includes(`"cause":${JSON.stringify(event.id)}`));
}

/** Overwrite the session's lease as node `owner` would hold it. */
async function takeLease(stream: string, session: string, owner: string): Promise<void> {
  const nc = await connect({ servers: nats.url });
  try {
    const kv = await new Kvm(nc).open(fleetNames(stream).bucket);
    await kv.put(sessionToken(session), JSON.stringify({ node: owner }));
  } finally {
    await nc.close();
  }
}

suite(`a node that loses a lease${skipped(!present, NATS_MISSING)}`, () => {
  it('ends its connection\'s claim: the old owner\'s next event is refused, commands reach the new owner, one log line', async () => {
    const stream = fleetStream();
    const logA: string[] = [];
    const a = await node(stream, 'a', (line) => logA.push(line));
    const b = await node(stream, 'b');
    const old = await socket(a.url, { ...TARGET, identity: { agent: 'tgt', instance: 'on-a' } });
    expect(await emit(old, makeEvent({ id: 'old-0', type: 'session.started', session: 'split', seq: 0, data: {} }))).toEqual([]);

    await takeLease(stream, 'split', 'b');
    const rival = await socket(b.url, { ...TARGET, identity: { agent: 'tgt', instance: 'on-b' } });
    expect(await emit(rival, makeEvent({ id: 'new-1', type: 'progress.status', session: 'split', seq: 1, data: {} }))).toEqual([]);

    // A renews every third of the lease: within one lease it meets B's entry.
    const lost = (): string[] => logA.filter((l) => l.includes('lost the lease on session "split"'));
    for (let i = 0; i < 100 && lost().length === 0; i++) await sleep(30);
    expect(lost()).toHaveLength(1);

    // The old connection no longer claims the session: its next event claims again, refused while B's lease lives.
    expect(await emit(old, makeEvent({ id: 'old-2', type: 'progress.status', session: 'split', seq: 2, data: {} }))).toEqual([
      JSON.stringify({
        type: 'error',
        cause: 'old-2',
        code: 'unauthorized',
        detail: `session "split" is owned by a live target on fleet node "b"; one target owns a session fleet-wide (AEP-0001 §5.2, AEP-0004 §4.5): emit into it on that target's connection, or wait until that lease lapses (AEP_NATS_LEASE_MS=${leaseMs} after its last renewal)`,
      }),
    ]);

    // A command sent on A goes to the new owner on B, not to A's old connection.
    const sender = await socket(a.url, { role: 'consumer' });
    const cmd: Record<string, unknown> = makeEvent({ id: 'cmd-split', type: 'control.cancel', session: 'split', source: 'aep://t/op', data: { scope: 'session' } });
    delete cmd.seq;
    delete cmd.epoch;
    sender.send(JSON.stringify(cmd));
    expect(JSON.parse(await rival.waitFor((f) => f?.id === 'cmd-split', 5_000))).toMatchObject({ type: 'control.cancel', session: 'split' });
    expect(sender.frames.filter((f) => f.includes('"type":"error"'))).toEqual([]);
    expect(old.frames.some((f) => f.includes('cmd-split'))).toBe(false);

    // Still refused a lease later (B renews), and the loss was logged once.
    await sleep(leaseMs);
    expect((await emit(old, makeEvent({ id: 'old-3', type: 'progress.status', session: 'split', seq: 3, data: {} }))).map((f) => JSON.parse(f).code)).toEqual(['unauthorized']);
    expect(lost()).toHaveLength(1);
    expect(logA.filter((l) => l.includes('"split"') && l.includes('lost'))).toHaveLength(1);
  }, 30_000);

  it('checks its leases when NATS returns, before it takes events again: a claim lost during a partition is refused at the first try', async () => {
    const stream = fleetStream();
    const proxy = await startProxy(Number(new URL(nats.url).port));
    proxies.push(proxy);
    const a = await node(stream, 'a', () => {}, proxy.url);
    const b = await node(stream, 'b');
    const old = await socket(a.url, { ...TARGET, identity: { agent: 'tgt', instance: 'on-a' } });
    expect(await emit(old, makeEvent({ id: 'p-0', type: 'session.started', session: 'part', seq: 0, data: {} }))).toEqual([]);

    // A partition longer than the lease: meanwhile a target on B takes the session.
    proxy.drop();
    await sleep(leaseMs);
    await takeLease(stream, 'part', 'b');
    const rival = await socket(b.url, { ...TARGET, identity: { agent: 'tgt', instance: 'on-b' } });
    expect(await emit(rival, makeEvent({ id: 'q-1', type: 'progress.status', session: 'part', seq: 1, data: {} }))).toEqual([]);
    proxy.heal();

    // The old connection tries until NATS answers: the first answer that is not `unavailable` refuses it.
    const codes: string[] = [];
    for (let i = 2; i < 200; i++) {
      const answer = (await emit(old, makeEvent({ id: `p-${i}`, type: 'progress.status', session: 'part', seq: i, data: {} }))).map((f) => JSON.parse(f).code as string);
      if (answer.length === 1 && answer[0] === 'unavailable') {
        await sleep(25);
        continue;
      }
      codes.push(answer.join(',') || 'accepted');
      if (codes.length === 3) break;
    }
    expect(codes).toEqual(['unauthorized', 'unauthorized', 'unauthorized']);
  }, 30_000);
});
