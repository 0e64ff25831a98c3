/**
 * The exact stdout Codex receives from a command hook. The allow/deny and context replies are
 * the kit's (`adapter-kit/replies.ts`, pinned byte for byte by this adapter's tests).
 *
 * Codex reads a hook's stdout as JSON when there is any; empty stdout with exit 0 is "no
 * opinion", so the neutral reply is the empty string: Codex proceeds as if unhooked and, for
 * a PermissionRequest, shows its own approval prompt.
 */
export { DENY_MESSAGE, allowReply, contextReply, denyReply } from '../../adapter-kit/replies.js';

/** No decision, no context. */
export const NEUTRAL = '';
