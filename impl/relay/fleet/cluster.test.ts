/**
 * The fleet against a failing broker (issue 25): three relay nodes on a real three-server NATS
 * cluster (R3), started together with it. Bounded: one run of each scenario, small counts.
 * Runs in ci.sh's own stage (AEP_CLUSTER_TESTS=1); the full version is reliability/cluster.test.ts.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { spawnNode, fleetStream, type ChildNode } from '../test-utils/fleet-nodes.js';
import { openSse, type SseReader } from '../testing.js';
import { NATS_MISSING, natsServerBinary } from './local-nats.js';
import { busiestServer, startCluster, type NatsCluster } from './test-cluster.js';
import { account, extraCopies, idsOf, loadEvent, newPostLog, postAll } from './test-load.js';

const present = natsServerBinary() !== undefined;
const enabled = process.env.AEP_CLUSTER_TESTS === '1';
const why = !present ? NATS_MISSING : !enabled ? "the three-server cluster tests run in ci.sh's cluster stage (AEP_CLUSTER_TESTS=1)" : '';
const suite = present && enabled ? describe : describe.skip;

let cluster: NatsCluster | undefined;
const nodes: ChildNode[] = [];
const readers: SseReader[] = [];

afterEach(async () => {
  for (const r of readers.splice(0)) r.close();
  if (process.env.AEP_CLUSTER_DEBUG) for (const n of nodes) console.log(`--- node ${n.url}\n${n.stderr()}`);
  await Promise.all(nodes.splice(0).map((n) => n.kill9()));
  await cluster?.dispose();
  cluster = undefined;
});
afterAll(async () => {
  await cluster?.dispose();
});

let stream = '';
async function fleet(count: number, env: Record<string, string> = {}): Promise<ChildNode[]> {
  stream = fleetStream();
  const started = await Promise.all(
    ['a', 'b', 'c'].slice(0, count).map((name) => spawnNode(cluster!.urls, stream, name, { AEP_NATS_REPLICAS: '3', ...env })),
  );
  nodes.push(...started);
  return started;
}

suite(`the fleet on a three-server NATS cluster${why ? ` (skipped: ${why})` : ''}`, () => {
  it('a NATS server killed under steady load: nothing acknowledged is lost or doubled at any node', async () => {
    cluster = await startCluster();
    const [a, b, c] = await fleet(3);
    const subs = await Promise.all([a!, b!, c!].map((n) => openSse(`${n.url}/stream`)));
    readers.push(...subs);
    const events = Array.from({ length: 400 }, (_, i) => loadEvent('load', i));
    const log = newPostLog();
    await postAll(a!.url, events, log, {
      deadline: Date.now() + 40_000,
      onBatch: async (done) => {
        if (done !== 200) return;
        const victim = await busiestServer(cluster!, stream);
        console.log(`[cluster] killing ${victim.name}`);
        await victim.kill9();
      },
    });
    expect(log.acknowledged).toHaveLength(400);
    for (const s of subs) await s.waitFor((t) => new Set(idsOf(t)).size >= 400, 20_000).catch(() => undefined);
    const seen = subs.map((s) => account(idsOf(s.text()), log));
    console.log(`[cluster] kill under load: 503s=${log.unavailable} retry-after=${log.retryAfter} slowest=${log.slowestMs}ms other=${log.other.length}`);
    expect(seen).toEqual([0, 1, 2].map(() => ({ loss: 0, duplicates: 0 })));
    for (const n of [a!, b!, c!]) {
      const replay = await openSse(`${n.url}/stream?from=all&live=0`);
      readers.push(replay);
      await replay.ended;
      const ids = idsOf(replay.text());
      expect({ stored: new Set(ids).size, extra: extraCopies(ids) }).toEqual({ stored: 400, extra: 0 });
    }
  }, 120_000);
});
