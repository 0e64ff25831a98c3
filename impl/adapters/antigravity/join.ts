/**
 * The Antigravity daemon's (conversationId, stepIdx) join, pure state: a PostToolUse payload
 * carries no tool name, only the positional `stepIdx` its PreToolUse carried with the name.
 * `remember` at PreToolUse, `take` at PostToolUse (the entry is used once, then gone), `forget`
 * a conversation's entries at Stop. What `take` returns is exactly what the pure mapper takes:
 * the join's result `{name}`, or undefined when nothing joined.
 */
import type { JoinResult } from './map-hooks.js';

export class JoinTable {
  private readonly rows = new Map<string, { conversation: string; name: string }>();

  private static key(conversation: string, stepIdx: number): string {
    return `${conversation}\u0000${stepIdx}`;
  }

  /** The tool name a PreToolUse carried for (conversation, stepIdx); a later one replaces it. */
  remember(conversation: string, stepIdx: number, name: string): void {
    this.rows.set(JoinTable.key(conversation, stepIdx), { conversation, name });
  }

  /** The join's result for (conversation, stepIdx), removing the entry; undefined when none. */
  take(conversation: string, stepIdx: number): JoinResult | undefined {
    const key = JoinTable.key(conversation, stepIdx);
    const row = this.rows.get(key);
    if (!row) return undefined;
    this.rows.delete(key);
    return { name: row.name };
  }

  /** Drop every entry of a conversation (its execution stopped). */
  forget(conversation: string): void {
    for (const [key, row] of this.rows) if (row.conversation === conversation) this.rows.delete(key);
  }

  get size(): number {
    return this.rows.size;
  }
}
