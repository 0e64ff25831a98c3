/**
 * CPU time from Linux's `/proc`, for the `fleet-cpu` ceiling (`ceilings.ts`): the machine's busy
 * time (`/proc/stat`) and each descendant process's own (`/proc/<pid>/stat`), sampled before and
 * after a piece of work. The parsers and the arithmetic are pure; only `procAvailable`,
 * `descendants`, `sampleCpu` and `cpuWindow` read files. Nothing here works off Linux:
 * `procAvailable()` says so first, and the caller reports itself skipped.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { median } from './stats.js';

/**
 * Ticks per second of every CPU time `/proc` reports (`sysconf(_SC_CLK_TCK)`, "USER_HZ"): fixed
 * by Linux's user-visible ABI at 100 on every mainstream architecture, whatever the kernel's own
 * tick rate, so one tick is 10 ms.
 */
export const USER_HZ = 100;

/** The reason the ceiling is skipped where `/proc/stat` cannot be read. */
export const PROC_MISSING = '/proc/stat cannot be read (not Linux): CPU time per process is not measured';

const STAT_FIELDS = ['user', 'nice', 'system', 'idle', 'iowait', 'irq', 'softirq', 'steal'] as const;

/** Ticks from a text field, or a clear error naming `what`. */
function ticks(text: string | undefined, what: string, source: string): number {
  if (text === undefined) throw new Error(`${source}: ${what} is missing`);
  if (!/^\d+$/.test(text)) throw new Error(`${source}: ${what} is not a whole number of ticks: ${JSON.stringify(text)}`);
  return Number(text);
}

/**
 * The machine's CPU ticks from `/proc/stat`'s first `cpu ` line (all cores summed): `totalTicks`
 * is user + nice + system + idle + iowait + irq + softirq + steal (guest time is already inside
 * user and nice), `busyTicks` the total less idle and iowait. Older kernels' shorter lines are
 * summed as far as they go, iowait at least.
 */
export function parseProcStat(text: string): { busyTicks: number; totalTicks: number } {
  const line = text.split('\n').find((l) => /^cpu\s/.test(l));
  if (line === undefined) throw new Error("/proc/stat: no 'cpu ' line (the machine's summed CPU times)");
  const fields = line.trim().split(/\s+/).slice(1);
  if (fields.length < 5) throw new Error(`/proc/stat: the 'cpu' line has ${fields.length} fields; it needs at least 5 (user nice system idle iowait)`);
  const values = STAT_FIELDS.slice(0, Math.min(fields.length, STAT_FIELDS.length)).map((name, i) => ticks(fields[i], `the 'cpu' line's ${name} field`, '/proc/stat'));
  const totalTicks = values.reduce((a, b) => a + b, 0);
  return { busyTicks: totalTicks - values[3]! - values[4]!, totalTicks };
}

/**
 * The parent pid (field 4) and CPU ticks spent (utime + stime, fields 14 and 15) of one
 * `/proc/<pid>/stat`, and its command name (field 2). The name is in parentheses and may itself
 * hold spaces and ')', so the fields are counted from after the last ')'.
 */
export function parsePidStat(text: string): { ppid: number; cpuTicks: number; comm: string } {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) throw new Error(`/proc/<pid>/stat: no command name in parentheses in ${JSON.stringify(text.slice(0, 80))}`);
  const rest = text.slice(close + 1).trim().split(/\s+/);
  // rest[0] is field 3 (state), so field n is rest[n - 3].
  const ppid = ticks(rest[1], 'field 4 (ppid)', '/proc/<pid>/stat');
  const utime = ticks(rest[11], 'field 14 (utime)', '/proc/<pid>/stat');
  const stime = ticks(rest[12], 'field 15 (stime)', '/proc/<pid>/stat');
  return { ppid, cpuTicks: utime + stime, comm: text.slice(open + 1, close) };
}

/** Options of node that take the next argument as their value, so it is not the script. */
const NODE_VALUE_FLAGS = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions', '--title']);

/**
 * A readable name for a process from its NUL-separated `cmdline`: the program's basename
 * (`nats-server`), or for node the script's basename (`relay-child.js`; `node -e` for inline
 * code). `comm`, the kernel's name, when the cmdline is empty (a kernel thread, a zombie).
 */
export function labelOf(cmdline: string, comm = '?'): string {
  const args = cmdline.split('\0').filter((a) => a !== '');
  if (args.length === 0) return comm;
  const program = basename(args[0]!);
  if (!/^node(js)?[\d.]*$/.test(program) && args[0] !== process.execPath) return program;
  for (let i = 1; i < args.length; i++) {
    const a = args[i]!;
    if (['-e', '--eval', '-p', '--print'].includes(a)) return `${program} ${a}`;
    if (NODE_VALUE_FLAGS.has(a)) i++;
    else if (!a.startsWith('-')) return basename(a);
  }
  return program;
}

/** False where `/proc/stat` cannot be read (not Linux, or /proc not mounted). */
export function procAvailable(): boolean {
  try {
    parseProcStat(readFileSync('/proc/stat', 'utf8'));
    return true;
  } catch {
    return false;
  }
}

