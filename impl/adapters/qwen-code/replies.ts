/**
 * The exact bytes Qwen Code receives, on stdout (command hooks) or as the JSON response body of
 * its native `http` hooks (the daemon answers `Content-Type: application/json`, which Qwen Code
 * requires before it parses a body). The PermissionRequest decision and the steering context use
 * the Claude-Code-shaped `hookSpecificOutput` replies of the kit (`decision.behavior` allow/deny,
 * `additionalContext`); Qwen Code's `interrupt` decision field is deliberately unused.
 *
 * The neutral reply `{}` decides nothing: Qwen Code proceeds as if unhooked and, for a
 * PermissionRequest, shows its own approval prompt.
 */
export { DENY_MESSAGE, allowReply, contextReply, denyReply } from '../../adapter-kit/replies.js';

export const NEUTRAL = '{}';
