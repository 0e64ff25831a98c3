/**
 * The exact stdout Hermes receives from a shell hook (`agent/shell_hooks.py`: JSON on stdout).
 * - `{}`: no opinion. Every observed hook, an allowed or timed-out gate, and any failure.
 * - `{"action":"block","message":...}`: the vendor's designed veto on `pre_tool_call` (a
 *   non-empty message is required); only the opt-in operator-deny gate sends it.
 * - `{"context":...}`: context joined into the user message; consumed only on `pre_llm_call`,
 *   the one steering moment.
 */
import type { Settlement } from '../../adapter-kit/types.js';

export const NEUTRAL = '{}';

/** The block message of a plain deny (no reason text). */
export const BLOCK_MESSAGE = 'Blocked by an operator via the AEP attention loop';

export function blockReply(message?: string): string {
  return JSON.stringify({ action: 'block', message: message && message.trim() !== '' ? message : BLOCK_MESSAGE });
}

export function contextReply(text: string): string {
  return JSON.stringify({ context: text });
}

/** The reply of a held gate: block on a control deny, `{}` otherwise (allow, timeout, dismissal). */
export function gateReply(settlement: Settlement): string {
  if (settlement.kind === 'option' && settlement.via === 'control' && settlement.option === 'deny') return blockReply(settlement.text);
  return NEUTRAL;
}
