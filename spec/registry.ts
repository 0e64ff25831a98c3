/**
 * The AEP 0.1 registry as code: the closed category set (AEP-0002 §3), every registered
 * type (AEP-0002 §4, AEP-0004 §3 and §5), the nack reasons (AEP-0004 §3) and the severity
 * mappings of the bridges (AEP-0005 §3.4, §4.4). Pure data; `generate.ts` renders it as JSON.
 */
import { CAPTURE_ORDER, SEVERITY_ORDER, type Severity } from '../impl/core/event.js';

export { CAPTURE_ORDER, SEVERITY_ORDER };

/** Who an Event of a category describes (AEP-0001 §5.2): an agent, a session, or either (vendor types). */
export type CategoryScope = 'agent' | 'session' | 'any';

export type CategoryName =
  | 'agent' | 'session' | 'run' | 'progress' | 'tool' | 'delegation' | 'attention'
  | 'resource' | 'error' | 'state' | 'assessment' | 'message' | 'control' | 'x';

export interface Category {
  readonly name: CategoryName;
  readonly scope: CategoryScope;
  readonly summary: string;
}

/** The thirteen categories of AEP-0002 §3 plus the `x` vendor namespace, in the spec's order. */
export const CATEGORIES: readonly Category[] = Object.freeze([
  { name: 'agent', scope: 'agent', summary: 'the emitter itself: presence, health, liveness' },
  { name: 'session', scope: 'session', summary: 'lifecycle of a conversation or unit of work' },
  { name: 'run', scope: 'session', summary: 'one activation (turn, task, job) and its steps' },
  { name: 'progress', scope: 'session', summary: 'interim status, plan items, produced artifacts' },
  { name: 'tool', scope: 'session', summary: 'lifecycle of a tool or capability call' },
  { name: 'delegation', scope: 'session', summary: 'lifecycle of subagents and delegates' },
  { name: 'attention', scope: 'session', summary: 'moments that need a human, and their resolution' },
  { name: 'resource', scope: 'session', summary: 'external resources the agent reads or cites (experimental)' },
  { name: 'error', scope: 'session', summary: 'faults not carried by a tool or run terminal' },
  { name: 'state', scope: 'session', summary: 'agent-owned state images and patches' },
  { name: 'assessment', scope: 'session', summary: 'judgments about work: evaluations, feedback, guardrails (experimental)' },
  { name: 'message', scope: 'session', summary: 'conversational content; reserved for a sub-profile' },
  { name: 'control', scope: 'session', summary: 'inbound commands and the target\'s acknowledgements' },
  { name: 'x', scope: 'any', summary: 'vendor extensions, x.{vendor}.{category}.{rest}' },
] as const);

/** Registry status (AEP-0002 §1, §6). */
export type TypeStatus = 'mandatory' | 'optional' | 'reserved';
/** Registry scope (AEP-0002 §6): `command` marks the foreign-emitter commands of AEP-0004 §2.2. */
export type TypeScope = 'session' | 'agent' | 'command';

export interface TypeEntry {
  readonly type: CoreType;
  readonly category: CategoryName;
  readonly status: TypeStatus;
  readonly scope: TypeScope;
  /** True when a payload schema exists (`spec/payloads`, `spec/schemas/types/<type>.schema.json`). */
  readonly payload: boolean;
  /** True for session Events whose emitter does not own the session's order: they carry `session`, never `seq` (AEP-0001 §5.2). */
  readonly foreign: boolean;
  /** True for types flagged `experimental` (AEP-0002 §4.2 resource/assessment, AEP-0004 control, AEP-0009). */
  readonly experimental: boolean;
  /** The spec section that defines the type's payload. */
  readonly section: string;
  /** One line, our words. */
  readonly summary: string;
}

type Row = readonly [type: string, status: TypeStatus, scope: TypeScope, section: string, summary: string, flags?: { readonly payload?: boolean; readonly foreign?: boolean; readonly experimental?: boolean }];

