/**
 * Live replays of the plugin-shaped mapping sections (`moments`, `todos`, `events`): how each
 * entry reaches a daemon's hook endpoint and what must come back, for runners/live/mappings-live.ts.
 *
 * - A moment is POSTed to `/hook/<kind>` with its session rewritten wherever the moment's shape
 *   carries one, plus the `session_id` hint the plugin sends (the session of moments that name none).
 * - Runtime state decides some emissions, so the replay sets it up first: `session.idle` closes a
 *   run only when one is open (a user `message.updated` opens one before it), and a `todo.updated`
 *   snapshot is diffed against the session's previous one, so its live pin is the pure
 *   `diffTodos([], todos)` rather than the moment's `null`. A `todos` entry POSTs its two snapshots
 *   and expects exactly the pinned transitions after the second.
 * - An event (pi) is POSTed to `/hook/<event.type>` as `{session, event}` (the session rebound in
 *   the shape the entry gives it: an id, or `{id, file, cwd}`); a `deltas_expected` fork is
 *   replayed again with the extension's `deltas: true` flag. An event-shaped source's entries
 *   are replayed this way whatever their section is called (the standard files pi's under `moments`);
 *   an `agent_end` is preceded by its loop's `agent_start`, since the daemon closes only a run it saw open.
 */
import { isPlainObject } from '../../impl/core/event.js';
import type { MappingFile, SourceMappers } from '../conformance/families/mappings.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});

/** One POST of a replay: the hook name and the body. */
export interface Post {
  hook: string;
  input: Obj;
}

/** A replay bound to its session: setup POSTs (their events are not compared), then the entry's. */
export interface BoundReplay {
  preludes: Post[];
  post: Post;
  /** The pin: one `{type, data, subject?, step?}`, null (nothing), or a list (all events, in order). */
  expected: unknown;
}

export interface MomentReplay {
  name: string;
  bind(session: string): BoundReplay;
}

/** A copy of `moment` with its session set to `session` wherever its shape carries one. */
export function rebindMoment(moment: Obj, session: string): Obj {
  const m = structuredClone(moment);
  if (m.kind === 'bus') {
    const event = obj(m.event);
    const p = obj(event.properties);
    const info = obj(p.info);
    if (typeof p.sessionID === 'string') p.sessionID = session;
    if (String(event.type).startsWith('session.') && typeof info.id === 'string') info.id = session;
    if (typeof info.sessionID === 'string') info.sessionID = session;
    if (isPlainObject(p.part) && typeof p.part.sessionID === 'string') p.part.sessionID = session;
  } else if (m.kind === 'permission.ask') {
    obj(m.permission).sessionID = session;
  } else {
    obj(m.input).sessionID = session;
  }
  return { ...m, session_id: session };
}

const userMessage = (session: string): Post => ({
  hook: 'bus',
  input: { kind: 'bus', event: { type: 'message.updated', properties: { info: { id: `msg_live_${session}`, sessionID: session, role: 'user', time: { created: 1 } } } }, session_id: session },
});

/** `{session, event}` with the session set to `session`, in the shape the input gives it (an id, or `{id, file, cwd}`). */
export function rebindEventInput(input: Obj, session: string): Obj {
  return { ...input, session: isPlainObject(input.session) ? { ...input.session, id: session } : session };
}

/** The live replays of a file's `moments`, `todos` and `events` sections. */
export function momentReplays(file: MappingFile, mappers: SourceMappers): MomentReplay[] {
  const out: MomentReplay[] = [];
  // An event-shaped source (pi: `mapEvent`, no `mapMoment`) is replayed as events whatever its section is called.
  const eventShaped = mappers.mapMoment === undefined && mappers.mapEvent !== undefined;
  for (const entry of eventShaped ? [] : file.moments) {
    out.push({
      name: entry.name,
      bind(session) {
        const input = rebindMoment(entry.input, session);
        const event = obj(input.event);
        const post = { hook: String(input.kind), input };
        if (input.kind === 'bus' && event.type === 'session.idle') return { preludes: [userMessage(session)], post, expected: entry.expected };
        if (input.kind === 'bus' && event.type === 'todo.updated' && mappers.diffTodos) {
          return { preludes: [], post, expected: mappers.diffTodos([], obj(event.properties).todos) };
        }
        return { preludes: [], post, expected: entry.expected };
      },
    });
  }
  for (const entry of file.todos) {
    out.push({
      name: entry.name,
      bind(session) {
        const snapshot = (todos: unknown): Post => ({ hook: 'bus', input: { kind: 'bus', event: { type: 'todo.updated', properties: { sessionID: session, todos } }, session_id: session } });
        return { preludes: [snapshot(entry.prev)], post: snapshot(entry.next), expected: entry.expected };
      },
    });
  }
  for (const entry of eventShaped ? [...file.moments, ...file.events] : file.events) {
    const event = obj(entry.input.event);
    const forks: Array<[string, unknown, boolean]> = [[entry.name, entry.expected, false]];
    if (entry.deltasExpected !== undefined) forks.push([`${entry.name} (deltas)`, entry.deltasExpected, true]);
    for (const [name, expected, deltas] of forks) {
      out.push({
        name,
        bind: (session) => {
          const input = rebindEventInput(entry.input, session);
          // A loop's end closes the run its start opened: the daemon sees the start first.
          const preludes = event.type === 'agent_end' ? [{ hook: 'agent_start', input: { session: input.session, event: { type: 'agent_start' } } }] : [];
          return { preludes, post: { hook: String(event.type ?? 'unknown'), input: { ...input, ...(deltas ? { deltas: true } : {}) } }, expected };
        },
      });
    }
  }
  return out;
}
