/**
 * Command routing at the relay (AEP-0004 §4). Pure: decides, never sends.
 *
 * A command reaches at most one target: the single live WebSocket connection that claims
 * the addressed session. A connection claims a session by emitting a sequenced event of
 * that session on it (the session's owner assigns its positions, AEP-0001 §5.2); the claim
 * lasts until the connection closes. Only `emitter` and `both` connections emit sequenced
 * events, and an acknowledgement (`control.accepted`/`rejected`) never claims: a forged ack
 * from a connection other than the live owner is refused `unauthorized` (socket.ts). Every refusal is a connection-scoped `error` frame to
 * the sender, never an event.
 */
import type { AepEvent } from '../core/event.js';

/** The four command-path refusal codes of AEP-0004 §4.2. */
export type RefusalCode = 'unauthorized' | 'no-route' | 'ambiguous' | 'unsupported';

/** What routing needs to know about one live connection. */
export interface Claimant {
  /** Sessions this connection has emitted sequenced events in. */
  readonly claims: ReadonlySet<string>;
  /** `hello.capabilities.control.accepts` as declared, or undefined when none was declared. */
  readonly accepts: readonly string[] | undefined;
}

export type Route<T> =
  | { readonly ok: true; readonly target: T }
  | { readonly ok: false; readonly code: RefusalCode; readonly detail: string };

/** Whether an event type is a command acknowledgement (`control.accepted`, `control.rejected`, AEP-0004 §3). */
export function isAck(type: string): boolean {
  return type === 'control.accepted' || type === 'control.rejected';
}

/**
 * Whether an event type is a command: `control.{verb}` other than the two acknowledgements,
 * or a vendor `x.{vendor}.control.{verb}` (AEP-0004 §2, §5).
 */
export function isCommand(type: string): boolean {
  // Both patterns are anchored on these prefixes: any other type (every event an emitter streams) is no command, without a pattern run.
  if (!type.startsWith('control.') && !type.startsWith('x.')) return false;
  if (type === 'control.accepted' || type === 'control.rejected') return false;
  return /^control\.[^.]/.test(type) || /^x\.[^.]+\.control\.[^.]/.test(type);
}

/**
 * Decide where a command goes. `authenticated` is whether the sender's binding carried a
 * valid token (false whenever the relay runs without AEP_TOKEN: watch-only).
 */
export function routeCommand<T extends Claimant>(command: AepEvent, authenticated: boolean, peers: Iterable<T>): Route<T> {
  if (!authenticated) {
    return { ok: false, code: 'unauthorized', detail: 'commands flow only on an authenticated binding; this relay runs watch-only without AEP_TOKEN (AEP-0004 §4.1)' };
  }
  const session = command.session;
  if (typeof session !== 'string') {
    return { ok: false, code: 'no-route', detail: 'the command names no session to route to' };
  }
  const owners = [...peers].filter((p) => p.claims.has(session));
  if (owners.length === 0) {
    return { ok: false, code: 'no-route', detail: `no connected emitter owns session ${JSON.stringify(session)}` };
  }
  if (owners.length > 1) {
    return { ok: false, code: 'ambiguous', detail: `${owners.length} live connections claim session ${JSON.stringify(session)}; the relay never guesses (AEP-0004 §4.5)` };
  }
  const target = owners[0]!;
  if (!target.accepts?.includes(command.type)) {
    const declared = target.accepts ? `[${target.accepts.join(', ')}]` : 'no control capability';
    return { ok: false, code: 'unsupported', detail: `the target of session ${JSON.stringify(session)} declared ${declared}, not ${command.type} (AEP-0004 §4.2)` };
  }
  return { ok: true, target };
}
