/**
 * `node dist/bench/ceilings.js` (after `npm run build`): what this machine allows two rows of
 * issue 33, measured rather than assumed (docs/performance.md, "What the machine allows").
 *
 * - `threads`: `JSON.parse` of every line of the `stream` row's input (10,000 lines) on the main
 *   thread, against the same lines split evenly over N worker threads (N = the machine's cores
 *   by default), each decoding its share of the UTF-8 bytes from shared memory (nothing copied),
 *   timed from the first post to the last reply, the workers already warm. The
 *   speedup is the most a validation pool could multiply the `stream` row by, were validation
 *   free: each worker would do more than the baseline's whole work, on fewer cores.
 * - `jetstream`: a 100-event batch (the `fleet-fanout` row's ~600 B events, five sessions) sent
 *   three ways, one batch at a time: straight to JetStream on a local `nats-server` (one publish
 *   per event with its message id, every acknowledgement awaited: what a fleet node must wait
 *   for before its 202), POSTed to one in-memory relay, and POSTed to a one-node fleet on the same
 *   server. The acknowledgement wait is a floor under every fleet batch that the single relay
 *   does not have. Needs `nats-server`; without it the measure is reported as skipped.
 * - `fleet-cpu`: the `fleet-fanout` row's own two sides (its `prepare`, every relay and load
 *   generator a process of its own), each timed over runs of 100-event batches, with the CPU they
 *   cost read from Linux's `/proc` (`proc-cpu.ts`): the machine's busy time per batch, and each of
 *   the bench's descendant processes' own (nats-server, each relay-child.js, fanout-load.js). The
 *   `bound` is the highest `fleet-fanout` ratio this machine's cores allow the fleet at its present
 *   CPU per batch: were every core busy with the fleet alone, a batch would take its machine CPU
 *   divided by the cores, so bound = one relay's wall ms per batch / (the fleet's machine CPU ms
 *   per batch / cores). Needs `nats-server` and `/proc`; without either, reported as skipped.
 *
 * Flags: `--rounds N` (default 7, the median kept), `--threads N`, `--json FILE`. Exit code 0,
 * 2 on a bad argument.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { FLEET_DEFAULTS } from '../impl/relay/fleet/config.js';
import { NATS_MISSING, natsServerBinary, startNats } from '../impl/relay/fleet/local-nats.js';
import { fleetNames, messageId } from '../impl/relay/fleet/names.js';
import { streamConfig } from '../impl/relay/fleet/stream.js';
import { startRelay } from '../impl/relay/server.js';
import { BATCHES_PER_RUN, fleetFanoutBench } from './cases/fleet-fanout.js';
import { parseLines } from './ceilings-worker.js';
import { FanoutBatches } from './fanout-events.js';
import { NdjsonPoster } from './http-client.js';
import { syntheticStream } from './inputs.js';
import { loadScript } from './load-process.js';
import { cpuWindow, perUnit, PROC_MISSING, procAvailable, type CpuPerUnit, type CpuWindow } from './proc-cpu.js';
import { median } from './stats.js';

export const CEILINGS_USAGE = 'usage: node dist/bench/ceilings.js [--rounds N] [--threads N] [--json FILE]\n';

export interface ThreadCeiling {
  readonly threads: number;
  readonly lines: number;
  /** Median ms per pass over the lines on the main thread. */
  readonly mainMs: number;
  /** Median ms per pass with the lines split over `threads` workers. */
  readonly workersMs: number;
  /** mainMs / workersMs. */
  readonly speedup: number;
}

export interface JetStreamCeiling {
  readonly events: number;
  /** Median ms per batch: publish every event to JetStream, await every acknowledgement. */
  readonly jetstreamMs: number;
  /** Median ms per batch POSTed to one in-memory relay, until its 202. */
  readonly relayMs: number;
  /** Median ms per batch POSTed to a one-node fleet, until its 202. */
  readonly fleetNodeMs: number;
}

