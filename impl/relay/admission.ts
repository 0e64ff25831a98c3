/**
 * What the relay accepts (AEP-0003 §3.2: "fails envelope validation"). A relay accepts
 * Events rather than certifying them: the envelope must be valid (AEP-0001 §5, §6 type
 * grammar and category, scope), while unknown types of known categories, payload shapes and
 * per-type prose rules are the consumers' and targets' business (a target nacks a malformed
 * command `invalid` itself, AEP-0004 §3). Pure.
 *
 * One payload fact still matters here: capture ceilings rely on the declared `capture`.
 * An event carrying content above its declared level is accepted but marked `overDeclared`,
 * and fan-out treats it as `full` (fail closed), so a ceiling never lets that content through.
 * That fact is computed by the core `isOverDeclared` (impl/core/honesty.ts, the same walk
 * `validateEvent` reports from), stopping at the first finding and skipping the rest of
 * `validateEvent`.
 */
import { validateEnvelope } from '../core/envelope.js';
import { isCleanEnvelope } from '../core/envelope-pass.js';
import { isPlainObject, type AepEvent } from '../core/event.js';
import { isOverDeclared } from '../core/honesty.js';
import type { Issue } from '../core/issue.js';
import type { Received } from './buffer.js';
import { isCommand } from './control.js';

/**
 * Judge a decoded JSON value as an event. `raw` is the one-line text to forward. `value` comes
 * from the relay's scanner (`scanJson`, or `jsonTextProblem` on the WebSocket), which refused
 * nesting past `MAX_DEPTH`: the envelope check takes that depth verdict instead of walking again.
 * Returns the envelope issues when it is not acceptable.
 */
export function admitEvent(value: unknown, raw: string): { ok: true; rec: Received } | { ok: false; issues: Issue[] } {
  let issues = validateEnvelope(value, true);
  // Any `control.{verb}` is a command to the relay (AEP-0004 §2.1), and commands omit `seq`
  // (§2.2), including verbs the 0.1 registry does not list: such a command is routed, and the
  // target's declared `accepts` answers it (`unsupported`), rather than refused as seq-less.
  if (issues.length > 0 && isPlainObject(value) && typeof value.type === 'string' && isCommand(value.type)) {
    issues = issues.filter((i) => i.rule !== 'scope.seq.required');
  }
  if (issues.length > 0) return { ok: false, issues };
  const event = value as AepEvent;
  return { ok: true, rec: isOverDeclared(event) ? { event, raw, overDeclared: true } : { event, raw } };
}

/**
 * `admitEvent`'s record when it accepts `value`, else undefined (call `admitEvent` for the
 * issues): the same verdict and the same record, without the verdict object or the empty issue
 * list per event. Clean envelopes only: anything `isCleanEnvelope` does not pass clean goes to
 * `admitEvent`, whose reference checks decide (a command without `seq`, for one).
 */
export function admitClean(value: unknown, raw: string): Received | undefined {
  if (!isCleanEnvelope(value, true)) return undefined;
  const event = value as AepEvent;
  return isOverDeclared(event) ? { event, raw, overDeclared: true } : { event, raw };
}
