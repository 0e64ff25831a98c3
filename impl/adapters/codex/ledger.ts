/**
 * What the Codex adapter remembers between hooks, pure (no I/O, no timers): which turns already
 * reached their terminal, and which tool calls are requested but not yet terminal.
 *
 * Why: Codex can close a turn twice from our point of view (an Interrupt, then a late prompt) and
 * fires no post-tool hook after a denied PermissionRequest, whose payload carries no
 * `tool_use_id`. The ledger finds the PreToolUse call a permission request is about (same tool,
 * and every member of the call's `tool_input` equal in the request's, which adds `description`;
 * or, when the request names another tool than any open call of its turn, the turn's open call:
 * `callFor`), so the adapter can close that call with the right `call_id`, and refuse a second
 * terminal.
 *
 * Memory is bounded: at most `limit` remembered turns and calls, the oldest forgotten first.
 */
import { canonicalJson } from '../../core/canonical.js';
import { isPlainObject } from '../../core/event.js';

/** A tool call seen at PreToolUse and not yet terminal. */
export interface OpenCall {
  id: string;
  tool: string;
  input: unknown;
  run?: string;
  /** The id of the call's `tool.requested` event: its terminal's `cause` (AEP-0002 §2 rule 1). */
  requested?: string;
}

const DEFAULT_LIMIT = 4096;

function canonical(value: unknown): string | undefined {
  try {
    return canonicalJson(value);
  } catch {
    return undefined;
  }
}

/** Whether a permission request's `tool_input` is about the call whose input is `call`. */
export function requestCovers(call: unknown, request: unknown): boolean {
  if (isPlainObject(call) && isPlainObject(request)) {
    return Object.entries(call).every(([k, v]) => Object.hasOwn(request, k) && canonical(v) !== undefined && canonical(v) === canonical(request[k]));
  }
  const a = canonical(call);
  return a !== undefined && a === canonical(request);
}

/** An insertion-ordered set that forgets its oldest members past `limit`. */
class BoundedSet {
  private readonly items = new Set<string>();
  constructor(private readonly limit: number) {}
  has(key: string): boolean {
    return this.items.has(key);
  }
  /** Add; false when it was already there. */
  add(key: string): boolean {
    if (this.items.has(key)) return false;
    this.items.add(key);
    if (this.items.size > this.limit) this.items.delete(this.items.values().next().value as string);
    return true;
  }
}

const key = (session: string, id: string): string => `${session}\u0000${id}`;

export class CodexLedger {
  private readonly closedRuns: BoundedSet;
  private readonly closedCalls: BoundedSet;
  private readonly open = new Map<string, OpenCall>();

  constructor(private readonly limit: number = DEFAULT_LIMIT) {
    this.closedRuns = new BoundedSet(limit);
    this.closedCalls = new BoundedSet(limit);
  }

  /** Whether a turn of the session already reached its terminal. */
  runClosed(session: string, run: string): boolean {
    return this.closedRuns.has(key(session, run));
  }

  /** Record a turn's terminal; false when it already had one (emit nothing then). */
  closeRun(session: string, run: string): boolean {
    return this.closedRuns.add(key(session, run));
  }

  /** Remember a requested call (PreToolUse). */
  openCall(session: string, call: OpenCall): void {
    const k = key(session, call.id);
    if (this.closedCalls.has(k)) return;
    this.open.delete(k);
    this.open.set(k, call);
    if (this.open.size > this.limit) this.open.delete(this.open.keys().next().value as string);
  }

  /**
   * The open call a permission request is about. Codex asks about the call it is about to run,
   * but the request may name another tool than the call's PreToolUse: an escalated
   * `exec_command` running an `apply_patch` heredoc is `Bash` at PreToolUse and `apply_patch` at
   * PermissionRequest, with a differently shaped `tool_input`. So, in order:
   * 1. the latest open call of that tool whose input the request covers;
   * 2. the only open call of that tool;
   * 3. when no open call of the turn (`run`) has that tool: the turn's only open call, else the
   *    only one whose input mentions the requested tool's name, else the turn's latest call
   *    (the one Codex is about to run);
   * else undefined: a request naming a tool with open calls none of which it covers is not
   * guessed.
   */
  callFor(session: string, tool: string, requestInput: unknown, run?: string): OpenCall | undefined {
    const prefix = `${session}\u0000`;
    const ofSession = [...this.open.entries()].filter(([k]) => k.startsWith(prefix)).map(([, c]) => c);
    const sameTool = ofSession.filter((c) => c.tool === tool);
    const covered = sameTool.filter((c) => requestCovers(c.input, requestInput));
    if (covered.length > 0) return covered.at(-1);
    if (sameTool.length === 1) return sameTool[0];
    const ofTurn = run === undefined ? ofSession : ofSession.filter((c) => c.run === run);
    if (ofTurn.length === 0 || ofTurn.some((c) => c.tool === tool)) return undefined;
    if (ofTurn.length === 1) return ofTurn[0];
    const mentions = ofTurn.filter((c) => (canonical(c.input) ?? '').includes(tool));
    if (mentions.length === 1) return mentions[0];
    return ofTurn.at(-1);
  }

  /** The open call with this id, if it is still open. */
  openCallOf(session: string, id: string): OpenCall | undefined {
    return this.open.get(key(session, id));
  }

  /** Record a call's terminal; false when it already had one (emit nothing then). */
  closeCall(session: string, id: string): boolean {
    const k = key(session, id);
    this.open.delete(k);
    return this.closedCalls.add(k);
  }

  /** Forget the open calls of a session (it ended). */
  endSession(session: string): void {
    const prefix = `${session}\u0000`;
    for (const k of [...this.open.keys()]) if (k.startsWith(prefix)) this.open.delete(k);
  }
}
