import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { hookShimBench } from './hook-shim.js';
import { validateEvent } from '../../impl/core/envelope.js';
import type { Benchmark, Prepared } from '../harness.js';
import { isSampleBenchmark } from '../samples.js';
import { BENCHMARKS } from './index.js';
import { BatchMaker, relayIngestBench } from './relay-ingest.js';
import { againstSchema, envelopeSchemaValidator } from './validate.js';
import { fanoutBench } from './fanout.js';
import { natsServerBinary } from '../../impl/relay/fleet/local-nats.js';
import { skipped, WHY } from '../../impl/test-utils/skip.js';

describe('the benchmark table', () => {
  it('has the benchmarks, uniquely named, each with a bounded budget', () => {
    expect(new Set(BENCHMARKS.map((b) => b.name)).size).toBe(BENCHMARKS.length);
    for (const b of BENCHMARKS) expect(b.budgetMs).toBeLessThanOrEqual(3000);
  });
});

const THROUGHPUT = BENCHMARKS.filter((b): b is Benchmark => !isSampleBenchmark(b));

describe.each(THROUGHPUT.filter((b) => !['relay-ingest', 'hook-shim', 'fanout', 'ingest-ws', 'peer-fanout'].includes(b.name) && (b.name !== 'fleet-fanout' || natsServerBinary() !== undefined)))('$name', (bench) => {
  let prepared: Prepared | undefined;
  afterAll(async () => prepared?.close?.());

  it('prepares (its input checks pass) and both sides do positive work', async () => {
    prepared = await bench.prepare();
    expect(await prepared.ours.run()).toBeGreaterThan(0);
    expect(await prepared.baseline.run()).toBeGreaterThan(0);
  });
});

describe('validate baseline', () => {
  it('is schema-only: it accepts what only validateEvent rejects, and rejects a broken envelope', () => {
    const schemaOnly = envelopeSchemaValidator();
    const unregistered = { aep: '0.1', id: 'b-1', type: 'tool.teleported', time: '2026-11-30T06:00:00Z', source: 'aep://h/a', agent: 'a', session: 's', seq: 0 };
    expect(schemaOnly(unregistered)).toBe(true);
    expect(validateEvent(unregistered).length).toBeGreaterThan(0);
    expect(schemaOnly({ ...unregistered, type: 'tool.completed', time: 'yesterday' })).toBe(false);
  });
});

describe('relay-ingest', () => {
  it('BatchMaker makes valid Events that never repeat an id or seq', () => {
    const maker = new BatchMaker('s-test');
    const lines = [...maker.next(3).split('\n'), ...maker.next(2).split('\n')].filter((l) => l !== '');
    const events = lines.map((l) => JSON.parse(l) as { id: string; seq: number });
    expect(events.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4]);
    expect(new Set(events.map((e) => e.id)).size).toBe(5);
    for (const e of events) expect(validateEvent(e)).toEqual([]);
  });

  it('drives a real relay and the baseline server, each batch delivered to the subscriber, then closes', async () => {
    const prepared = await relayIngestBench.prepare();
    try {
      expect(await prepared.ours.run()).toBe(1000);
      expect(await prepared.ours.run()).toBe(1000);
      expect(await prepared.baseline.run()).toBe(1000);
    } finally {
      await prepared.close?.();
    }
  });
});

describe('hook-shim', () => {
  it.skipIf(!existsSync('dist/impl/cli/hook.cjs'))(`runs the real shim against the stub (its reply checked) and the node baseline${skipped(!existsSync('dist/impl/cli/hook.cjs'), WHY.build)}`, async () => {
    const prepared = await hookShimBench.prepare();
    try {
      expect(await prepared.ours.run()).toBe(1);
      expect(await prepared.baseline.run()).toBe(1);
    } finally {
      await prepared.close?.();
    }
  });
});

describe('workload checks stop a no-op implementation', () => {
  it('a validator that reports nothing fails on the planted invalid events', async () => {
    const noop = againstSchema('noop', () => [], 'a no-op validator');
    const prepared = await noop.prepare();
    expect(() => prepared.ours.run()).toThrow(/planted invalid event 1 passed/);
  });
});

describe('fanout', () => {
  it('delivers to all 50 subscribers through the relay and the broadcaster with the checks passing', async () => {
    const prepared = await fanoutBench.prepare();
    try {
      // 20 batches of 100: 17 subscribers take all 2000, 33 take 400 each.
      expect(await prepared.ours.run()).toBe(17 * 2000 + 33 * 400);
      expect(await prepared.baseline.run()).toBe(17 * 2000 + 33 * 400);
    } finally {
      await prepared.close?.();
    }
  }, 30_000);
});
