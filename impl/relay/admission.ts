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
 */
import { validateEnvelope, validateEvent } from '../core/envelope.js';
import type { AepEvent } from '../core/event.js';
import type { Issue } from '../core/issue.js';
import type { Received } from './buffer.js';

/** Rules saying the content exceeds the declared capture level. */
const OVER_DECLARED: ReadonlySet<string> = new Set(['capture.field.level', 'capture.none.data', 'form.values.capture']);

/**
 * Judge a decoded JSON value as an event. `raw` is the one-line text to forward.
 * Returns the envelope issues when it is not acceptable.
 */
export function admitEvent(value: unknown, raw: string): { ok: true; rec: Received } | { ok: false; issues: Issue[] } {
  const issues = validateEnvelope(value);
  if (issues.length > 0) return { ok: false, issues };
  const event = value as AepEvent;
  const overDeclared = validateEvent(value).some((i) => OVER_DECLARED.has(i.rule));
  return { ok: true, rec: overDeclared ? { event, raw, overDeclared } : { event, raw } };
}
