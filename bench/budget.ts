/**
 * `node dist/bench/budget.js` (after `npm run build`): the per-event cost budget of docs/performance.md. Every stage of
 * `budget-stages.ts` runs a fixed workload (sets of `--events` events, 1000 by default: one
 * relay-ingest batch) and is reported per event, beside the limits (`JSON.parse` alone, a bare
 * read, a bare write of the same bytes). Three measures, each its own mode:
 *
 * - `--cpu` (default): CPU time (user + system, `process.cpuUsage`) per event, the lowest of
 *   `--rounds` rounds of four sets each after warm-up sets, and the share of all rounds' CPU
 *   time spent in garbage collection pauses (`PerformanceObserver` `gc` entries; the prepared
 *   sets stay alive meanwhile, as a relay's buffer does). CPU time does not count the time
 *   other processes hold the core, but a busy machine still slows it (shared caches), so it is
 *   the measure for a quiet machine.
 * - `--instructions`: instructions per event, counted by valgrind (`cachegrind --cache-sim=no`)
 *   in a child `node --predictable --predictable-gc-schedule` (one thread, fewer timing-driven
 *   heuristics) running the stage: the difference between a run of
 *   `hi` and of `lo` measured sets after the same warm-up, divided by the events in between, so
 *   start-up, compilation and set-up cancel out. Independent of the machine's load, but not yet
 *   repeatable from run to run (docs/performance.md: one child's count can move by hundreds of
 *   millions); user-space instructions only (the kernel's part of a socket write is not in it).
 * - `--objects`: heap objects and bytes allocated per event (V8's sampling heap profiler at a
 *   1-byte interval, which samples every allocation, collected ones included), over one set
 *   after warm-up.
 *
 * `--run STAGE --sets R` is the child's mode: warm-up sets, then R sets, nothing printed.
 * Exit code 0, 1 when a stage failed, 2 on a bad argument.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { availableParallelism, loadavg } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { STAGES, type Stage } from './budget-stages.js';

export const BUDGET_USAGE = `usage: node dist/bench/budget.js [--cpu | --instructions | --objects] [--events N] [--only STAGE[,STAGE]] [--json FILE]

  --cpu            CPU µs per event and the GC share (default)
  --instructions   instructions per event, counted by valgrind (cachegrind) in child processes
  --objects        heap objects and bytes allocated per event (sampling heap profiler)
  --events N       events per set (default 1000: one relay-ingest batch)
  --rounds N       --cpu: rounds, the lowest kept (default 5)
  --only NAMES     stages to run (default all): ${STAGES.map((s) => s.name).join(', ')}
  --json FILE      also write the rows as JSON
  VALGRIND         the valgrind binary (default: valgrind on PATH)
`;

type Mode = 'cpu' | 'instructions' | 'objects' | 'run';

interface Args {
  mode: Mode;
  events: number;
  rounds: number;
  sets: number;
  only: string[];
  json?: string;
  run?: string;
}

function parse(argv: readonly string[]): Args | string {
  const a: Args = { mode: 'cpu', events: 1000, rounds: 5, sets: 1, only: [] };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = (): string | undefined => argv[++i];
    const int = (name: string): number | string => {
      const v = Number(value());
      return Number.isInteger(v) && v > 0 ? v : `${name} takes a positive integer`;
    };
    if (flag === '--cpu' || flag === '--instructions' || flag === '--objects') a.mode = flag.slice(2) as Mode;
    else if (flag === '--events' || flag === '--rounds' || flag === '--sets') {
      const v = int(flag);
      if (typeof v === 'string') return v;
      a[flag.slice(2) as 'events' | 'rounds' | 'sets'] = v;
    } else if (flag === '--only') a.only.push(...(value() ?? '').split(',').filter((s) => s !== ''));
    else if (flag === '--json') {
      const v = value();
      if (v === undefined) return '--json takes a file name';
      a.json = v;
    } else if (flag === '--run') {
      const v = value();
      if (v === undefined) return '--run takes a stage name';
      a.mode = 'run';
      a.run = v;
    } else return `unknown argument ${JSON.stringify(flag)}`;
  }
  for (const name of [...a.only, ...(a.run ? [a.run] : [])]) if (!STAGES.some((s) => s.name === name)) return `no stage named ${JSON.stringify(name)}`;
  return a;
}

/** Warm-up sets before anything is measured: enough for the optimizing compiler to settle. */
const WARMUP_SETS = 3;

export interface BudgetRow {
  readonly stage: string;
  readonly group: string;
  /** CPU µs per event (`--cpu`). */
  readonly us?: number;
  /** Share of that CPU time in GC pauses, 0-1 (`--cpu`). */
  readonly gc?: number;
  /** Instructions per event (`--instructions`). */
  readonly instructions?: number;
  /** Heap objects and bytes allocated per event (`--objects`). */
  readonly objects?: number;
  readonly bytes?: number;
}

async function cpuRow(stage: Stage, n: number, rounds: number): Promise<BudgetRow> {
  const perRound = 4;
  const prepared = await stage.prepare(n, WARMUP_SETS + rounds * perRound);
  let gcMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcMs += e.duration;
  });
  try {
    for (let s = 0; s < WARMUP_SETS; s++) await prepared.run(s);
    let best = Infinity;
    let cpuUs = 0;
    observer.observe({ entryTypes: ['gc'] });
    for (let r = 0; r < rounds; r++) {
      const start = process.cpuUsage();
      for (let s = 0; s < perRound; s++) await prepared.run(WARMUP_SETS + r * perRound + s);
      const used = process.cpuUsage(start);
      cpuUs += used.user + used.system;
      best = Math.min(best, (used.user + used.system) / (perRound * n));
    }
    await new Promise((resolve) => setTimeout(resolve, 10)); // the observer reports the last round's collections
    const gc = Math.min(1, (gcMs * 1000) / cpuUs);
    return { stage: stage.name, group: stage.group, us: best, gc };
  } finally {
    observer.disconnect();
    await prepared.close?.();
  }
}

