/**
 * `RUN_FINISHED.outcome` (`@ag-ui/core` 1.0) → the run's AEP terminal, pure.
 *
 * AEP-0002 §2 rule 2 makes success, failure and cancellation distinct TYPES, so a consumer that
 * routes on `type` alone must never read a stopped run as a completed one:
 *
 * | outcome | AEP |
 * |---|---|
 * | absent, `success` | `run.finished` (AG-UI: "equivalent to an absent outcome") |
 * | `cancelled` | `run.cancelled`, no `by` claim (AG-UI says only "stopped by whoever was running it") |
 * | `interrupt` | one `attention.requested` per interrupt, then `run.cancelled` with `outcome: "interrupt"` |
 * | any other | `run.finished` with the unknown token in `outcome` (AG-UI 1.0: an unrecognised outcome reads as success) |
 *
 * Why an interrupt is `attention.requested` + `run.cancelled`: AG-UI ends the run ("resuming
 * means starting a new run", a new `runId`), so the AEP run must reach a terminal, and it is
 * neither a success (`run.finished`) nor a failure (`run.failed`): of the three terminals only
 * `run.cancelled` states "stopped before it completed, not a failure". What the run stopped FOR
 * is the human, and AEP-0002 names that moment `attention.requested` ("the agent needs a
 * human"), one per AG-UI `Interrupt`, subject = the interrupt id, emitted before the terminal so
 * a consumer sees the request while the run is still open. `respond_via: ["oob"]`: the answer
 * travels through the UI's next run input (`resume` entries), never through AEP control (the
 * design record keeps this bridge read-only). The terminal carries `outcome: "interrupt"` (a
 * metadata vendor field on the open `run.cancelled` schema) so the two cancelled shapes stay
 * apart at every capture level; `by` stays absent (nobody cancelled it).
 * Accepted spellings: the 1.0 object `{type}` and a bare string token.
 */
import { isPlainObject, type CaptureLevel } from '../../core/event.js';
import { red } from '../../adapter-kit/capture.js';
import type { Mapped } from '../../adapter-kit/types.js';

/** The outcome token of a RUN_FINISHED: `success` when absent. */
export function outcomeOf(event: Record<string, unknown>): string {
  const o = event.outcome;
  if (typeof o === 'string' && o !== '') return o;
  if (isPlainObject(o) && typeof o.type === 'string' && o.type !== '') return o.type;
  return 'success';
}

function interruptsOf(event: Record<string, unknown>): Record<string, unknown>[] {
  const o = event.outcome;
  if (!isPlainObject(o) || !Array.isArray(o.interrupts)) return [];
  return o.interrupts.filter(isPlainObject);
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** One AG-UI `Interrupt` → `attention.requested`. `prompt` at metadata is structural only (AEP-0003 §9.2). */
export function interruptRequest(interrupt: Record<string, unknown>, index: number, count: number, ceiling: CaptureLevel): Mapped {
  const toolCall = str(interrupt.toolCallId);
  const structural = toolCall ? `The run stopped for a human: approve tool call ${toolCall}` : `The run stopped for a human (interrupt ${index + 1} of ${count})`;
  const message = typeof interrupt.message === 'string' ? red(interrupt.message, ceiling) : undefined;
  const data: Record<string, unknown> = { kind: toolCall ? 'permission' : 'input', prompt: message ?? structural, respond_via: ['oob'] };
  if (str(interrupt.expiresAt) && !Number.isNaN(Date.parse(interrupt.expiresAt as string))) data.expires_at = new Date(Date.parse(interrupt.expiresAt as string)).toISOString();
  const reason = typeof interrupt.reason === 'string' ? red(interrupt.reason, ceiling) : undefined;
  if (reason !== undefined) data.interrupt_reason = reason;
  if (toolCall) data.tool_call_id = toolCall;
  const id = str(interrupt.id);
  return id ? { type: 'attention.requested', data, subject: id } : { type: 'attention.requested', data };
}

/** The AEP events one RUN_FINISHED becomes, in emission order (the run terminal last). */
export function mapRunFinished(event: Record<string, unknown>, ceiling: CaptureLevel): Mapped[] {
  const outcome = outcomeOf(event);
  if (outcome === 'cancelled') return [{ type: 'run.cancelled', data: {} }];
  if (outcome === 'interrupt') {
    const interrupts = interruptsOf(event);
    const asks = interrupts.map((i, n) => interruptRequest(i, n, interrupts.length, ceiling));
    return [...asks, { type: 'run.cancelled', data: { outcome: 'interrupt' } }];
  }
  const data: Record<string, unknown> = {};
  if (outcome !== 'success') data.outcome = outcome;
  if (event.result !== undefined && event.result !== null) {
    const summary = red(typeof event.result === 'string' ? event.result : JSON.stringify(event.result), ceiling);
    if (summary !== undefined) data.summary = summary;
  }
  return [{ type: 'run.finished', data }];
}
