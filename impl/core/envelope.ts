/**
 * Single-Event validation. `validateEnvelope`: the AEP-0001 §5 envelope (attributes, formats,
 * scope, extension attributes) and the §6 type grammar, exactly the envelope schema's surface.
 * `validateEvent`: that, plus AEP-0002 registry membership, the per-type prose rules a schema
 * cannot state (attention lifecycle subject, ack cause and respond subject, form structure),
 * capture honesty (AEP-0002 §5.1) and the payload schema (`validatePayload`).
 * Pure; never throws on any input.
 */
import { CAPTURE_ORDER, CORE_ATTRIBUTES, SEVERITY_ORDER, captureRank, isPlainObject, type CaptureLevel } from './event.js';
import { MAY_OVER_CAPTURE, TOO_DEEP, dataVerdict } from './data-pass.js';
import { ABSOLUTE_URI, CORE_TYPE, EXTENSION_NAME, VENDOR_COMMAND, VENDOR_TYPE, isDateTime, traceparentProblem } from './envelope-formats.js';
import { isCleanEnvelope } from './envelope-pass.js';
import { findOverCapture, gatesForType } from './honesty.js';
import { MAX_DEPTH, tooDeepAt } from './json-shape.js';
import { childPath, type Issue } from './issue.js';
import { validatePayload } from './payload.js';
import { violation, type RuleId } from './rules.js';
import { COMMAND_TYPES, lookupCategory, lookupType } from '../../spec/registry.js';

export { isDateTime };

/** Names that are never extension attributes: the sixteen context attributes plus `data`. */
const CORE_NAMES: ReadonlySet<string> = new Set<string>([...CORE_ATTRIBUTES, 'data']);


/** Lifecycle types whose `subject` must name the request (AEP-0002 §7 rule 1). */
const ATTENTION_FOLLOWERS: ReadonlySet<string> = new Set(['attention.routed', 'attention.answered', 'attention.resolved', 'attention.timeout']);
const ACK_TYPES: ReadonlySet<string> = new Set(['control.accepted', 'control.rejected']);

/**
 * Validate one Event as an emitter's output (AEP-0001 §10): {@link validateEnvelope}, then
 * registry membership (a core-namespace type must be registered), the per-type prose rules,
 * capture honesty and the payload schema. At capture `none` the payload schema is not applied
 * (envelope only: no member can be demanded); any content there is the one finding
 * (`capture.none.data`). Returns every problem found, `[]` when valid.
 */
export function validateEvent(value: unknown): Issue[] {
  const pass = eventPass(value);
  const issues = pass < 0 || (pass & TOO_DEEP) !== 0 ? validateEnvelope(value) : [];
  if (!isPlainObject(value)) return issues;
  const ev = value;
  const type = typeof ev.type === 'string' ? ev.type : undefined;
  if (type === undefined) return issues;
  const registered = (issues.length === 0 || !issues.some((i) => i.path === '$.type')) && checkRegistered(type, issues);
  checkTypeRules(ev, type, issues);
  if (ev.capture === 'none') {
    // Envelope only: no payload member can be demanded (REQ fields included), and any content is the one finding.
    if (isPlainObject(ev.data) && Object.keys(ev.data).length > 0) {
      issues.push(violation('capture.none.data', '$.data', 'capture "none" means envelope only: drop `data` or declare the capture level the payload needs'));
    }
  } else if (registered && isPlainObject(ev.data) && lookupType(type)?.payload === true) {
    issues.push(...validatePayload(type, ev.data));
    if (pass !== 0) checkCaptureHonesty(type, ev.capture, ev.data, issues);
  }
  return issues;
}

/**
 * The one pass of `validateEvent`: -1 when the envelope is not proven clean (`isCleanEnvelope`),
 * else `data` walked once for the depth verdict and capture honesty together (`dataVerdict`,
 * data-pass.ts): 0 when it is within the bound and `findOverCapture` would find nothing in it,
 * `TOO_DEEP` past the bound, `MAY_OVER_CAPTURE` when the honesty walk must decide.
 */
