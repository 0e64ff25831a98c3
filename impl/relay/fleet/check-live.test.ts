/**
 * The standard's live checks (`aep check-live`'s runner) against every node of a three-node
 * fleet on a real nats-server, in both postures: open with a small buffer and the eviction
 * checks; tokened with demo agents attached to node a, so the control checks on b and c are
 * routed across nodes. About 40 s, so it runs with the relay suites' fleet pass
 * (`AEP_TEST_HUB=nats npx vitest run impl/relay/`, a ci.sh stage), not in every `npm test`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHECKS } from '../../check-live/checks/index.js';
import { DEFAULT_OPTIONS } from '../../check-live/context.js';
import type { ConformanceReport } from '../../check-live/report.js';
import { runChecks } from '../../check-live/runner.js';
import { runDemoAgent } from '../../demo-agent/agent.js';
import type { RunningRelay } from '../server.js';
import { fleetStream, startNode } from '../test-utils/fleet-nodes.js';
import { FLEET_HUB } from '../test-utils/use-relay.js';
import { NATS_MISSING, natsServerBinary, startNats, type NatsServer } from '../test-utils/nats-server.js';

const present = natsServerBinary() !== undefined;
if (!present) console.warn(NATS_MISSING);

let nats: NatsServer;
const cleanups: Array<() => Promise<void>> = [];
beforeAll(async () => {
  if (present && FLEET_HUB) nats = await startNats();
});
afterAll(async () => nats?.dispose());
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function fleet(opts: Parameters<typeof startNode>[3]): Promise<RunningRelay[]> {
  const stream = fleetStream();
  const nodes: RunningRelay[] = [];
  for (const name of ['a', 'b', 'c']) {
    const r = await startNode(nats.url, stream, name, { host: '127.0.0.1', drainMs: 500, ...opts });
    cleanups.push(() => r.close());
    nodes.push(r);
  }
  return nodes;
}

const failures = (r: ConformanceReport) => r.checks.filter((c) => c.status === 'fail');
const skipped = (r: ConformanceReport) => r.checks.filter((c) => c.status === 'skip').map((c) => c.name);

const why = !present ? NATS_MISSING : !FLEET_HUB ? "about 40 s: it runs in ci.sh's fleet stage (AEP_TEST_HUB=nats)" : '';

describe.skipIf(why !== '')(`check-live against every node of a three-node fleet${why ? ` (skipped: ${why})` : ''}`, () => {
  it('open posture, AEP_BUFFER=8, --evict: no check fails on a, b or c', async () => {
    for (const n of await fleet({ buffer: 8 })) {
      const report = await runChecks({ target: n.url, ...DEFAULT_OPTIONS, evict: true }, CHECKS);
      expect(failures(report)).toEqual([]);
      expect(skipped(report)).toEqual(['control-behalf-refusal', 'control-ack', 'control-nack-unsupported', 'control-dedupe', 'control-cancel']);
    }
  }, 120_000);

  it('tokened posture, the targets on node a: no check fails on a, b or c', async () => {
    const token = 'fleet-ci-token';
    const nodes = await fleet({ token });
    for (const [i, n] of nodes.entries()) {
      let stop!: () => void;
      const stopped = new Promise<void>((r) => (stop = r));
      let ready!: () => void;
      const isReady = new Promise<void>((r) => (ready = r));
      const done = runDemoAgent({ relay: nodes[0]!.url, token, session: `fleet-demo-${i}`, run: `fleet-run-${i}` }, stopped, { stdout: () => ready(), stderr: () => {} });
      cleanups.push(async () => {
        stop();
        await done;
      });
      await isReady;
      const report = await runChecks({ target: n.url, ...DEFAULT_OPTIONS, token, controlSession: `fleet-demo-${i}`, controlCancel: `fleet-run-${i}`, ackWindowMs: 3000 }, CHECKS);
      expect(failures(report)).toEqual([]);
      expect(skipped(report)).toEqual(['control-auth-gate', 'evict-replay-exhausted', 'evict-byte-identity']);
    }
  }, 120_000);
});
