/**
 * A full garbage collection of this process, on demand, for benchmarks whose two sides share the
 * process (an in-process relay beside the bare baseline server): collecting before each trial
 * means neither side's trial pays for the garbage the other side's trial left. Reached through
 * V8's `gc`, exposed at run time (`--expose-gc` set by `setFlagsFromString`, then read from a
 * context made after the flag), so `npm run bench` needs no extra node flag.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

/** Collect all garbage now; throws when this V8 offers no `gc` even with the flag set. */
export function collectGarbage(): void {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('typeof gc === "function" ? gc : undefined') as (() => void) | undefined;
    if (gc === undefined) throw new Error('bench: this node exposes no gc() even with --expose-gc set at run time; the latency row cannot settle the heap between trials');
  }
  gc();
}