const ROWS = [
  // AEP-0002 §4.1: the fourteen mandatory types.
  ['session.started', 'mandatory', 'session', 'AEP-0002 §5.3', 'a session opened; names its parent lineage and client'],
  ['session.ended', 'mandatory', 'session', 'AEP-0002 §5.3', 'a session closed (its single terminal)'],
  ['run.started', 'mandatory', 'session', 'AEP-0002 §5.3', 'a run (turn, task, job) began inside the session'],
  ['run.finished', 'mandatory', 'session', 'AEP-0002 §5.3', 'a run ended successfully'],
  ['run.failed', 'mandatory', 'session', 'AEP-0002 §5.3', 'a run ended in failure, rejection included'],
  ['run.cancelled', 'mandatory', 'session', 'AEP-0002 §5.3', 'a run was stopped on purpose; not a failure'],
  ['tool.requested', 'mandatory', 'session', 'AEP-0002 §5.3', 'a tool call is about to run'],
  ['tool.completed', 'mandatory', 'session', 'AEP-0002 §5.3', 'a tool call succeeded'],
  ['tool.failed', 'mandatory', 'session', 'AEP-0002 §5.3', 'a tool call raised an error'],
  ['tool.denied', 'mandatory', 'session', 'AEP-0002 §5.3', 'a tool call was blocked before running, without asking a human'],
  ['attention.requested', 'mandatory', 'session', 'AEP-0002 §5.3', 'the agent needs a human (or a delegate) to decide or supply something'],
  ['attention.answered', 'mandatory', 'session', 'AEP-0002 §5.3', 'an answer to an attention request was applied'],
  ['attention.resolved', 'mandatory', 'session', 'AEP-0002 §5.3', 'an attention request closed (answered, automatic, dismissed)'],
  ['attention.timeout', 'mandatory', 'session', 'AEP-0002 §5.3', 'an attention request expired without an answer'],
  // AEP-0002 §4.2: optional core types.
  ['session.compacted', 'optional', 'session', 'AEP-0002 §5.4', 'the context window was compacted (one event, after the fact)'],
  ['run.step.started', 'optional', 'session', 'AEP-0002 §5.4', 'a phase inside a run began'],
  ['run.step.finished', 'optional', 'session', 'AEP-0002 §5.4', 'a phase inside a run ended'],
  ['progress.status', 'optional', 'session', 'AEP-0002 §5.4', 'a free-form progress update for a run'],
  ['progress.task.planned', 'optional', 'session', 'AEP-0002 §5.4', 'an item was added to the plan'],
  ['progress.task.completed', 'optional', 'session', 'AEP-0002 §5.4', 'a plan item was finished'],
  ['progress.artifact.produced', 'optional', 'session', 'AEP-0002 §5.4', 'an output artifact now exists'],
  ['delegation.subagent.started', 'optional', 'session', 'AEP-0002 §5.4', 'a subagent was launched'],
  ['delegation.subagent.stopped', 'optional', 'session', 'AEP-0002 §5.4', 'a subagent ended'],
  ['attention.routed', 'optional', 'session', 'AEP-0002 §5.4', 'a consumer forwarded an attention request to a human surface', { foreign: true }],
  ['agent.presence', 'optional', 'agent', 'AEP-0002 §5.4', 'the emitter went online, offline or busy'],
  ['agent.idle', 'optional', 'agent', 'AEP-0002 §5.4', 'the agent is idle, waiting for work'],
  ['agent.health', 'optional', 'agent', 'AEP-0002 §5.4', 'the emitter reports its health'],
  ['agent.heartbeat', 'optional', 'agent', 'AEP-0002 §5.4', 'a liveness tick from the emitter'],
  ['error.raised', 'optional', 'session', 'AEP-0002 §5.4', 'a fault that no tool or run terminal carries'],
  ['state.snapshot', 'optional', 'session', 'AEP-0002 §5.4', 'a full image of agent-owned state'],
  ['state.delta', 'optional', 'session', 'AEP-0002 §5.4', 'a JSON-Patch change to agent-owned state'],
  ['resource.retrieval.requested', 'optional', 'session', 'AEP-0002 §5.4', 'a retrieval against an external corpus was issued', { experimental: true }],
  ['resource.retrieval.returned', 'optional', 'session', 'AEP-0002 §5.4', 'a retrieval came back with documents', { experimental: true }],
  ['resource.retrieval.reranked', 'optional', 'session', 'AEP-0002 §5.4', 'a retrieved set was rescored and reordered', { experimental: true }],
  ['resource.citation.recorded', 'optional', 'session', 'AEP-0002 §5.4', 'which spans of a produced answer cite which sources', { experimental: true }],
  ['assessment.evaluation.recorded', 'optional', 'session', 'AEP-0009 §3', 'an automated or model-judged evaluation of some work', { experimental: true }],
  ['assessment.feedback.received', 'optional', 'session', 'AEP-0009 §4', 'a person gave feedback on some work', { experimental: true }],
  ['assessment.guardrail.recorded', 'optional', 'session', 'AEP-0009 §6', 'a content-safety check already reached a verdict', { experimental: true }],
  // AEP-0002 §4.3: reserved for the message sub-profile; no payload schema in 0.1.
  ['message.user.submitted', 'reserved', 'session', 'AEP-0002 §4.3', 'reserved: a user message (sub-profile not yet defined)', { payload: false }],
  ['message.agent.replied', 'reserved', 'session', 'AEP-0002 §4.3', 'reserved: an agent reply (sub-profile not yet defined)', { payload: false }],
  // AEP-0004 §5: commands (foreign-emitter) and AEP-0004 §3: acknowledgements (sequenced by the target).
  ['control.attention.respond', 'optional', 'command', 'AEP-0004 §5', 'command: answer a pending attention request', { foreign: true, experimental: true }],
  ['control.cancel', 'optional', 'command', 'AEP-0004 §5', 'command: cancel a run or the whole session', { foreign: true, experimental: true }],
  ['control.pause', 'optional', 'command', 'AEP-0004 §5', 'command: pause the session', { foreign: true, experimental: true }],
  ['control.resume', 'optional', 'command', 'AEP-0004 §5', 'command: resume a paused session', { foreign: true, experimental: true }],
  ['control.accepted', 'optional', 'session', 'AEP-0004 §3', 'ack: the target will attempt the command', { experimental: true }],
  ['control.rejected', 'optional', 'session', 'AEP-0004 §3', 'nack: the target will not carry out the command', { experimental: true }],
] as const satisfies readonly Row[];

