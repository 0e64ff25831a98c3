/** Server-sent event frames, byte-exact (pure). */

/** One SSE frame: `event: <name>\n` when named, `data: <json>\n`, then a blank line. */
export function sseFrame(data: unknown, event?: string): string {
  const body = `data: ${JSON.stringify(data)}\n\n`;
  return event === undefined ? body : `event: ${event}\n${body}`;
}