function eventPass(value: unknown): number {
  if (!isCleanEnvelope(value, true)) return -1;
  const ev = value as Record<string, unknown>;
  // Clean: every other member is a scalar, so nothing nests. Without an own `data` the honesty step decides as before.
  if (!Object.hasOwn(ev, 'data')) return MAY_OVER_CAPTURE;
  const data = ev.data as Record<string, unknown>; // clean: a JSON object
  const type = ev.type as string;
  // What checkCaptureHonesty would be asked, read as it reads it.
  const declared = ev.capture === undefined ? 'metadata' : ev.capture;
  const rank = captureRank(declared as CaptureLevel);
  const gates = declared !== 'none' && !type.startsWith('x.') && lookupType(type)?.payload === true ? gatesForType(type) : undefined;
  return dataVerdict(data, gates !== undefined && rank > 0 && gates.top > rank ? gates.tree : undefined, rank);
}

/**
 * Validate only what the 0.1 envelope schema states (AEP-0001 §5, §5.2, §5.4, §6): attribute
 * types and formats, extension attributes, the type grammar and category, and scope. Unknown
 * members of known categories pass, as consumers and relays must tolerate them (AEP-0001 §6).
 * Use it where an Event is accepted rather than certified, e.g. at a relay's ingest.
 *
 * A valid Event is recognized in one pass over its members (`isCleanEnvelope`, envelope-pass.ts);
 * only an Event it cannot prove valid is searched by the checks below, which build the issues.
 * `depthChecked`: the caller's scanner already refused nesting past `MAX_DEPTH` (`scanJson`), so
 * the valid case skips the depth walk; the issues are the same either way.
 */
export function validateEnvelope(value: unknown, depthChecked = false): Issue[] {
  if (isCleanEnvelope(value, depthChecked)) return [];
  if (!isPlainObject(value)) {
    const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return [violation('envelope.not_object', '$', `an Event must be a JSON object, got ${got}`)];
  }
  // First, and alone: every later walk relies on the bound.
  const deep = tooDeepAt(value, MAX_DEPTH);
  if (deep !== undefined) {
    return [violation('envelope.depth', deep, `the Event nests deeper than ${MAX_DEPTH} levels of objects and arrays at ${deep}; flatten the payload (or carry a digest of the deep value)`)];
  }
  const ev = value;
  const issues: Issue[] = [];
  checkAttributes(ev, issues);
  checkExtensions(ev, issues);
  if (typeof ev.type === 'string') {
    checkTypeGrammar(ev.type, issues);
    checkScope(ev, ev.type, issues);
  }
  return issues;
}

/**
 * AEP-0001 §8.2(a), AEP-0002 §5.1 rule 1: no payload member is annotated above the Event's
 * declared `capture` (default `metadata`); one `capture.field.level` issue per finding of
 * `findOverCapture` (honesty.ts). An unknown level is reported by `envelope.capture.enum`.
 */
function checkCaptureHonesty(type: string, capture: unknown, data: Record<string, unknown>, issues: Issue[]): void {
  const declared = (capture === undefined ? 'metadata' : capture) as CaptureLevel; // `null` stays unknown
  for (const { path, level, array } of findOverCapture(data, gatesForType(type), declared)) {
    const message = array === undefined
      ? `\`${path}\` may appear only at capture "${level}" or above, but this Event declares "${declared}"; drop the field or declare the capture level it needs`
      : `items of \`${array}\` may appear only at capture "${level}" or above, but this Event declares "${declared}"`;
    issues.push(violation('capture.field.level', path, message));
  }
}

function has(ev: Record<string, unknown>, key: string): boolean {
  return Object.hasOwn(ev, key);
}

function show(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v);
  return `${typeof v} ${String(v)}`;
}

