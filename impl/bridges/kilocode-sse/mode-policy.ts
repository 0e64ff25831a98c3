/**
 * Kilo Code's SSE mode policy: the OpenCode-family policy (bridges/opencode-sse/mode-policy.ts)
 * on Kilo Code's own identity (`x.kilocode.*`, client `kilocode`), including the >=7.4.6 bus
 * asks (`permission.asked`, `question.asked` / `question.replied`).
 */
import type { Mapped } from '../../adapter-kit/types.js';
import { applyModeFor, type SseMode } from '../opencode-sse/mode-policy.js';

export function applyMode(event: unknown, mode: SseMode): Mapped | null {
  return applyModeFor('kilocode', event, mode);
}
