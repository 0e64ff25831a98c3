/**
 * The issue-13 rows built on load generators in separate processes (they run the compiled
 * scripts in dist/bench, which `npm test` builds first). Each row is driven once per side, and
 * each workload check is shown to stop a side that does less than the work.
 */
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startRelay } from '../../impl/relay/server.js';
import { loadScript, LoadProcess } from '../load-process.js';
import { BENCHMARKS } from './index.js';
import { closeServer, startBroadcaster } from './pair.js';
import { hookHttpBench } from './hook-http.js';
import { ingestWsBench, startBareWs } from './ingest-ws.js';
import { latencyBench } from './latency.js';
import { memoryBench } from './memory.js';
import { peerFanoutBench } from './peer-fanout.js';
import { NATS_MISSING, natsServerBinary } from '../../impl/relay/fleet/local-nats.js';
import { resumeBench, RESUME_EVENTS } from './resume.js';
import { runnerBench } from './runner.js';
import { skipped, WHY } from '../../impl/test-utils/skip.js';

const built = existsSync(loadScript('ws-load.js'));
const natsThere = natsServerBinary() !== undefined;

describe('the benchmark table', () => {
  it('has every issue-13 row, and fleet-fanout (issue 15)', () => {
    expect(BENCHMARKS.map((b) => b.name)).toEqual(['validate', 'envelope', 'stream', 'redact', 'downlevel', 'relay-ingest', 'ingest-ws', 'fanout', 'peer-fanout', 'latency', 'resume', 'hook-shim', 'hook-http', 'runner', 'memory', 'fleet-fanout']);
  });
});

describe.skipIf(!built)(`rows on load generators${skipped(!built, WHY.build)}`, () => {
  it('ingest-ws: both sides take 1000 events per run, the relay refusing the planted one', async () => {
    const prepared = await ingestWsBench.prepare();
    try {
      expect(await prepared.ours.run()).toBe(1000);
      expect(await prepared.baseline.run()).toBe(1000);
    } finally {
      await prepared.close?.();
    }
  }, 30_000);

  it('ingest-ws: a server that refuses nothing stops the run', async () => {
    const bare = await startBareWs();
    const relay = await startRelay({ port: 0, drainMs: 200 });
    const load = new LoadProcess('ws-load.js', 'ingest-ws');
    try {
      await load.ask({ kind: 'connect', tag: 'noop', wsUrl: `ws://127.0.0.1:${(bare.address() as AddressInfo).port}/`, streamUrl: `${relay.url}/stream` });
      await expect(load.ask({ kind: 'run', events: 10 })).rejects.toThrow(/expected exactly one invalid-event error naming noop-ws-planted-1, got 0/);
    } finally {
      load.stop();
      for (const c of bare.clients) c.terminate();
      bare.close();
      await relay.close();
    }
  }, 30_000);

  it('latency: every delivery to the 5 subscribers is one sample', async () => {
    const prepared = await latencyBench.prepare({ quick: true });
    try {
      const ours = await prepared.ours.trial();
      expect(ours.latency).toHaveLength(200 * 5);
      expect((await prepared.baseline!.trial()).latency).toHaveLength(200 * 5);
    } finally {
      await prepared.close?.();
    }
  }, 30_000);

  it('latency: a broadcaster that does not down-level stops the run', async () => {
    const server = await startBroadcaster();
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const load = new LoadProcess('latency-load.js', 'latency');
    try {
      await load.ask({ kind: 'connect', tag: 'noop', streamUrl: `${url}/stream`, postUrl: `${url}/events`, subscribers: 2, ceilings: 1 });
      await expect(load.ask({ kind: 'run', events: 20, rate: 2000, checkCeilings: true })).rejects.toThrow(/metadata-ceiling subscriber received the planted content/);
    } finally {
      load.stop();
      await closeServer(server);
    }
  }, 30_000);

  it('resume: both sides replay exactly seq 1..10000; the first event comes before the last', async () => {
    const prepared = await resumeBench.prepare({ quick: true });
    try {
      const ours = await prepared.ours.trial();
      expect(ours.first![0]!).toBeLessThan(ours.last![0]!);
      const base = await prepared.baseline!.trial();
      expect(base.last![0]!).toBeGreaterThan(0);
      expect(RESUME_EVENTS).toBe(10_000);
    } finally {
      await prepared.close?.();
    }
  }, 60_000);

  it('hook-http: 10 hooks per quick trial on each side', async () => {
    const prepared = await hookHttpBench.prepare({ quick: true });
    try {
      expect((await prepared.ours.trial()).latency).toHaveLength(10);
      expect((await prepared.baseline!.trial()).latency).toHaveLength(10);
    } finally {
      await prepared.close?.();
    }
  }, 30_000);

  it('hook-http: a daemon that answers {} without forwarding the hook stops the run', async () => {
    const empty = await startBroadcaster(); // answers POSTs with 202: not the daemon's 200 {}
    const relay = await startRelay({ port: 0, drainMs: 200 });
    const load = new LoadProcess('hook-load.js', 'hook-http');
    try {
      const url = `http://127.0.0.1:${(empty.address() as AddressInfo).port}`;
      await load.ask({ kind: 'connect', oursUrl: `${url}/events`, baseUrl: `${url}/events`, streamUrl: `${relay.url}/stream` });
      await expect(load.ask({ kind: 'run', target: 'ours', hooks: 1 })).rejects.toThrow(/expected 200 and exactly \{\}/);
    } finally {
      load.stop();
      await closeServer(empty);
      await relay.close();
    }
  }, 30_000);

  it.skipIf(!natsThere)(`peer-fanout: both sides deliver the whole workload${skipped(!natsThere, NATS_MISSING)}`, async () => {
    const prepared = await peerFanoutBench.prepare();
    try {
      expect(await prepared.ours.run()).toBe(17 * 2000 + 33 * 400);
      expect(await prepared.baseline.run()).toBe(17 * 2000 + 33 * 400);
    } finally {
      await prepared.close?.();
    }
  }, 60_000);

  it('memory: a quick fill reads a relay RSS above the raw bytes', async () => {
    const prepared = await memoryBench.prepare({ quick: true });
    const [rss] = (await prepared.ours.trial()).rss!;
    const [raw] = (await prepared.baseline!.trial()).rss!;
    expect(raw).toBeGreaterThan(5 * 1000 * 500);
    expect(rss).toBeGreaterThan(raw!);
  }, 60_000);
});

describe('runner', () => {
  it('times a sound conformance run', async () => {
    const prepared = await runnerBench.prepare({ quick: true });
    const { wall } = await prepared.ours.trial();
    expect(wall![0]).toBeGreaterThan(0);
    expect(prepared.baseline).toBeUndefined();
  }, 60_000);
});