/** One live process's stat, or undefined once it has gone (or cannot be read). */
function readPid(pid: number): { ppid: number; cpuTicks: number; comm: string } | undefined {
  try {
    return parsePidStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Every live descendant of `rootPid` (not itself) with its ticks, found through the ppid links. */
function scan(rootPid: number): { pid: number; label: string; cpuTicks: number }[] {
  const children = new Map<number, { pid: number; cpuTicks: number; comm: string }[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readPid(Number(name));
    if (!stat) continue;
    const list = children.get(stat.ppid) ?? [];
    list.push({ pid: Number(name), cpuTicks: stat.cpuTicks, comm: stat.comm });
    children.set(stat.ppid, list);
  }
  const found: { pid: number; label: string; cpuTicks: number }[] = [];
  const queue = [rootPid];
  for (let parent = queue.shift(); parent !== undefined; parent = queue.shift()) {
    for (const child of children.get(parent) ?? []) {
      let cmdline: string;
      try {
        cmdline = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8');
      } catch {
        continue; // gone since it was listed
      }
      found.push({ pid: child.pid, label: labelOf(cmdline, child.comm), cpuTicks: child.cpuTicks });
      queue.push(child.pid);
    }
  }
  return found;
}

/** The pids of every live descendant process of `rootPid`, each with a readable label ({@link labelOf}). */
export function descendants(rootPid: number): { pid: number; label: string }[] {
  return scan(rootPid).map(({ pid, label }) => ({ pid, label }));
}

/** The machine's ticks and each descendant's, at one moment. */
export interface CpuSnapshot {
  readonly busyTicks: number;
  readonly totalTicks: number;
  /** Ticks spent so far by each live descendant, by pid. */
  readonly processes: ReadonlyMap<number, { readonly label: string; readonly ticks: number }>;
}

/**
 * A snapshot now: `/proc/stat`, and the descendants of `rootPid`. The scan of `/proc` costs this
 * process about a millisecond; it is made after the machine's reading, or before it when
 * `machineLast` (for the start of a window, so that neither end's scan falls inside it).
 */
export function sampleCpu(rootPid: number, machineLast = false): CpuSnapshot {
  const machine = machineLast ? undefined : parseProcStat(readFileSync('/proc/stat', 'utf8'));
  const processes = new Map(scan(rootPid).map((p) => [p.pid, { label: p.label, ticks: p.cpuTicks }] as const));
  return { ...(machine ?? parseProcStat(readFileSync('/proc/stat', 'utf8'))), processes };
}

/** One process's CPU over a window. */
export interface ProcessCpu {
  readonly pid: number;
  readonly label: string;
  readonly ms: number;
}

/** CPU over a window, in ms. */
export interface CpuDelta {
  /** Busy CPU of the whole machine (every core, every process, the kernel's interrupts). */
  readonly machineMs: number;
  /** Each process with a positive delta, largest first. */
  readonly processes: readonly ProcessCpu[];
}

const toMs = (t: number): number => (t * 1000) / USER_HZ;

/**
 * CPU spent between two snapshots. A process gone by `b` is left out (its last ticks are not
 * known); one born after `a`, or whose pid now names another program, counts from zero.
 */
export function cpuBetween(a: CpuSnapshot, b: CpuSnapshot): CpuDelta {
  const processes: ProcessCpu[] = [];
  for (const [pid, now] of b.processes) {
    const before = a.processes.get(pid);
    const delta = now.ticks - (before?.label === now.label ? before.ticks : 0);
    if (delta > 0) processes.push({ pid, label: now.label, ms: toMs(delta) });
  }
  processes.sort((x, y) => y.ms - x.ms || x.pid - y.pid);
  return { machineMs: toMs(b.busyTicks - a.busyTicks), processes };
}

/** Wall and CPU time of one piece of work, and the count it returned. */
export interface CpuWindow {
  readonly wallMs: number;
  readonly count: number;
  readonly cpu: CpuDelta;
}

/**
 * Wall and CPU time of `work` (which returns a count, passed through): the machine's CPU and that
 * of `rootPid`'s descendants. The machine's window is the wall clock's, the scans of `/proc`
 * outside both.
 */
export async function cpuWindow(rootPid: number, work: () => Promise<number>): Promise<CpuWindow> {
  const a = sampleCpu(rootPid, true);
  const start = performance.now();
  const count = await work();
  const wallMs = performance.now() - start;
  return { wallMs, count, cpu: cpuBetween(a, sampleCpu(rootPid)) };
}

/** Several windows of the same work, per unit of it (`units` in each window, e.g. batches). */
export interface CpuPerUnit {
  /** Median wall ms per unit. */
  readonly wallMs: number;
  /** Median busy CPU ms of the whole machine per unit (every process on it, the kernel included). */
  readonly cpuMs: number;
  /** Median CPU ms per unit of the descendant processes alone, summed. */
  readonly processesMs: number;
  /** Median count per second of wall time (what `work` returned: deliveries, for fleet-cpu). */
  readonly perSecond: number;
  /** Each descendant's CPU ms per unit: the mean over every window (its ticks summed over all of them, over all their units), largest first. */
  readonly processes: readonly ProcessCpu[];
}

/** {@link CpuPerUnit} of a non-empty list of windows, each of `units` units. Pure. */
export function perUnit(windows: readonly CpuWindow[], units: number): CpuPerUnit {
  if (windows.length === 0) throw new RangeError('perUnit: no windows');
  const perPid = new Map<number, ProcessCpu>();
  for (const p of windows.flatMap((w) => w.cpu.processes)) {
    perPid.set(p.pid, { ...p, ms: (perPid.get(p.pid)?.ms ?? 0) + p.ms / (units * windows.length) });
  }
  return {
    wallMs: median(windows.map((w) => w.wallMs / units)),
    cpuMs: median(windows.map((w) => w.cpu.machineMs / units)),
    processesMs: median(windows.map((w) => w.cpu.processes.reduce((a, p) => a + p.ms, 0) / units)),
    perSecond: median(windows.map((w) => (w.count * 1000) / w.wallMs)),
    processes: [...perPid.values()].sort((a, b) => b.ms - a.ms || a.pid - b.pid),
  };
}
