/**
 * OpenCode moment → AEP event, the pure half of the OpenCode adapter (AEP-0002 Annex A.7), on the
 * plugin family's shared table (adapter-kit/plugin-moments.ts) under the `opencode` identity.
 *
 * `mapMoment(moment, posture?)` returns `{type, data, subject?}` or null (a deliberate silence);
 * `diffTodos(prev, next, posture?)` turns two `todo.updated` snapshots into transitions.
 *
 * | moment | AEP type |
 * |---|---|
 * | bus `session.created` (a child names its parent) / `session.deleted` | `session.started` / `session.ended` |
 * | bus `message.updated` role user / `session.idle` | `run.started` / `run.finished` (runtime opens and closes the run) |
 * | bus `session.status` / `session.compacted` | `progress.status` (subject the status type) / `session.compacted` |
 * | bus `todo.updated` / `permission.updated` | nothing (diffTodos / the held hook carries the ask) |
 * | bus `permission.replied`, `question.replied` / `question.rejected` | `attention.resolved` (answered / dismissed) |
 * | bus `permission.asked`, `question.asked` (the v2 surface, see the README) | `attention.requested` (permission once/always/reject; form) |
 * | `tool.execute.before` / `.after` | `tool.requested` / `tool.completed` (no `tool.failed`: the typed hook has no error) |
 * | `permission.ask` hook | `attention.requested` (permission, allow/deny) |
 * | bus `session.error` | `x.opencode.session.error` (severity error) |
 * | any other bus type | `x.opencode.<bus type>` (severity debug) |
 */
import { DEFAULT_POSTURE } from '../../adapter-kit/capture.js';
import { diffTodos as diffPluginTodos, mapPluginMoment } from '../../adapter-kit/plugin-moments.js';
import type { Mapped, Posture } from '../../adapter-kit/types.js';

export const AGENT = 'opencode';

export function mapMoment(moment: unknown, posture: Posture = DEFAULT_POSTURE): Mapped | null {
  return mapPluginMoment(AGENT, moment, posture);
}

export function diffTodos(prev: unknown, next: unknown, posture: Posture = DEFAULT_POSTURE): Mapped[] {
  return diffPluginTodos(prev, next, posture);
}
