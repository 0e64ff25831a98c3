/**
 * The exact stdout Antigravity receives, byte for byte (the Antigravity design record).
 * `PreToolUse` and `Stop` REQUIRE a `decision`: the observer answers the vendor's own
 * safely-handled empty string (CLI 1.0.16 and later), never `allow`/`deny`/`ask`/`force_ask`,
 * never `continue`, never `permissionOverrides`. Every other hook gets `{}` (no `injectSteps`,
 * no `terminationBehavior`). The daemon and the shim both answer only these.
 */
import { descriptor } from './descriptor.js';

/** The neutral replies are the descriptor's (the registry's; the shim prints the same bytes). */
const NEUTRAL = descriptor.neutral!;
export const EMPTY_DECISION = NEUTRAL.byHook!.PreToolUse!;
export const EMPTY = NEUTRAL.reply;

export function neutralReply(hook: string): string {
  return Object.hasOwn(NEUTRAL.byHook!, hook) ? NEUTRAL.byHook![hook]! : EMPTY;
}
