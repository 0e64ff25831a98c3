/**
 * The held-loop state machine, pure: which attention requests a daemon is holding a vendor hook
 * open for, and what a `control.attention.respond` answer does to one of them.
 * No timers and no I/O: the daemon arms timeouts and turns results into events and replies.
 *
 * Rules (AEP-0002 §5.3, AEP-0006, AEP-0008):
 * - permission-style requests: `{option}` must name an offered option; `{text}` follows the text
 *   rule (text-rule.ts); an empty answer applies the refusing option; `values` is invalid here.
 * - out-of-band requests (`respond_via: ["oob"]`) take no control answer at all.
 * - form requests: `values` must pass `validateFormValues`; an invalid answer is rejected and the
 *   request stays pending. A plain `{text}`/`{option}` is accepted only through the request's
 *   `legacyAnswer` conversion (AEP-0006 degradation), else rejected.
 */
import { validateFormValues } from '../core/forms.js';
import { isPlainObject } from '../core/event.js';
import { applyTextRule } from './text-rule.js';
import type { Answer, FieldSpec, RequestOption, Settlement } from './types.js';

export interface PendingRequest {
  /** The `attention.requested` event id. */
  id: string;
  session: string;
  run?: string;
  key?: string;
  options?: RequestOption[];
  fields?: FieldSpec[];
  refusing: string;
  legacyAnswer?: (answer: Answer) => Record<string, unknown> | null;
  /** Answered out of band only (`respond_via: ["oob"]`): a control answer is refused. */
  oob?: boolean;
  /** Epoch milliseconds the request was raised at (for `latency_ms`). */
  openedAt: number;
}

/** A respond decision: either the settlement to apply, or the reason the command is nacked. */
export type RespondOutcome =
  | { ok: true; request: PendingRequest; settlement: Extract<Settlement, { kind: 'option' | 'values' }> }
  | { ok: false; reason: 'invalid'; detail: string };

/** Parse the `answer` member of a respond command's data; null when it is not an answer object. */
export function parseAnswer(data: unknown): Answer | null {
  if (!isPlainObject(data) || !isPlainObject(data.answer)) return null;
  const a = data.answer;
  if (a.option !== undefined && typeof a.option !== 'string') return null;
  if (a.text !== undefined && typeof a.text !== 'string') return null;
  if (a.values !== undefined && !isPlainObject(a.values)) return null;
  const answer: Answer = {};
  if (typeof a.option === 'string') answer.option = a.option;
  if (typeof a.text === 'string') answer.text = a.text;
  if (isPlainObject(a.values)) answer.values = a.values;
  return answer;
}

export class HeldLoop {
  private readonly requests = new Map<string, PendingRequest>();

  /** Register a request the daemon now holds a hook open for. */
  open(request: PendingRequest): void {
    this.requests.set(request.id, request);
  }

  get(id: string): PendingRequest | undefined {
    return this.requests.get(id);
  }

  /** Pending requests of a session, in the order they were raised (optionally one key only). */
  list(session: string, key?: string): PendingRequest[] {
    return [...this.requests.values()].filter((r) => r.session === session && (key === undefined || r.key === key));
  }

  /** Forget a request (it timed out, was dismissed or answered out of band); returns it if it was pending. */
  close(id: string): PendingRequest | undefined {
    const request = this.requests.get(id);
    this.requests.delete(id);
    return request;
  }

  /**
   * Apply an answer to pending request `id`. On success the request is closed and the settlement
   * returned; on failure nothing changes (the request stays pending).
   */
  respond(id: string | undefined, answer: Answer): RespondOutcome {
    const request = id === undefined ? undefined : this.requests.get(id);
    if (!request) {
      return { ok: false, reason: 'invalid', detail: `no pending attention request '${id ?? ''}' (unknown, or already settled): set subject to a pending attention.requested id` };
    }
    if (request.oob) {
      return { ok: false, reason: 'invalid', detail: `attention request '${request.id}' is answered out of band (respond_via: ["oob"]), in the agent's own UI; it takes no control answer` };
    }
    const decided = request.fields ? decideForm(request, answer) : decideOption(request, answer);
    if (decided.ok) this.requests.delete(request.id);
    return decided;
  }
}

function decideOption(request: PendingRequest, answer: Answer): RespondOutcome {
  const options = request.options ?? [];
  if (answer.values !== undefined) {
    return { ok: false, reason: 'invalid', detail: 'answer.values answers a kind:"form" request; this request takes answer.option or answer.text' };
  }
  if (answer.option !== undefined) {
    const option = options.find((o) => o.id === answer.option);
    if (!option) {
      return { ok: false, reason: 'invalid', detail: `answer.option must be one of ${options.map((o) => o.id).join(', ')}` };
    }
    const text = answer.text?.trim() && option.id === request.refusing ? answer.text : undefined;
    return { ok: true, request, settlement: { kind: 'option', option: option.id, ...(text ? { text } : {}), via: 'control' } };
  }
  const decision = applyTextRule(options, answer.text ?? '', request.refusing);
  return { ok: true, request, settlement: { kind: 'option', ...decision, via: 'control' } };
}

function decideForm(request: PendingRequest, answer: Answer): RespondOutcome {
  let values = answer.values;
  if (values === undefined) {
    values = request.legacyAnswer?.(answer) ?? undefined;
    if (values === undefined) {
      return { ok: false, reason: 'invalid', detail: 'this kind:"form" request takes answer.values (a map of field id to value)' };
    }
  }
  const issues = validateFormValues(request.fields ?? [], values);
  if (issues.length > 0) {
    return { ok: false, reason: 'invalid', detail: issues.map((i) => `${i.path}: ${i.message}`).join('; ') };
  }
  return { ok: true, request, settlement: { kind: 'values', values, via: 'control' } };
}