/** The string attributes and whether each is required and must be non-empty. */
const STRINGS: readonly { name: string; required: boolean; path: string }[] = (
  [
    { name: 'id', required: true },
    { name: 'type', required: true },
    { name: 'subject', required: false },
    { name: 'time', required: true },
    { name: 'source', required: true },
    { name: 'agent', required: true },
    { name: 'session', required: false },
    { name: 'run', required: false },
    { name: 'step', required: false },
    { name: 'cause', required: false },
    { name: 'traceparent', required: false },
  ] as const
).map((a) => ({ ...a, path: `$.${a.name}` }));

function checkAttributes(ev: Record<string, unknown>, issues: Issue[]): void {
  // aep: the version marker (AEP-0001 §5.1 #1, §11).
  if (!has(ev, 'aep')) {
    issues.push(violation('envelope.aep.required', '$.aep', 'missing `aep`: add "aep": "0.1" (the envelope version)'));
  } else if (ev.aep !== '0.1') {
    issues.push(violation('envelope.aep.version', '$.aep', `\`aep\` is ${show(ev.aep)}; this validator reads the 0.1 envelope only, so set "aep": "0.1"`));
  }

  for (const { name, required, path } of STRINGS) {
    if (!has(ev, name)) {
      if (required) issues.push(violation(`envelope.${name}.required` as RuleId, path, `missing required attribute \`${name}\``));
      continue;
    }
    const v = ev[name];
    if (typeof v !== 'string') {
      const hint = v === null ? ' (absent optional attributes are omitted, never null)' : '';
      issues.push(violation(`envelope.${name}.type` as RuleId, path, `\`${name}\` must be a string, got ${show(v)}${hint}`));
      continue;
    }
    if (name === 'type') continue; // grammar: checkType
    if (name === 'time') {
      if (!isDateTime(v)) issues.push(violation('envelope.time.format', path, `\`time\` ${show(v)} is not an RFC 3339 date-time with timezone, e.g. "2026-07-03T10:15:04.221Z"`));
      continue;
    }
    if (name === 'traceparent') {
      const problem = traceparentProblem(v);
      if (problem !== undefined) issues.push(violation('envelope.traceparent.format', path, `\`traceparent\` ${show(v)} ${problem}`));
      continue;
    }
    if (v.length === 0) {
      issues.push(violation(`envelope.${name}.empty` as RuleId, path, `\`${name}\` must not be empty; omit it if there is no value`));
      continue;
    }
    if (name === 'source' && !ABSOLUTE_URI.test(v)) {
      issues.push(violation('envelope.source.format', path, `\`source\` ${show(v)} is not an absolute URI; use e.g. "aep://host/agent/{agent}/session/{session}" and percent-encode segments`));
    }
  }

  for (const name of ['seq', 'epoch'] as const) {
    if (!has(ev, name)) continue;
    const v = ev[name];
    if (typeof v !== 'number' || !Number.isInteger(v)) {
      issues.push(violation(`envelope.${name}.type`, `$.${name}`, `\`${name}\` must be a non-negative integer, got ${show(v)}`));
    } else if (v < 0) {
      issues.push(violation(`envelope.${name}.minimum`, `$.${name}`, `\`${name}\` is ${v}; it must be >= 0`));
    } else if (v > Number.MAX_SAFE_INTEGER) {
      issues.push(violation(`envelope.${name}.range`, `$.${name}`, `\`${name}\` is ${show(v)}, above 2^53 - 1 (${Number.MAX_SAFE_INTEGER}): JSON readers would round it; keep positions within that bound`));
    }
  }

  if (has(ev, 'severity') && !(SEVERITY_ORDER as readonly unknown[]).includes(ev.severity)) {
    issues.push(violation('envelope.severity.enum', '$.severity', `\`severity\` ${show(ev.severity)} is not one of ${SEVERITY_ORDER.join(', ')}`));
  }
  if (has(ev, 'capture') && !(CAPTURE_ORDER as readonly unknown[]).includes(ev.capture)) {
    issues.push(violation('envelope.capture.enum', '$.capture', `\`capture\` ${show(ev.capture)} is not one of ${CAPTURE_ORDER.join(', ')}`));
  }
  if (has(ev, 'data') && !isPlainObject(ev.data)) {
    issues.push(violation('envelope.data.type', '$.data', `\`data\` must be a JSON object, got ${show(ev.data)}; omit it when there is no payload`));
  }
}


