/**
 * The offline scenario target: the adapter kit's engine (the same one every daemon runs) driven
 * directly, on a fake clock, with no sockets and no files, so `aep conformance` stays fast and
 * hermetic. What the engine sends (events and re-sent acks, exact lines) is what is observed.
 */
import { DEFAULT_POSTURE } from '../../impl/adapter-kit/capture.js';
import { createEngine, type EngineTimers } from '../../impl/adapter-kit/engine.js';
import { configureDef } from '../../impl/adapter-kit/configure.js';
import type { AdapterDef } from '../../impl/adapter-kit/types.js';
import type { Scenario } from './scenario-format.js';
import type { Observed, ScenarioTarget } from './scenario-run.js';

/** A manual clock with timers: time moves only when `advance` is called. */
export class FakeClock implements EngineTimers {
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

/** A fresh instance of the adapter configured with a scenario's opt-in variables (throws on a bad value). */
export function configured(def: AdapterDef, env: Record<string, string>): AdapterDef {
  const out = configureDef(def, env);
  if (typeof out === 'string') throw new Error(`the scenario's env does not configure the ${def.agent} adapter: ${out}`);
  return out;
}

/** 2026-01-01T00:00:00Z: offline runs start at a fixed instant. */
export const OFFLINE_EPOCH_MS = Date.UTC(2026, 0, 1);

export function offlineTarget(template: AdapterDef, scenario: Scenario): ScenarioTarget {
  const def = configured(template, scenario.env);
  const clock = new FakeClock(OFFLINE_EPOCH_MS);
  const observed: Observed[] = [];
  const engine = createEngine(def, {
    posture: DEFAULT_POSTURE,
    timeoutMs: scenario.attentionTimeoutMs,
    instruct: scenario.instruct,
    host: 'conformance',
    epoch: 0,
    clock: () => clock.now(),
    timers: clock,
    send: (line) => observed.push({ event: JSON.parse(line) as Record<string, unknown>, line }),
    log: () => {},
  });
  return {
    hook: (hookEvent, input) => engine.handleHook(hookEvent, input),
    command: (raw) => engine.onCommand(raw, JSON.parse(raw) as Record<string, unknown>),
    elapse: (ms) => clock.advance(ms),
    settle: () => flush(),
    observed: () => observed,
    refusal: () => undefined,
  };
}
