/**
 * The offline scenario target: the adapter's engine driven directly, on a fake clock, with no
 * sockets and no files, so `aep conformance` stays fast and hermetic.
 */
import type { AdapterDef } from '../../impl/adapter-kit/types.js';
import { createEngine, type Timers } from './engine.js';
import type { Scenario } from './scenario-format.js';
import type { Observed, ScenarioTarget } from './scenario-run.js';

/** A manual clock with timers: time moves only when `advance` is called. */
export class FakeClock implements Timers {
  private time: number;
  private nextHandle = 1;
  private readonly pending = new Map<number, { due: number; fn: () => void }>();

  constructor(start: number) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  set(fn: () => void, ms: number): unknown {
    const handle = this.nextHandle++;
    this.pending.set(handle, { due: this.time + Math.max(0, ms), fn });
    return handle;
  }

  clear(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  /** Move time forward by `ms`, firing every timer that falls due, in due order. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const next = [...this.pending.entries()].filter(([, t]) => t.due <= end).sort((a, b) => a[1].due - b[1].due || a[0] - b[0])[0];
      if (!next) break;
      this.pending.delete(next[0]);
      this.time = next[1].due;
      next[1].fn();
    }
    this.time = end;
  }
}

/** Let every queued promise continuation run (no I/O is involved offline). */
async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** 2026-01-01T00:00:00Z: offline runs start at a fixed instant. */
export const OFFLINE_EPOCH_MS = Date.UTC(2026, 0, 1);

export function offlineTarget(def: AdapterDef, scenario: Scenario): ScenarioTarget {
  const clock = new FakeClock(OFFLINE_EPOCH_MS);
  const observed: Observed[] = [];
  const engine = createEngine(def, {
    epoch: 0,
    hostname: 'conformance',
    attentionTimeoutMs: scenario.attentionTimeoutMs,
    instruct: scenario.instruct,
    clock: () => clock.now(),
    timers: clock,
    emit: (event, line) => observed.push({ event: event as unknown as Record<string, unknown>, line }),
    resend: (line) => observed.push({ event: JSON.parse(line) as Record<string, unknown>, line }),
  });
  return {
    hook: (hookEvent, input) => engine.handleHook(hookEvent, input),
    command: (raw) => engine.onCommand(JSON.parse(raw) as Record<string, unknown>),
    elapse: (ms) => clock.advance(ms),
    settle: () => flush(),
    observed: () => observed,
    refusal: () => undefined,
  };
}
