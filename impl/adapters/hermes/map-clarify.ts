/**
 * The Hermes `clarify` form overlay, pure (the Hermes design record, "The clarify form overlay").
 *
 * - `clarifyCard(toolInput, level)`: the observed `kind:"form"` card of a `pre_tool_call`
 *   (clarify), after the vendor's own entry-point choice normalization (`_flatten_choice`: unwrap
 *   `label`/`description`/`text`/`title`, trim, join lists, drop empties, at most 4), or null for a
 *   question-less call (no card).
 * - `clarifyOutcome(status, result, level)`: what the `post_tool_call` result says about the card:
 *   answered (a picked choice as its 1-based id, other text gated), timeout (the vendor's return
 *   sentinels), dismissed (cancel, undeliverable, empty, blocked, error), or null (an unparseable
 *   ok-result makes no lifecycle claim; the session-end sweep drains the card).
 */
import { gateFormValues } from '../../core/forms.js';
import type { CaptureLevel } from '../../core/event.js';
import { isPlainObject } from '../../core/event.js';
import { redactText } from '../../core/redact.js';
import { captureRank } from '../../core/event.js';
import type { FieldSpec } from '../../adapter-kit/types.js';

/** The vendor's `MAX_CHOICES`; its UI adds a fifth "Other" entry itself. */
export const MAX_CHOICES = 4;

/** The structural prompt of every clarify card (metadata at every ceiling). */
export const CLARIFY_PROMPT = 'hermes asks a question';

/** The vendor return-contract sentinels (static strings at the pinned tag). */
export const CLI_TIMEOUT = 'The user did not provide a response within the time limit. Use your best judgement to make the choice and proceed.';
export const CLI_CANCELLED = 'The user cancelled. Use your best judgement to proceed.';
export const UNDELIVERABLE = '[clarify prompt could not be delivered]';
const GATEWAY_TIMEOUT = /^\[user did not respond within \d+m\]$/;

/** One choice as the vendor flattens it; '' when it flattens to nothing. */
export function flattenChoice(choice: unknown): string {
  if (typeof choice === 'string') return choice.trim();
  if (Array.isArray(choice)) return choice.map(flattenChoice).filter((s) => s !== '').join(' ').trim();
  if (isPlainObject(choice)) {
    for (const key of ['label', 'description', 'text', 'title']) {
      if (typeof choice[key] === 'string' && choice[key].trim() !== '') return (choice[key] as string).trim();
    }
    return '';
  }
  if (typeof choice === 'number' || typeof choice === 'boolean') return String(choice);
  return '';
}

/** The normalized choices of a clarify call (at most 4; [] = open-ended). */
export function normalizeChoices(choices: unknown): string[] {
  if (!Array.isArray(choices)) return [];
  return choices.map(flattenChoice).filter((s) => s !== '').slice(0, MAX_CHOICES);
}

const contentOk = (level: CaptureLevel): boolean => captureRank(level) >= captureRank('redacted');
const gate = (s: string, level: CaptureLevel): string => (level === 'full' ? s : redactText(s, { pii: true }));

/** The single field of a clarify card; labels are content, placeholders below `redacted` (AEP-0006 `[metadata*]`). */
export function clarifyField(question: string, choices: readonly string[], level: CaptureLevel): FieldSpec {
  const ok = contentOk(level);
  const label = ok ? gate(question, level) : 'Question 1';
  if (choices.length === 0) return { id: '1', type: 'string', label, required: true };
  return {
    id: '1',
    type: 'select',
    label,
    required: true,
    other: true,
    choices: choices.map((c, i) => ({ id: String(i + 1), label: ok ? gate(c, level) : `Option ${i + 1}` })),
  };
}

/** The `attention.requested` data of a clarify call, or null when it carries no question. */
export function clarifyCard(toolInput: unknown, level: CaptureLevel): Record<string, unknown> | null {
  if (!isPlainObject(toolInput) || typeof toolInput.question !== 'string' || toolInput.question.trim() === '') return null;
  const field = clarifyField(toolInput.question.trim(), normalizeChoices(toolInput.choices), level);
  return { kind: 'form', prompt: CLARIFY_PROMPT, fields: [field], respond_via: ['oob'] };
}

export type ClarifyOutcome =
  | { kind: 'answered'; values: Record<string, unknown> }
  | { kind: 'timeout' }
  | { kind: 'dismissed' };

/** Classify a clarify `post_tool_call`; null = no lifecycle claim. */
export function clarifyOutcome(status: string | undefined, result: unknown, level: CaptureLevel): ClarifyOutcome | null {
  if (status === 'blocked' || status === 'error') return { kind: 'dismissed' };
  if (status !== 'ok' && status !== undefined) return null;
  let parsed: unknown = result;
  if (typeof result === 'string') {
    try {
      parsed = JSON.parse(result);
    } catch {
      return null;
    }
  }
  if (!isPlainObject(parsed)) return null;
  if ('error' in parsed && !('user_response' in parsed)) return { kind: 'dismissed' };
  const response = typeof parsed.user_response === 'string' ? parsed.user_response.trim() : undefined;
  if (response === undefined) return null;
  if (response === CLI_TIMEOUT || GATEWAY_TIMEOUT.test(response)) return { kind: 'timeout' };
  if (response === '' || response === CLI_CANCELLED || response === UNDELIVERABLE) return { kind: 'dismissed' };
  const offered = normalizeChoices(parsed.choices_offered);
  const index = offered.indexOf(response);
  const question = typeof parsed.question === 'string' ? parsed.question : '';
  const field = clarifyField(question, offered, 'full');
  const raw = index >= 0 ? String(index + 1) : response;
  return { kind: 'answered', values: gateFormValues([field], { '1': raw }, level, (s) => redactText(s, { pii: true })) };
}