function checkExtensions(ev: Record<string, unknown>, issues: Issue[]): void {
  // for...in filtered to own names: Object.keys' names in Object.keys' order, without the array.
  for (const name in ev) {
    if (!Object.hasOwn(ev, name) || CORE_NAMES.has(name)) continue;
    const v = ev[name];
    const path = childPath('$', name);
    if (!EXTENSION_NAME.test(name)) {
      const why = name.length > 20 ? `is ${name.length} characters long (at most 20)` : 'uses characters outside lowercase a-z and 0-9';
      issues.push(violation('ext.name.grammar', path, `extension attribute ${JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}…` : name)} ${why}; rename it to match [a-z0-9]{1,20}, starting with your vendor name`));
    }
    const scalar = typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isInteger(v));
    if (!scalar) {
      issues.push(violation('ext.value.type', path, `extension attribute values must be a string, an integer or a boolean, got ${show(v)}; put structured data in \`data\``));
    }
  }
}

/** AEP-0001 §6 grammar and the AEP-0002 §3 category of a type string. */
function checkTypeGrammar(type: string, issues: Issue[]): void {
  // A registered type is well-formed and of a registered category (envelope.fast.test.ts checks
  // every entry of the registry): the usual case costs one map lookup instead of the patterns.
  if (lookupType(type) !== undefined) return;
  const path = '$.type';
  if (/[A-Z]/.test(type)) {
    issues.push(violation('type.grammar', path, `type ${show(type)} has uppercase letters; AEP types are lowercase (e.g. "tool.completed")`));
  } else if (type.startsWith('x.')) {
    if (!VENDOR_TYPE.test(type)) {
      issues.push(violation('type.vendor', path, `vendor type ${show(type)} must be x.{vendor}.{category}.{rest} (at least four segments, e.g. "x.acme.session.note"); tokens use [a-z0-9_], the vendor also "-"`));
    }
  } else if (!CORE_TYPE.test(type)) {
    issues.push(violation('type.grammar', path, `type ${show(type)} must be {category}.{rest}: two or more dot-separated [a-z0-9_] tokens, e.g. "run.started"`));
  } else {
    const category = type.slice(0, type.indexOf('.'));
    if (lookupCategory(category) === undefined) {
      issues.push(violation('type.category', path, `"${category}" is not an AEP 0.1 category; use a registered category or a vendor type x.{vendor}.${type}`));
    }
  }
}

/**
 * AEP-0001 §10 / AEP-0002 §6: a well-formed core-namespace type is a registered one. Vendor types
 * always pass. Returns whether the type is registered (so its payload can be checked).
 */
function checkRegistered(type: string, issues: Issue[]): boolean {
  if (type.startsWith('x.')) return false;
  if (lookupType(type) !== undefined) return true;
  const category = type.slice(0, type.indexOf('.'));
  issues.push(violation('registry.type.unregistered', '$.type', `"${type}" is in the core "${category}" namespace but is not a registered 0.1 type; vendor types use x.{vendor}.${type}`));
  return false;
}

/** AEP-0001 §5.2 scope, decided from the type string exactly as the envelope schema decides it. */
function checkScope(ev: Record<string, unknown>, type: string, issues: Issue[]): void {
  if (type.startsWith('agent.')) {
    for (const name of ['session', 'run', 'step', 'seq']) {
      if (has(ev, name)) {
        issues.push(violation('scope.agent.forbidden', `$.${name}`, `agent-scoped Events (agent.*) describe the emitter, not a session: remove \`${name}\``));
      }
    }
    return;
  }
  const command = COMMAND_TYPES.includes(type) || (type.startsWith('x.') && VENDOR_COMMAND.test(type));
  const routed = type === 'attention.routed';
  if (!has(ev, 'session')) {
    const who = command ? 'a command must name its target session' : routed ? '`attention.routed` is scoped to the original session' : 'session-scoped Events carry `session`';
    issues.push(violation('scope.session.required', '$.session', `missing \`session\`: ${who}`));
  }
  if (command || routed) {
    if (has(ev, 'seq')) {
      const rule = command ? 'scope.command.seq' : 'scope.routed.seq';
      const who = command ? 'a command' : '`attention.routed`';
      issues.push(violation(rule, '$.seq', `${who} is a foreign-emitter session Event: its sender does not own the session order, so remove \`seq\``));
    }
  } else if (!has(ev, 'seq')) {
    issues.push(violation('scope.seq.required', '$.seq', 'missing `seq`: the session owner numbers every session-scoped Event (per-session counter, ordering and resume basis)'));
  }
}

