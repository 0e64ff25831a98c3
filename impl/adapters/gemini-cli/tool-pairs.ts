/**
 * Gemini CLI tool calls paired, pure (no I/O; the id source is injected).
 *
 * Gemini CLI's BeforeTool and AfterTool carry no call id, and with several calls in one turn the
 * AfterTools arrive in another order than the BeforeTools. A call is known by what both hooks do
 * carry: its session, `tool_name` and `tool_input` (compared as canonical JSON, RFC 8785 key
 * order). BeforeTool mints the call's `call_id` and remembers the id of its `tool.requested`;
 * AfterTool takes the OLDEST open call under the same key (first in, first out: two identical
 * calls are interchangeable, and the first asked is the first to finish in sequence), so the
 * terminal carries that `call_id` and `cause` = the request's id (AEP-0002 §2 rule 1).
 *
 * Memory is bounded: at most `limit` open calls, the oldest forgotten first; a session's end
 * forgets its calls.
 */
import { callMatch } from '../../adapter-kit/tool-calls.js';

/** One open call: its minted id and the id of its `tool.requested` event. */
export interface PairedCall {
  callId: string;
  requested: string;
}

const DEFAULT_LIMIT = 4096;

export class ToolPairs {
  /** Key → open calls, oldest first. */
  private readonly open = new Map<string, PairedCall[]>();
  private count = 0;

  constructor(private readonly mint: () => string, private readonly limit: number = DEFAULT_LIMIT) {}

  private key(session: string, tool: string, input: unknown): string {
    return `${session}\u0000${tool}\u0000${callMatch(input)}`;
  }

  /** A fresh call id for a BeforeTool (recorded once its `tool.requested` is emitted, by `opened`). */
  newCallId(): string {
    return this.mint();
  }

  /** Remember a requested call under its key. */
  opened(session: string, tool: string, input: unknown, call: PairedCall): void {
    const k = this.key(session, tool, input);
    const queue = this.open.get(k) ?? [];
    queue.push(call);
    this.open.set(k, queue);
    if (++this.count > this.limit) this.forgetOldest();
  }

  /** The oldest open call of this session, tool and input (now closed), or undefined. */
  take(session: string, tool: string, input: unknown): PairedCall | undefined {
    const k = this.key(session, tool, input);
    const queue = this.open.get(k);
    const call = queue?.shift();
    if (call) this.count--;
    if (queue && queue.length === 0) this.open.delete(k);
    return call;
  }

  /** Forget every open call of a session. */
  endSession(session: string): void {
    const prefix = `${session}\u0000`;
    for (const [k, q] of [...this.open]) {
      if (!k.startsWith(prefix)) continue;
      this.count -= q.length;
      this.open.delete(k);
    }
  }

  private forgetOldest(): void {
    const first = this.open.keys().next();
    if (first.done) return;
    const queue = this.open.get(first.value)!;
    queue.shift();
    this.count--;
    if (queue.length === 0) this.open.delete(first.value);
  }
}
