/**
 * The exact stdout Antigravity receives, byte for byte (the Antigravity design record).
 * `PreToolUse` and `Stop` REQUIRE a `decision`: the observer answers the vendor's own
 * safely-handled empty string (CLI 1.0.16 and later), never `allow`/`deny`/`ask`/`force_ask`,
 * never `continue`, never `permissionOverrides`. Every other hook gets `{}` (no `injectSteps`,
 * no `terminationBehavior`). The daemon and the shim both answer only these.
 */
export const EMPTY_DECISION = '{"decision":""}';
export const EMPTY = '{}';

export function neutralReply(hook: string): string {
  return hook === 'PreToolUse' || hook === 'Stop' ? EMPTY_DECISION : EMPTY;
}
