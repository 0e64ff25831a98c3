/**
 * The AG-UI interrupts an interrupted run left open, pure: AEP-0002 §7.2 wants every
 * `attention.requested` to reach `attention.resolved` (or `attention.timeout`). AG-UI 1.0 answers
 * an interrupt in the NEXT run's input: `RunAgentInput.resume` entries `{interruptId, status}`
 * (`resolved`: answered, `cancelled`: abandoned). The proxy sees that input on its next POST of
 * the thread, so it closes each remembered request there:
 * - `resolved` → `attention.answered {answer: {}, via: "oob"}` (the payload is the UI's own
 *   answer, content the bridge does not claim at any level) + `attention.resolved {answered}`;
 * - `cancelled` → `attention.resolved {dismissed}`.
 * Every lifecycle event carries `subject` = the request's id (§7.1), `cause` = its immediate cause.
 * Bounded: at most `limit` open interrupts, the oldest forgotten first.
 */
import { isPlainObject } from '../../core/event.js';
import type { Mapped } from '../../adapter-kit/types.js';

export interface OpenInterrupt {
  /** The `attention.requested` event id. */
  request: string;
  /** The AEP run the interrupt stopped. */
  run?: string;
}

/** One lifecycle step to emit for a resume entry: the mapping, and whether its cause is the previous step. */
export interface ResumeStep {
  mapped: Mapped;
  run?: string;
  /** `request`: cause = the request id; `previous`: cause = the step before it. */
  cause: 'request' | 'previous';
}

export class InterruptBook {
  private readonly open = new Map<string, OpenInterrupt>();
  constructor(private readonly limit = 4096) {}

  remember(thread: string, interruptId: string, interrupt: OpenInterrupt): void {
    const k = `${thread}\u0000${interruptId}`;
    this.open.delete(k);
    this.open.set(k, interrupt);
    if (this.open.size > this.limit) this.open.delete(this.open.keys().next().value as string);
  }

  /** The lifecycle steps the `resume` entries of a run input close (each interrupt once). */
  resume(thread: string, input: unknown): { interrupt: OpenInterrupt; steps: ResumeStep[] }[] {
    if (!isPlainObject(input) || !Array.isArray(input.resume)) return [];
    const out: { interrupt: OpenInterrupt; steps: ResumeStep[] }[] = [];
    for (const entry of input.resume) {
      if (!isPlainObject(entry) || typeof entry.interruptId !== 'string') continue;
      const k = `${thread}\u0000${entry.interruptId}`;
      const interrupt = this.open.get(k);
      if (!interrupt) continue;
      this.open.delete(k);
      const run = interrupt.run !== undefined ? { run: interrupt.run } : {};
      const subject = interrupt.request;
      out.push({
        interrupt,
        steps: entry.status === 'resolved'
          ? [
              { mapped: { type: 'attention.answered', data: { answer: {}, via: 'oob' }, subject }, cause: 'request', ...run },
              { mapped: { type: 'attention.resolved', data: { resolution: 'answered' }, subject }, cause: 'previous', ...run },
            ]
          : [{ mapped: { type: 'attention.resolved', data: { resolution: 'dismissed' }, subject }, cause: 'request', ...run }],
      });
    }
    return out;
  }
}
