/**
 * Hook reply bytes shared by vendors whose hooks read `{"hookSpecificOutput": {...}}` JSON on
 * stdout (Claude Code and Codex both do). Every builder returns the final bytes; the vendors'
 * tests pin them byte for byte. Only the neutral reply differs per vendor, so it is a parameter.
 */
import type { Settlement } from './types.js';

/** The canned message of a plain deny (no guidance text). */
export const DENY_MESSAGE = 'Denied via AEP attention loop';

/** `{"hookSpecificOutput": <fields>}` as bytes, keys in the order given. */
export const hookOutput = (hookSpecificOutput: Record<string, unknown>): string => JSON.stringify({ hookSpecificOutput });

/** A PermissionRequest allow. */
export function allowReply(): string {
  return hookOutput({ hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } });
}

/** A PermissionRequest deny; the message is the guidance text when there is one, else `DENY_MESSAGE`. */
export function denyReply(message?: string): string {
  return hookOutput({ hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: message ?? DENY_MESSAGE } });
}

/** Steering delivered as model-visible context on a context-accepting moment. */
export function contextReply(hookEventName: string, additionalContext: string): string {
  return hookOutput({ hookEventName, additionalContext });
}

/**
 * The reply to a held allow/deny PermissionRequest once it settles: allow or deny (with the
 * guidance text) when answered over control, `neutral` (the vendor's own prompt) otherwise.
 */
export function permissionReply(settlement: Settlement, neutral: string): string {
  if (settlement.kind !== 'option' || settlement.via !== 'control') return neutral;
  return settlement.option === 'allow' ? allowReply() : denyReply(settlement.text);
}
