/**
 * Emission and sequencing: one place where an adapter event becomes its envelope (envelope.ts),
 * is queued for the session log (when a home is given; written off the reply path by
 * session-log.ts), sent, and observed. Everything the
 * engine emits goes through `emit`, so `(epoch, seq)` and the log order are one order.
 */
import type { AepEvent } from '../core/event.js';
import { ulid } from '../core/ulid.js';
import { Sequencer, type EnvelopeExtra } from './envelope.js';
import { SessionLog } from './session-log.js';
import type { Mapped, Posture } from './types.js';

export interface EmitterConfig {
  agent: string;
  host: string;
  epoch: number;
  posture: Posture;
  clock: () => number;
  /** AEP home: session logs go under `logs/<agent>/`; absent = no session log. */
  home?: string;
  send(line: string): void;
  log(line: string): void;
  onEmit?: (event: AepEvent, line: string) => void;
  /** Called just before an event is built, with its session and mapping (the session-end guarantee hooks in here). */
  beforeEmit?: (session: string, mapped: Mapped) => void;
  /** Called after an event was emitted. */
  afterEmit?: (event: AepEvent) => void;
}

export interface Emitter {
  /** Build, log, send and observe one event; returns it with its exact line. */
  emit(session: string, mapped: Mapped, extra?: EnvelopeExtra): { event: AepEvent; line: string };
  /** Resolves once every line emitted so far is in its session log (session-log.ts). */
  flushLog(): Promise<void>;
  /** Flush the session logs and close their handles (shutdown). */
  closeLog(): Promise<void>;
}

export function createEmitter(cfg: EmitterConfig): Emitter {
  const sessionLog = cfg.home !== undefined ? new SessionLog(cfg.home, cfg.agent, { log: cfg.log }) : undefined;
  const seq = new Sequencer(cfg.agent, cfg.host, cfg.epoch, cfg.posture, () => ulid(cfg.clock()), cfg.clock);
  return {
    emit(session, mapped, extra = {}) {
      cfg.beforeEmit?.(session, mapped);
      const event = seq.build(session, mapped, extra);
      const line = JSON.stringify(event);
      // Queued, not written here: the hook's reply does not wait for the disk (errors are logged there).
      sessionLog?.append(session, line);
      cfg.send(line);
      cfg.onEmit?.(event, line);
      cfg.afterEmit?.(event);
      return { event, line };
    },
    flushLog: async () => sessionLog?.flush(),
    closeLog: async () => sessionLog?.close(),
  };
}
