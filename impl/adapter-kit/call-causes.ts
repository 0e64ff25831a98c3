/**
 * Tool terminals cause-linked to their request, for every adapter (AEP-0002 §2 rule 1: a
 * terminal names what it ends). The kit remembers the id of each `tool.requested` by
 * `(session, data.tool.call_id)`; a `tool.completed`, `tool.failed` or `tool.denied` of the same
 * call that the adapter emits without a `cause` gets that id as its cause. An explicit cause (the
 * answer or command that ended the call) is kept. The call is forgotten at its terminal, and the
 * session's calls at `session.ended`, so memory is bounded by the calls open. Pure.
 */
import type { AepEvent } from '../core/event.js';
import { isPlainObject } from '../core/event.js';
import type { Mapped } from './types.js';

const TERMINALS: ReadonlySet<string> = new Set(['tool.completed', 'tool.failed', 'tool.denied']);

function callIdOf(data: unknown): string | undefined {
  if (!isPlainObject(data) || !isPlainObject(data.tool)) return undefined;
  const id = data.tool.call_id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

export class CallCauses {
  /** session → call_id → the id of its tool.requested. */
  readonly #open = new Map<string, Map<string, string>>();

  /** The cause a tool terminal should carry when the adapter gave none; undefined otherwise. */
  causeFor(session: string, mapped: Mapped, explicit: string | undefined): string | undefined {
    if (explicit !== undefined || !TERMINALS.has(mapped.type)) return undefined;
    const call = callIdOf(mapped.data);
    return call === undefined ? undefined : this.#open.get(session)?.get(call);
  }

  /** Record what an emitted event opens or closes. */
  note(event: AepEvent): void {
    const session = event.session;
    if (typeof session !== 'string') return;
    if (event.type === 'session.ended') {
      this.#open.delete(session);
      return;
    }
    const call = callIdOf(event.data);
    if (call === undefined) return;
    if (event.type === 'tool.requested') {
      let calls = this.#open.get(session);
      if (!calls) this.#open.set(session, (calls = new Map()));
      calls.set(call, event.id);
    } else if (TERMINALS.has(event.type)) {
      const calls = this.#open.get(session);
      calls?.delete(call);
      if (calls && calls.size === 0) this.#open.delete(session);
    }
  }

  /** Calls remembered (tests: memory stays bounded). */
  size(): number {
    let n = 0;
    for (const calls of this.#open.values()) n += calls.size;
    return n;
  }
}