/** Every registered core type name, as a literal union to switch on. */
export type CoreType = (typeof ROWS)[number][0];
/** The registered control commands (AEP-0004 §5). */
export type CommandType = Extract<(typeof ROWS)[number], readonly [string, string, 'command', ...unknown[]]>[0];

/** Every registered type, in registry order. Frozen. */
export const TYPES: readonly TypeEntry[] = Object.freeze(
  (ROWS as readonly Row[]).map(([type, status, scope, section, summary, flags]) =>
    Object.freeze({
      type: type as CoreType,
      category: type.slice(0, type.indexOf('.')) as CategoryName,
      status,
      scope,
      payload: flags?.payload ?? true,
      foreign: flags?.foreign ?? false,
      experimental: flags?.experimental ?? false,
      section,
      summary,
    }),
  ),
);

const BY_TYPE: ReadonlyMap<string, TypeEntry> = new Map(TYPES.map((t) => [t.type, t]));

/** True when `type` is a registered core type (narrows it to `CoreType`). */
export function isCoreType(type: string): type is CoreType {
  return BY_TYPE.has(type);
}

/** The registry entry for a bare core type, or `undefined` (vendor `x.*` types and unknown types). */
export function lookupType(type: string): TypeEntry | undefined {
  return BY_TYPE.get(type);
}

/** The category record for a name, or `undefined` when the name is not one of the fourteen. */
export function lookupCategory(name: string): Category | undefined {
  return BY_CATEGORY.get(name);
}

const BY_CATEGORY: ReadonlyMap<string, Category> = new Map(CATEGORIES.map((c) => [c.name, c]));

/** The registered control commands (AEP-0004 §5): foreign-emitter, never carry `seq`. Typed `string[]` so any string can be tested with `includes`. */
export const COMMAND_TYPES: readonly string[] = Object.freeze(TYPES.filter((t) => t.scope === 'command').map((t) => t.type));

/** Session Events whose emitter does not own the session order: commands and `attention.routed` (AEP-0001 §5.2). */
export const FOREIGN_EMITTER_TYPES: readonly string[] = Object.freeze(TYPES.filter((t) => t.foreign).map((t) => t.type));

/** Types flagged `experimental`, advertised under `capabilities.experimental` (AEP-0003 §4). */
export const EXPERIMENTAL_TYPES: readonly string[] = Object.freeze(TYPES.filter((t) => t.experimental).map((t) => t.type));

/** The fourteen types every conformant consumer must understand (AEP-0002 §4.1). */
export const MANDATORY_TYPES: readonly string[] = Object.freeze(TYPES.filter((t) => t.status === 'mandatory').map((t) => t.type));

/** `control.rejected.data.reason` values (AEP-0004 §3). `timeout` is sender-side only and never on the wire. */
export const NACK_REASONS = Object.freeze(['unsupported', 'unauthorized', 'busy', 'refused', 'invalid'] as const);
export type NackReason = (typeof NACK_REASONS)[number];

/** Defaults applied when the attribute is absent (AEP-0001 §5.1). */
export const SEVERITY_DEFAULT: Severity = 'info';
export const CAPTURE_DEFAULT = 'metadata' as const;

/** AEP severity to OTLP LogRecord severity (AEP-0005 §3.4). */
export const SEVERITY_OTLP: Readonly<Record<Severity, { readonly severity_text: string; readonly severity_number: number }>> = Object.freeze({
  debug: { severity_text: 'DEBUG', severity_number: 5 },
  info: { severity_text: 'INFO', severity_number: 9 },
  notice: { severity_text: 'INFO2', severity_number: 10 },
  warning: { severity_text: 'WARN', severity_number: 13 },
  error: { severity_text: 'ERROR', severity_number: 17 },
  critical: { severity_text: 'FATAL', severity_number: 21 },
});

/** AEP severity to OCSF `severity_id` (AEP-0005 §4.4); lossy only at debug/info. */
export const SEVERITY_OCSF: Readonly<Record<Severity, number>> = Object.freeze({
  debug: 1,
  info: 1,
  notice: 2,
  warning: 3,
  error: 4,
  critical: 5,
});
