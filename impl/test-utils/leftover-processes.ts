/**
 * vitest globalSetup: after the whole suite, no process it started may still be alive. Setup marks
 * the run (AEP_TEST_RUN=<id> in the environment every worker and every child spawned with
 * `process.env` inherits) and notes the processes that exist already; teardown looks through
 * /proc for the new ones that carry the mark or run this clone's code, not its node_modules (a
 * daemon `aep setup up` started detached with an environment of its own), waits a moment for the
 * ones on their way out, then kills what is left and fails the run naming each one. Linux only (/proc); elsewhere
 * it says so and checks nothing.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const RUN_MARK = 'AEP_TEST_RUN';
const ROOT = join(import.meta.dirname, '..', '..');

export interface Leftover {
  pid: number;
  command: string;
}

const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/** The pids alive now. */
export function livePids(): number[] {
  if (!existsSync('/proc/self')) return [];
  return readdirSync('/proc').filter((n) => /^\d+$/.test(n)).map(Number);
}

/**
 * The processes not in `before` that carry `mark` (`AEP_TEST_RUN=<id>`) or run code under `root`,
 * other than `self` and its direct children (vitest's own workers) and zombies.
 */
export function leftovers(before: ReadonlySet<number>, mark: string, root: string = ROOT, self: number = process.pid): Leftover[] {
  const out: Leftover[] = [];
  for (const pid of livePids()) {
    if (before.has(pid) || pid === self) continue;
    const stat = read(`/proc/${pid}/stat`);
    if (stat === undefined) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' || Number(fields[1]) === self) continue;
    const command = (read(`/proc/${pid}/cmdline`) ?? '').split('\0').filter(Boolean).join(' ');
    const environ = (read(`/proc/${pid}/environ`) ?? '').split('\0');
    // This clone's code, not its tools: a Stryker or vitest worker runs from node_modules and is not the suite's to stop.
    const clone = command.includes(`${root}/`) && !command.includes(`${root}/node_modules/`);
    if (environ.includes(mark) || clone) out.push({ pid, command });
  }
  return out;
}

let before = new Set<number>();
let mark = '';

export function setup(): void {
  before = new Set(livePids());
  const id = `${process.pid}-${Date.now()}`;
  process.env[RUN_MARK] = id;
  mark = `${RUN_MARK}=${id}`;
}

export async function teardown(): Promise<void> {
  if (!existsSync('/proc/self')) {
    process.stdout.write('leftover-processes: no /proc on this system; the check for processes the suite left running was skipped\n');
    return;
  }
  let left = leftovers(before, mark);
  for (let i = 0; i < 30 && left.length > 0; i++) {
    await new Promise((r) => setTimeout(r, 100));
    left = leftovers(before, mark);
  }
  if (left.length === 0) return;
  for (const p of left) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  // A throw here is only logged by vitest ("error during close"): fail the run through the exit code.
  process.stderr.write(`\nleftover-processes: FAIL: the suite left ${left.length} process${left.length === 1 ? '' : 'es'} running (now killed); the test that started each must stop it:\n${left.map((p) => `  pid ${p.pid}: ${p.command}`).join('\n')}\n`);
  process.exitCode = 1;
}