async function objectsRow(stage: Stage, n: number): Promise<BudgetRow> {
  const prepared = await stage.prepare(n, WARMUP_SETS + 1);
  const session = new Session();
  session.connect();
  try {
    for (let s = 0; s < WARMUP_SETS; s++) await prepared.run(s);
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', { samplingInterval: 1, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true } as never);
    await prepared.run(WARMUP_SETS);
    const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { samples: { size: number }[] } };
    let bytes = 0;
    for (const s of profile.samples) bytes += s.size;
    return { stage: stage.name, group: stage.group, objects: profile.samples.length / n, bytes: bytes / n };
  } finally {
    session.disconnect();
    await prepared.close?.();
  }
}

/** The child's side of `--instructions`: warm-up, then `sets` measured sets. */
async function runOnly(stage: Stage, n: number, sets: number): Promise<void> {
  const prepared = await stage.prepare(n, WARMUP_SETS + MAX_SETS);
  for (let s = 0; s < WARMUP_SETS; s++) await prepared.run(s);
  // Both children start measuring from the same collected heap: a collection owed by set-up is not counted.
  (globalThis as { gc?: () => void }).gc?.();
  for (let s = WARMUP_SETS; s < WARMUP_SETS + sets; s++) await prepared.run(s);
  await prepared.close?.();
}

/** The two set counts whose instruction counts are subtracted; every child prepares `MAX_SETS` alike. */
const LO_SETS = 2;
const MAX_SETS = 12;

function countInstructions(stage: string, n: number, sets: number): Promise<number> {
  const script = fileURLToPath(import.meta.url);
  const args = ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null', process.execPath, '--predictable', '--predictable-gc-schedule', '--hash-seed=1', '--random-seed=1', '--expose-gc', script, '--run', stage, '--events', String(n), '--sets', String(sets)];
  return new Promise((resolve, reject) => {
    const child = spawn(process.env.VALGRIND ?? 'valgrind', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (c: string) => (err += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const m = /I\s+refs:\s+([\d,]+)/.exec(err);
      if (code !== 0 || m === null) return reject(new Error(`valgrind on stage ${stage} exited ${code}: ${err.split('\n').filter((l) => !l.startsWith('==')).join(' ').slice(0, 400)}`));
      resolve(Number(m[1]!.replace(/,/g, '')));
    });
  });
}

async function instructionsRow(stage: Stage, n: number): Promise<BudgetRow> {
  const [lo, hi] = await Promise.all([countInstructions(stage.name, n, LO_SETS), countInstructions(stage.name, n, MAX_SETS)]);
  return { stage: stage.name, group: stage.group, instructions: (hi - lo) / ((MAX_SETS - LO_SETS) * n) };
}

const fmt = (v: number | undefined, digits: number): string => (v === undefined ? '-' : v.toFixed(digits));

export function renderBudget(rows: readonly BudgetRow[]): string {
  const header = ['stage', 'group', 'µs/event', 'GC share', 'instructions/event', 'objects/event', 'bytes/event'];
  const cells = rows.map((r) => [r.stage, r.group, fmt(r.us, 2), r.gc === undefined ? '-' : `${Math.round(r.gc * 100)}%`, r.instructions === undefined ? '-' : String(Math.round(r.instructions)), fmt(r.objects, 1), r.bytes === undefined ? '-' : String(Math.round(r.bytes))]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  return [header, ...cells].map((c) => c.map((v, i) => v.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n') + '\n';
}

export async function budgetMain(argv: readonly string[]): Promise<number> {
  const args = parse(argv);
  if (typeof args === 'string') {
    process.stderr.write(`budget: ${args}\n\n${BUDGET_USAGE}`);
    return 2;
  }
  if (args.mode === 'run') {
    await runOnly(STAGES.find((s) => s.name === args.run)!, args.events, Math.min(args.sets, MAX_SETS));
    process.exit(0); // a stage's sockets and children must not keep the counted process alive

  }
  const stages = args.only.length === 0 ? STAGES : STAGES.filter((s) => args.only.includes(s.name));
  const rows: BudgetRow[] = [];
  const load = { start: loadavg()[0]!, cores: availableParallelism() };
  let failed = 0;
  for (const stage of stages) {
    process.stderr.write(`${stage.name}: ${stage.what}\n`);
    try {
      rows.push(args.mode === 'cpu' ? await cpuRow(stage, args.events, args.rounds) : args.mode === 'objects' ? await objectsRow(stage, args.events) : await instructionsRow(stage, args.events));
    } catch (err) {
      failed++;
      process.stderr.write(`budget: stage ${stage.name} failed: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  }
  const end = loadavg()[0]!;
  process.stdout.write(renderBudget(rows));
  process.stdout.write(`mode ${args.mode}, ${args.events} events per set, node ${process.version}, load average ${load.start.toFixed(2)} at start, ${end.toFixed(2)} at end, ${load.cores} cores\n`);
  if (args.json !== undefined) writeFileSync(args.json, `${JSON.stringify({ mode: args.mode, events: args.events, node: process.version, load: { start: load.start, end, cores: load.cores }, rows }, null, 2)}\n`);
  return failed > 0 ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  budgetMain(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (err: unknown) => {
      process.stderr.write(`budget: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