async function timed(rounds: number, passes: number, run: () => Promise<unknown> | unknown): Promise<number> {
  const perPass: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    for (let i = 0; i < passes; i++) await run();
    perPass.push((performance.now() - start) / passes);
  }
  return median(perPass);
}

/** The `threads` measure; `lines` lines of the `stream` row's input. */
export async function threadCeiling(threads: number, rounds: number, lines = 10_000): Promise<ThreadCeiling> {
  const text = syntheticStream(lines);
  // The input as UTF-8 in shared memory, cut at line ends into `threads` shares of about equal length.
  const encoded = new TextEncoder().encode(text);
  const bytes = new SharedArrayBuffer(encoded.length);
  new Uint8Array(bytes).set(encoded);
  const shares: { start: number; end: number }[] = [];
  for (let start = 0, k = 1; start < encoded.length; k++) {
    const cut = k === threads ? -1 : encoded.indexOf(0x0a, Math.floor((encoded.length * k) / threads));
    const end = cut < 0 ? encoded.length : cut + 1;
    shares.push({ start, end });
    start = end;
  }
  const workers = shares.map((share) => {
    const w = new Worker(loadScript('ceilings-worker.js'));
    w.postMessage({ bytes, ...share });
    return w;
  });
  // One reply per worker per pass: each worker's pending pass is resolved by its message handler.
  const waiting: ({ resolve: (n: number) => void; reject: (err: Error) => void } | undefined)[] = workers.map(() => undefined);
  workers.forEach((w, i) => {
    w.on('message', (n: number) => waiting[i]?.resolve(n));
    w.on('error', (err) => waiting[i]?.reject(err));
  });
  try {
    const pass = async (): Promise<number> => {
      const counts = await Promise.all(workers.map((w, i) => new Promise<number>((resolve, reject) => {
        waiting[i] = { resolve, reject };
        w.postMessage('run');
      })));
      const total = counts.reduce((a, b) => a + b, 0);
      if (total !== lines) throw new Error(`ceilings: the workers parsed ${total} lines of ${lines}`);
      return total;
    };
    const main = (): number => {
      const n = parseLines(text);
      if (n !== lines) throw new Error(`ceilings: the main thread parsed ${n} lines of ${lines}`);
      return n;
    };
    for (let i = 0; i < 20; i++) {
      await pass();
      main();
    }
    // Alternate the two, round by round, so a stall of the machine falls on both.
    const mains: number[] = [];
    const pools: number[] = [];
    for (let r = 0; r < rounds; r++) {
      pools.push(await timed(1, 10, pass));
      mains.push(await timed(1, 10, main));
    }
    const mainMs = median(mains);
    const workersMs = median(pools);
    return { threads: shares.length, lines, mainMs, workersMs, speedup: mainMs / workersMs };
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** `count` of `fanout`'s 100-event batches, the ids unique under `tag`. */
function batchesOf(tag: string, count: number): string[] {
  const batches = new FanoutBatches(tag);
  return Array.from({ length: count }, () => batches.next());
}

/** The `jetstream` measure, or the reason it cannot be taken here. */
export async function jetstreamCeiling(rounds: number, batchesPerRound = 20): Promise<JetStreamCeiling | string> {
  if (!natsServerBinary()) return NATS_MISSING;
  const nats = await startNats();
  const closers: (() => Promise<unknown>)[] = [];
  try {
    // Straight to JetStream: the stream a fleet node creates, its subjects and message ids.
    const fleet = { ...FLEET_DEFAULTS, url: nats.url, stream: `C${randomBytes(6).toString('hex')}`, node: 'raw' };
    const names = fleetNames(fleet.stream);
    const nc = await connect({ servers: nats.url, noAsyncTraces: true });
    closers.push(() => nc.close());
    await (await jetstreamManager(nc)).streams.add(streamConfig(fleet, names, 10_000, 500));
    const js = jetstream(nc);
    // Every batch is made before the clock starts, so each side times its sends alone.
    const total = 10 + rounds * batchesPerRound;
    const encoder = new TextEncoder();
    const rawBatches = batchesOf('raw', total).map((body) =>
      body.split('\n').filter((line) => line !== '').map((line) => {
        const ev = JSON.parse(line) as { source: string; id: string; session: string };
        return { subject: names.eventSubject(ev.session), data: encoder.encode(line), msgID: messageId(ev.source, ev.id) };
      }),
    );
    const raw = async (): Promise<void> => {
      await Promise.all(rawBatches.shift()!.map((m) => js.publish(m.subject, m.data, { msgID: m.msgID })));
    };
    const relay = await startRelay({ port: 0, drainMs: 100 });
    closers.push(() => relay.close());
    const node = await startRelay({ port: 0, drainMs: 100, fleet: { ...FLEET_DEFAULTS, url: nats.url, stream: `F${randomBytes(6).toString('hex')}`, node: 'a' } });
    closers.push(() => node.close());
    const poster = (url: string, tag: string) => {
      const client = new NdjsonPoster(`${url}/events`);
      const bodies = batchesOf(tag, total);
      return async (): Promise<void> => {
        const reply = await client.post(bodies.shift()!);
        if (reply.status !== 202) throw new Error(`ceilings: POST /events answered ${reply.status}: ${reply.body.slice(0, 200)}`);
      };
    };
    const toRelay = poster(relay.url, 'one');
    const toNode = poster(node.url, 'node');
    for (let i = 0; i < 10; i++) {
      await raw();
      await toRelay();
      await toNode();
    }
    const sides = { jetstream: [] as number[], relay: [] as number[], node: [] as number[] };
    for (let r = 0; r < rounds; r++) {
      sides.jetstream.push(await timed(1, batchesPerRound, raw));
      sides.relay.push(await timed(1, batchesPerRound, toRelay));
      sides.node.push(await timed(1, batchesPerRound, toNode));
    }
    return { events: 100, jetstreamMs: median(sides.jetstream), relayMs: median(sides.relay), fleetNodeMs: median(sides.node) };
  } finally {
    for (const close of closers.reverse()) await close();
    await nats.dispose();
  }
}

export interface FleetCpuCeiling {
  readonly cores: number;
  /** Per 100-event batch; `perSecond` counts deliveries. */
  readonly one: CpuPerUnit;
  readonly fleet: CpuPerUnit;
  /** one.wallMs / (fleet.cpuMs / cores): the highest `fleet-fanout` ratio these cores allow at the fleet's present CPU per batch. */
  readonly bound: number;
}

/** The `fleet-cpu` measure, or the reason it cannot be taken here. */
export async function fleetCpuCeiling(rounds: number, runsPerRound = 10): Promise<FleetCpuCeiling | string> {
  if (!natsServerBinary()) return NATS_MISSING;
  if (!procAvailable()) return PROC_MISSING;
  const bench = await fleetFanoutBench.prepare();
  try {
    for (const side of [bench.baseline, bench.ours]) for (let i = 0; i < 2; i++) await side.run();
    const windows = { baseline: [] as CpuWindow[], ours: [] as CpuWindow[] };
    for (let r = 0; r < rounds; r++) {
      // The order alternates round by round, so neither side always follows the other.
      for (const name of r % 2 === 0 ? (['baseline', 'ours'] as const) : (['ours', 'baseline'] as const)) {
        windows[name].push(await cpuWindow(process.pid, async () => {
          let deliveries = 0;
          for (let i = 0; i < runsPerRound; i++) deliveries += await bench[name].run();
          return deliveries;
        }));
      }
    }
    const one = perUnit(windows.baseline, runsPerRound * BATCHES_PER_RUN);
    const fleet = perUnit(windows.ours, runsPerRound * BATCHES_PER_RUN);
    const cores = availableParallelism();
    return { cores, one, fleet, bound: one.wallMs / (fleet.cpuMs / cores) };
  } finally {
    await bench.close?.();
  }
}

/** The flags, or what is wrong with them. */
export function parseCeilingsArgs(argv: readonly string[]): { rounds: number; threads: number; json: string | undefined } | string {
  let values: { rounds?: string; threads?: string; json?: string };
  try {
    ({ values } = parseArgs({ args: [...argv], options: { rounds: { type: 'string' }, threads: { type: 'string' }, json: { type: 'string' } }, strict: true, allowPositionals: false }));
  } catch (err) {
    return (err as Error).message;
  }
  const whole = (name: string, v: string | undefined, fallback: number): number | string => {
    if (v === undefined) return fallback;
    const n = Number(v);
    return Number.isInteger(n) && n >= 1 ? n : `--${name} needs a whole number of at least 1, got ${JSON.stringify(v)}`;
  };
  const rounds = whole('rounds', values.rounds, 7);
  const threads = whole('threads', values.threads, availableParallelism());
  if (typeof rounds === 'string') return rounds;
  if (typeof threads === 'string') return threads;
  if (values.json === '') return `--json needs a FILE, got ${JSON.stringify(values.json)}`;
  return { rounds, threads, json: values.json };
}

async function main(argv: readonly string[]): Promise<number> {
  const args = parseCeilingsArgs(argv);
  if (typeof args === 'string') {
    process.stderr.write(`ceilings: ${args}\n${CEILINGS_USAGE}`);
    return 2;
  }
  const { rounds, threads, json } = args;
  const loadAtStart = loadavg()[0]!;
  const thread = await threadCeiling(threads, rounds);
  process.stdout.write(`threads: JSON.parse of ${thread.lines} lines: main thread ${thread.mainMs.toFixed(2)} ms, ${thread.threads} workers ${thread.workersMs.toFixed(2)} ms: speedup ${thread.speedup.toFixed(2)}x\n`);
  const js = await jetstreamCeiling(rounds);
  if (typeof js === 'string') process.stdout.write(`jetstream: skipped (${js})\n`);
  else {
    process.stdout.write(`jetstream: a ${js.events}-event batch, one at a time: JetStream publish + every ack ${js.jetstreamMs.toFixed(2)} ms; one relay's 202 ${js.relayMs.toFixed(2)} ms; a one-node fleet's 202 ${js.fleetNodeMs.toFixed(2)} ms\n`);
  }
  const fc = await fleetCpuCeiling(rounds);
  if (typeof fc === 'string') process.stdout.write(`fleet-cpu: skipped (${fc})\n`);
  else {
    const side = (s: CpuPerUnit) => `${s.wallMs.toFixed(2)} ms wall / ${s.cpuMs.toFixed(2)} ms CPU`;
    const each = fc.fleet.processes.map((p) => `${p.label} ${p.ms.toFixed(2)}`).join(', ');
    process.stdout.write(`fleet-cpu: per 100-event batch, one relay ${side(fc.one)}; the three-node fleet ${side(fc.fleet)} (${each}); at most ${fc.bound.toFixed(2)} of the fleet-fanout ratio on ${fc.cores} cores\n`);
  }
  const loadAtEnd = loadavg()[0]!;
  process.stdout.write(`load average ${loadAtStart.toFixed(2)} at start, ${loadAtEnd.toFixed(2)} at end, ${availableParallelism()} cores\n`);
  if (json) writeFileSync(json, `${JSON.stringify({ cores: availableParallelism(), loadAtStart, loadAtEnd, rounds, threads: thread, jetstream: js, fleetCpu: fc }, null, 2)}\n`);
  return 0;
}

if (process.argv[1] !== undefined && pathToFileURL(process.argv[1]).href === import.meta.url) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`ceilings: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
