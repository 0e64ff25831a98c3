/**
 * Which held request a later hook of a tool call settles, pure (no I/O). A held request about a
 * tool call (a PermissionRequest, a gated PreToolUse) is filed under a key naming the session, the
 * tool and the call's match: the canonical JSON (RFC 8785 key order) of its `tool_input`. A later
 * hook of that very call (PostToolUse, PostToolUseFailure, PermissionDenied) carries the same
 * input, so it finds exactly that request and never the held request of a parallel call of the
 * same tool with other input.
 *
 * Vendors whose asking hook adds members the other hooks do not carry (Codex's PermissionRequest
 * adds `description` to `tool_input`) name them in `ignore`; they are left out on both sides.
 */
import { canonicalJson } from '../core/canonical.js';
import { isPlainObject } from '../core/event.js';
import { str } from './mapping.js';
import type { HookContext, HookInput } from './types.js';

/** Top-level `tool_input` members that do not identify a call (left out of its match). */
export type Ignored = readonly string[];

/** The match of a tool input: its canonical JSON without the `ignore`d top-level members. */
export function callMatch(toolInput: unknown, ignore: Ignored = []): string {
  const part = ignore.length > 0 && isPlainObject(toolInput) ? Object.fromEntries(Object.entries(toolInput).filter(([k]) => !ignore.includes(k))) : toolInput;
  try {
    return canonicalJson(part ?? null);
  } catch {
    return '\u0000unmatchable'; // a value JSON cannot carry: no hook payload has one
  }
}

/** The key of a held request about one call: `<kind>:<session>:<tool>:<match>`. */
export function callKey(kind: string, session: string, tool: string, toolInput: unknown, ignore: Ignored = []): string {
  return `${kind}:${session}:${tool}:${callMatch(toolInput, ignore)}`;
}

/** The key a held tool request (a permission request) is filed under. */
export function toolCallKey(session: string, tool: string, toolInput: unknown, ignore: Ignored = []): string {
  return callKey('tool', session, tool, toolInput, ignore);
}

/** Dismiss the oldest pending request filed under exactly `key`; whether there was one. */
export function dismissCallRequest(ctx: HookContext, session: string, key: string): boolean {
  const [held] = ctx.pending(session, key);
  return held ? ctx.settle(held.id, { kind: 'dismissed' }) : false;
}

/**
 * The hook's tool call ran (or was refused), so nobody is asked about it any more: dismiss the
 * held `kind` request of that call. A hook without `tool_input` cannot name its call; it
 * dismisses every pending `kind` request of its tool (the only pairing it allows).
 */
export function dismissCallRequests(kind: string, input: HookInput, session: string, ctx: HookContext, ignore: Ignored = []): void {
  const tool = str(input.tool_name) ?? 'unknown';
  if (input.tool_input !== undefined) {
    dismissCallRequest(ctx, session, callKey(kind, session, tool, input.tool_input, ignore));
    return;
  }
  const ofTool = `${kind}:${session}:${tool}:`;
  for (const p of ctx.pending(session)) if (p.key?.startsWith(ofTool)) ctx.settle(p.id, { kind: 'dismissed' });
}

/** `dismissCallRequests` for held tool (permission) requests filed under `toolCallKey`. */
export function dismissToolRequests(input: HookInput, session: string, ctx: HookContext, ignore: Ignored = []): void {
  dismissCallRequests('tool', input, session, ctx, ignore);
}
