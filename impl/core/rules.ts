/**
 * The rule catalogue: every rule id the envelope, stream, form and payload validators can
 * emit, with the spec section it reads and a one-line summary. Ids are stable: a published
 * id is never renamed or reused. `violation()` is the only way the validators in this
 * directory build an Issue, so an id outside the catalogue does not compile.
 */
import { issue, type Issue } from './issue.js';
import { PAYLOAD_RULES } from './payload.js';

/** One catalogued rule. */
export interface Rule {
  /** Stable dotted id, e.g. `scope.seq.required`. */
  readonly id: string;
  /** The spec section the rule reads, e.g. `AEP-0001 §5.2`. */
  readonly section: string;
  /** What the rule demands, in one line. */
  readonly summary: string;
}

type Entry = readonly [section: string, summary: string];

const S51 = 'AEP-0001 §5.1';

/** Rules of this module's validators (envelope.ts, stream.ts, forms.ts), keyed by id. */
const OWN = {
  // AEP-0001 §5 / §5.1: the envelope attributes.
  'envelope.not_object': ['AEP-0001 §5', 'an Event is a single JSON object'],
  'envelope.depth': ['AEP-0001 §5', 'an Event nests at most 64 levels of objects and arrays (this implementation\'s bound, MAX_DEPTH)'],
  'json.member.duplicate': ['AEP-0001 §5', 'no JSON object of an Event names the same member twice (parsers disagree on which value wins)'],
  'envelope.aep.required': [S51, '`aep` is present'],
  'envelope.aep.version': [S51, '`aep` is the string "0.1" (the 0.1 envelope)'],
  'envelope.id.required': [S51, '`id` is present'],
  'envelope.id.type': [S51, '`id` is a string'],
  'envelope.id.empty': [S51, '`id` is not empty'],
  'envelope.type.required': [S51, '`type` is present'],
  'envelope.type.type': [S51, '`type` is a string'],
  'envelope.subject.type': [S51, '`subject`, when present, is a string'],
  'envelope.subject.empty': [S51, '`subject`, when present, is not empty'],
  'envelope.time.required': [S51, '`time` is present'],
  'envelope.time.type': [S51, '`time` is a string'],
  'envelope.time.format': [S51, '`time` is an RFC 3339 date-time with a timezone'],
  'envelope.source.required': [S51, '`source` is present'],
  'envelope.source.type': [S51, '`source` is a string'],
  'envelope.source.empty': [S51, '`source` is not empty'],
  'envelope.source.format': [S51, '`source` is an absolute URI'],
  'envelope.agent.required': [S51, '`agent` is present'],
  'envelope.agent.type': [S51, '`agent` is a string'],
  'envelope.agent.empty': [S51, '`agent` is not empty'],
  'envelope.session.type': [S51, '`session`, when present, is a string'],
  'envelope.session.empty': [S51, '`session`, when present, is not empty'],
  'envelope.run.type': [S51, '`run`, when present, is a string'],
  'envelope.run.empty': [S51, '`run`, when present, is not empty'],
  'envelope.step.type': [S51, '`step`, when present, is a string'],
  'envelope.step.empty': [S51, '`step`, when present, is not empty'],
  'envelope.seq.type': [S51, '`seq`, when present, is an integer'],
  'envelope.seq.minimum': [S51, '`seq`, when present, is >= 0'],
  'envelope.seq.range': [S51, '`seq`, when present, is at most 2^53 - 1 (Number.MAX_SAFE_INTEGER), so every JSON reader keeps it exact'],
  'envelope.epoch.type': [S51, '`epoch`, when present, is an integer'],
  'envelope.epoch.minimum': [S51, '`epoch`, when present, is >= 0'],
  'envelope.epoch.range': [S51, '`epoch`, when present, is at most 2^53 - 1 (Number.MAX_SAFE_INTEGER), so every JSON reader keeps it exact'],
  'envelope.cause.type': [S51, '`cause`, when present, is a string'],
  'envelope.cause.empty': [S51, '`cause`, when present, is not empty'],
  'envelope.traceparent.type': [S51, '`traceparent`, when present, is a string'],
  'envelope.traceparent.format': [S51, '`traceparent` is a W3C Trace Context value: lowercase hex vv-32hex-16hex-ff, version not ff, ids not all zeros'],
  'envelope.severity.enum': ['AEP-0001 §8.1', '`severity` is one of debug, info, notice, warning, error, critical'],
  'envelope.capture.enum': ['AEP-0001 §8.2', '`capture` is one of none, metadata, redacted, full'],
  'envelope.data.type': [S51, '`data`, when present, is a JSON object'],
  // AEP-0001 §8.2: capture honesty that needs no schema.
  'capture.none.data': ['AEP-0001 §8.2', 'an Event at capture "none" carries no payload content'],
  'capture.field.level': ['AEP-0002 §5.1', 'no payload field is annotated above the Event\'s declared capture level'],
  // AEP-0001 §5.4: extension attributes.
  'ext.name.grammar': ['AEP-0001 §5.4', 'an extension attribute name matches [a-z0-9]{1,20}'],
  'ext.value.type': ['AEP-0001 §5.4', 'an extension attribute value is a string, an integer or a boolean'],
  // AEP-0001 §5.2: scope.
  'scope.session.required': ['AEP-0001 §5.2', 'a session-scoped Event carries `session`'],
  'scope.seq.required': ['AEP-0001 §5.2', 'a session-scoped Event from the session owner carries `seq`'],
  'scope.agent.forbidden': ['AEP-0001 §5.2', 'an agent-scoped Event (agent.*) omits session, run, step and seq'],
  'scope.command.seq': ['AEP-0004 §2.2', 'a command (control.{verb}, x.{vendor}.control.*) omits `seq`'],
  'scope.routed.seq': ['AEP-0002 §7.3', '`attention.routed` is foreign-emitter and omits `seq`'],
  // AEP-0001 §6 and AEP-0002 §6: type names and registry membership.
  'type.grammar': ['AEP-0001 §6', '`type` is lowercase {category}.{rest} with [a-z0-9_] tokens'],
  'type.category': ['AEP-0002 §3', 'the first segment of `type` is a registered category (or x)'],
  'type.vendor': ['AEP-0001 §6', 'a vendor type is x.{vendor}.{category}.{rest}'],
  'registry.type.unregistered': ['AEP-0002 §6', 'a type in a core category is a registered core type'],
  // AEP-0002 §7 and AEP-0004: per-type prose rules.
  'attention.subject.required': ['AEP-0002 §7', 'attention lifecycle Events after `requested` set `subject` to the request id'],
  'control.ack.cause': ['AEP-0004 §3', 'an ack (control.accepted/rejected) sets `cause` to the command id'],
  'control.respond.subject': ['AEP-0004 §6', '`control.attention.respond` sets `subject` to the request id'],
  'citation.offset.variants': ['AEP-0002 §5.2', 'a citation offset populates at most one of char, page, block'],
  // AEP-0006 / AEP-0002 §5.2, §5.3: forms.
  'form.fields.kind': ['AEP-0002 §5.3', '`fields` appears only on kind "form" requests'],
  'form.field.duplicate': ['AEP-0006', 'field ids of a form are unique (values is keyed by them)'],
  'form.choice.duplicate': ['AEP-0006', 'choice ids within a select field are unique'],
  'form.values.type': ['AEP-0006', 'each answer value has its field type (string, number, boolean, choice id, choice-id array when multi)'],
  'form.values.unknown': ['AEP-0006', 'each key of answer.values is a field id of the request'],
  'form.values.required': ['AEP-0006', 'answer.values covers every required field'],
  'form.values.choice': ['AEP-0006', 'a select answer is a choice id unless the field has other:true'],
  'form.values.range': ['AEP-0006', 'a number answer lies within the field\'s min and max'],
  'form.values.kind': ['AEP-0002 §5.3', 'answer.values answers only a kind "form" request'],
  'form.values.capture': ['AEP-0002 §5.3', 'free-text answer values (string fields, other text) appear only at capture redacted or full'],
  // Streams: AEP-0003 §3.1 (JSONL) and the cross-event rules.
  'stream.line.json': ['AEP-0003 §3.1', 'each non-blank JSONL line is one JSON value'],
  'stream.line.size': ['AEP-0003 §3.1', 'a JSONL line is at most 1 MiB (this validator\'s bound)'],
  'stream.line.encoding': ['AEP-0001 §5', 'a JSONL line is valid UTF-8'],
  'stream.id.collision': ['AEP-0001 §7', 'one (source, id) names one Event: a repeat is byte-identical'],
  'stream.epoch.order': ['AEP-0001 §7', '`epoch` never decreases within a (source, session)'],
  'stream.seq.order': ['AEP-0001 §7', '`seq` strictly increases within one epoch of a (source, session)'],
  'stream.run.terminal': ['AEP-0002 §2', 'a run reaches at most one terminal (run.finished, run.failed, run.cancelled)'],
  'stream.tool.terminal': ['AEP-0002 §2', 'a tool call (tool.call_id) reaches at most one terminal (completed, failed, denied)'],
  'stream.session.terminal': ['AEP-0002 §2', 'a session has at most one distinct session.ended'],
  'stream.attention.terminal': ['AEP-0002 §7', 'an attention request reaches at most one terminal (resolved, timeout)'],
  'stream.attention.open': ['AEP-0002 §7', 'no attention request is still open when its session ends'],
  'stream.ack.duplicate': ['AEP-0004 §3', 'a command gets one ack decision: a second, different ack is invalid'],
} as const satisfies Record<string, Entry>;

/** A rule id this module's validators may emit. */
export type RuleId = keyof typeof OWN;

/** Build the issue for a catalogued rule; the section comes from the catalogue. */
export function violation(rule: RuleId, path: string, message: string): Issue {
  return issue(rule, OWN[rule][0], path, message);
}

/** Every rule the validators can emit: envelope, stream and form rules, then the payload rules. */
export const RULES: readonly Rule[] = Object.freeze([
  ...Object.entries(OWN).map(([id, [section, summary]]) => Object.freeze({ id, section, summary })),
  ...PAYLOAD_RULES.map((r) => Object.freeze({ id: r.id, section: r.section, summary: r.summary })),
]);

const BY_ID: ReadonlyMap<string, Rule> = new Map(RULES.map((r) => [r.id, r]));

/** The catalogue entry of a rule id, or `undefined`. */
export function lookupRule(id: string): Rule | undefined {
  return BY_ID.get(id);
}
