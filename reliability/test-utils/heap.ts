/**
 * Test-only: the heap a test leaves behind. `forceGc()` runs a full garbage collection (V8's
 * `gc`, reached without restarting the worker with --expose-gc), `heapUsedAfterGc()` measures
 * `heapUsed` right after two of them (the second collects what the first finalized).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

export function forceGc(): void {
  gc();
}

export async function heapUsedAfterGc(): Promise<number> {
  // Let pending callbacks (socket closes, timers cleared at close) run first, so what they free is free.
  await new Promise((r) => setTimeout(r, 50));
  gc();
  await new Promise((r) => setImmediate(r));
  gc();
  return process.memoryUsage().heapUsed;
}
