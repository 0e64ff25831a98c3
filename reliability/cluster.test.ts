/**
 * The fleet against a failing broker (issue 25), full run: three relay nodes on a real
 * three-server NATS cluster (R3), started while the cluster forms; 2,000 events with three
 * server kills (each the server hosting the most consumers), a relay node killed with a command
 * in flight (twice), and partitions of one node through TCP proxies (silent for 8 s, refused for
 * 5 s). Loss 0 and duplicates 0, counted at the consumers. With AEP_RELIABILITY=ci it is
 * skipped: CI runs the bounded version as its own stage (impl/relay/fleet/cluster.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { NATS_MISSING, natsServerBinary } from '../impl/relay/fleet/local-nats.js';
import { ClusterHarness, killNodeWithCommandInFlight, killServersUnderLoad, partitionNode } from '../impl/relay/fleet/test-utils/scenarios.js';
import { CI, figures } from './test-utils/scale.js';

const present = natsServerBinary() !== undefined;
const why = !present ? NATS_MISSING : CI ? "CI runs the bounded cluster tests as ci.sh's own stage (impl/relay/fleet/cluster.test.ts)" : '';
const suite = why === '' ? describe : describe.skip;

const h = new ClusterHarness();
afterEach((ctx) => h.cleanup(ctx.task.result?.state === 'fail'));

suite(`the fleet on a three-server NATS cluster, full run${why ? ` (skipped: ${why})` : ''}`, () => {
  it('2,000 events, three NATS servers killed one after another under load: loss 0, duplicates 0 at every node', async () => {
    const f = await killServersUnderLoad(h, { events: 2_000, kills: 3 });
    expect(f.kills).toHaveLength(3);
    figures('cluster server kills', { events: f.events, kills: f.kills.join(','), unavailable: f.unavailable, slowest_ms: f.slowestMs, first_202_median_ms: f.median, first_202_worst_ms: f.worst, broker_median_ms: f.brokerMedian, broker_worst_ms: f.brokerWorst, loss: 0, duplicates: 0 });
  }, 240_000);

  for (const run of [1, 2]) {
    it(`a relay node killed with a command in flight (run ${run}): the retry is answered once, with the recorded ack`, async () => {
      const f = await killNodeWithCommandInFlight(h);
      figures(`cluster node kill ${run}`, { attempts: f.attempts, claims: f.claims, acks_seen: 1 });
    }, 90_000);
  }

  for (const [mode, holdMs] of [['pause', 8_000], ['drop', 5_000]] as const) {
    it(`a node partitioned (${mode}, ${holdMs} ms) acknowledges nothing, says nats: unreachable, and catches up`, async () => {
      const f = await partitionNode(h, { mode, holdMs, events: 600 });
      figures(`cluster partition ${mode}`, { held_ms: f.heldMs, refused: f.refusedWhileCut, unreachable_after_ms: f.unreachableAfterMs, loss: 0, duplicates: 0 });
    }, 180_000);
  }
});