/** Prose rules tied to particular types (AEP-0002 §7, AEP-0004 §3 and §6, AEP-0006). */
function checkTypeRules(ev: Record<string, unknown>, type: string, issues: Issue[]): void {
  if (ATTENTION_FOLLOWERS.has(type) && !has(ev, 'subject')) {
    issues.push(violation('attention.subject.required', '$.subject', `${type} must set \`subject\` to the id of the attention.requested Event it follows`));
  }
  if (ACK_TYPES.has(type) && !has(ev, 'cause')) {
    issues.push(violation('control.ack.cause', '$.cause', `${type} must set \`cause\` to the id of the command it acknowledges`));
  }
  if (type === 'control.attention.respond' && !has(ev, 'subject')) {
    issues.push(violation('control.respond.subject', '$.subject', 'control.attention.respond must set `subject` to the id of the attention.requested Event it answers'));
  }
  if (type === 'attention.requested' && isPlainObject(ev.data)) checkFormStructure(ev.data, issues);
  if (type === 'resource.citation.recorded' && isPlainObject(ev.data)) checkCitationOffsets(ev.data, issues);
}

/** AEP-0002 §5.2 `citation.offset`: at most one of `char`, `page`, `block` is populated. */
function checkCitationOffsets(data: Record<string, unknown>, issues: Issue[]): void {
  if (!Array.isArray(data.citations)) return;
  data.citations.forEach((citation, i) => {
    if (!isPlainObject(citation) || !isPlainObject(citation.offset)) return;
    const offset = citation.offset;
    const variants = ['char', 'page', 'block'].filter((k) => has(offset, k));
    if (variants.length > 1) {
      issues.push(violation('citation.offset.variants', `${childPath('$.data.citations', i)}.offset`, `a citation offset populates at most one of char, page, block, but this one has ${variants.join(' and ')}; keep the one that locates the span`));
    }
  });
}

function checkFormStructure(data: Record<string, unknown>, issues: Issue[]): void {
  if (!has(data, 'fields')) return;
  if (data.kind !== 'form') {
    issues.push(violation('form.fields.kind', '$.data.fields', `\`fields\` belongs to kind "form" requests only, but kind is ${show(data.kind)}; set kind "form" or drop fields`));
  }
  if (!Array.isArray(data.fields)) return; // the payload schema reports the shape
  const seen = new Set<string>();
  data.fields.forEach((field, i) => {
    if (!isPlainObject(field)) return;
    const path = childPath('$.data.fields', i);
    if (typeof field.id === 'string') {
      if (seen.has(field.id)) issues.push(violation('form.field.duplicate', `${path}.id`, `field id "${field.id}" is used twice; answer.values is keyed by field id, so ids must be unique`));
      seen.add(field.id);
    }
    if (!Array.isArray(field.choices)) return;
    const choices = new Set<string>();
    field.choices.forEach((choice, j) => {
      if (!isPlainObject(choice) || typeof choice.id !== 'string') return;
      if (choices.has(choice.id)) {
        issues.push(violation('form.choice.duplicate', `${childPath(`${path}.choices`, j)}.id`, `choice id "${choice.id}" appears twice in this field; choice ids must be unique`));
      }
      choices.add(choice.id);
    });
  });
}
