/**
 * The exact stdout Gemini CLI receives from a command hook. Gemini parses stdout as JSON on
 * exit 0 ("silence is mandatory": nothing else may be printed); `{}` decides nothing, so the
 * vendor proceeds exactly as if unhooked. This adapter is observe-only: `{}` is its only reply.
 */
export const NEUTRAL = '{}';
