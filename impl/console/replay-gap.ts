/**
 * The relay's replay-gap comment, pure (the proxy and the page): SSE parsing itself is the one
 * parser in impl/relay-client/sse-parser.ts.
 */

/** `replay-exhausted {session} {epoch}:{seq}` → the session and the earliest held position. */
export function parseExhausted(text: string): { session: string; epoch: number; seq: number } | undefined {
  const m = /^replay-exhausted (.+) (\d+):(\d+)$/s.exec(text);
  return m ? { session: m[1]!, epoch: Number(m[2]), seq: Number(m[3]) } : undefined;
}
