/**
 * The AEP ⇄ CloudEvents 1.0 mapping (AEP-0005 §1, §2): JSON format, structured mode.
 * Pure functions; inputs are never mutated and outputs share no structure with them
 * (`data` is copied verbatim, B2, as a deep copy).
 */
import { cloneJson } from '../json-shape.js';
import { CORE_ATTRIBUTES, isPlainObject, type AepEvent } from '../event.js';
import { childPath, issue, type Issue } from '../issue.js';
import { BRIDGE_RULES, type BridgeRule } from './rules.js';

/** A CloudEvent in the JSON format: context attributes plus `data`. */
export type CloudEvent = Record<string, unknown>;

/** The reverse-DNS root every AEP type is carried under (B3). */
export const CE_TYPE_PREFIX = 'dev.aep.';

/** B4/B5: envelope attribute → CE attribute, in emission order. */
export const CE_ATTRIBUTE_MAP = [
  ['aep', 'aepversion'],
  ['agent', 'aepagentid'],
  ['session', 'aepsessionid'],
  ['run', 'aeprunid'],
  ['step', 'aepstep'],
  ['seq', 'aepsequence'],
  ['epoch', 'aepepoch'],
  ['cause', 'aepcausationid'],
  ['severity', 'aepseverity'],
  ['capture', 'aepcapture'],
  ['traceparent', 'traceparent'],
] as const;

/** B2: attributes that keep their name on both sides. */
const PASS_THROUGH = ['id', 'source', 'subject', 'time'] as const;
/** B1: CE constants the inverse drops. */
const CE_CONSTANTS = new Set(['specversion', 'datacontenttype']);
/** AEP-0001 §5.4 extension name grammar, which is also CE's. */
export const EXTENSION_NAME = /^[a-z0-9]{1,20}$/;

const CORE = new Set<string>(CORE_ATTRIBUTES);
const FROM_CE = new Map<string, string>(CE_ATTRIBUTE_MAP.map(([aep, ce]) => [ce, aep]));
const MAPPED_BY_TABLE = new Set<string>(CE_ATTRIBUTE_MAP.map(([aep]) => aep));

/**
 * Forward map AEP → CE (§1). Absent optional attributes produce no CE attribute;
 * extension attributes pass through verbatim. The input is assumed envelope-valid
 * (run `validateEvent` first); nothing is materialized or defaulted.
 */
export function toCloudEvent(event: AepEvent): CloudEvent {
  const ce: CloudEvent = { specversion: '1.0' };
  const put = (name: string, value: unknown): void => {
    if (value !== undefined) ce[name] = value;
  };
  put('id', event.id);
  put('source', event.source);
  put('type', typeof event.type === 'string' ? CE_TYPE_PREFIX + event.type : undefined);
  put('subject', event.subject);
  put('time', event.time);
  if (event.data !== undefined) ce.datacontenttype = 'application/json';
  for (const [aep, name] of CE_ATTRIBUTE_MAP) put(name, event[aep]);
  for (const [name, value] of Object.entries(event)) {
    // An extension never overwrites a CE attribute the mapping itself owns.
    if (!CORE.has(name) && name !== 'data' && !(name in ce) && !CE_CONSTANTS.has(name) && !FROM_CE.has(name)) put(name, value);
  }
  put('data', event.data === undefined ? undefined : cloneJson(event.data));
  return ce;
}

/** The inverse map's result: the Event (or `null` for a foreign CE) and what was dropped. */
export interface InboundResult {
  /** The AEP Event, or `null` when the input is not an AEP-profile CloudEvent (§2 item 3). */
  readonly event: AepEvent | null;
  /** One issue per dropped attribute (§2 rule 2 diagnostics); empty on a clean inverse. */
  readonly issues: readonly Issue[];
}

/**
 * Inverse map CE → AEP with diagnostics (§2). Foreign types (not under `dev.aep.`)
 * and non-objects yield `{event: null}`. Unknown attributes are kept as AEP
 * extension attributes when their name is legal (AEP-0001 §5.4), does not collide
 * with a core attribute, and their value is a string, integer or boolean;
 * otherwise they are dropped with an issue while the rest maps. The Event is not
 * validated here: run `validateEvent` on it before trusting it.
 */
export function fromCloudEventDetailed(ce: unknown): InboundResult {
  if (!isPlainObject(ce) || typeof ce.type !== 'string' || !ce.type.startsWith(CE_TYPE_PREFIX)) {
    return { event: null, issues: [] };
  }
  const event: Record<string, unknown> = {};
  const issues: Issue[] = [];
  const take = (aep: string, value: unknown): void => {
    if (value !== undefined) event[aep] = value;
  };
  take('aep', ce.aepversion);
  take('id', ce.id);
  take('type', ce.type.slice(CE_TYPE_PREFIX.length));
  for (const name of PASS_THROUGH) take(name, ce[name]);
  for (const [name, value] of Object.entries(ce)) {
    if (name === 'type' || name === 'data' || CE_CONSTANTS.has(name) || (PASS_THROUGH as readonly string[]).includes(name)) continue;
    const mapped = FROM_CE.get(name);
    if (mapped !== undefined) {
      take(mapped, value);
      continue;
    }
    const problem = extensionProblem(name, value);
    if (problem === null) take(name, value);
    else issues.push(issue(problem.rule, BRIDGE_RULES[problem.rule][0], childPath('$', name), problem.message));
  }
  take('data', ce.data === undefined ? undefined : cloneJson(ce.data));
  return { event: event as AepEvent, issues };
}

/** Inverse map CE → AEP (§2): the Event, or `null` when the CE is not an AEP event. */
export function fromCloudEvent(ce: unknown): AepEvent | null {
  return fromCloudEventDetailed(ce).event;
}

function extensionProblem(name: string, value: unknown): { rule: BridgeRule; message: string } | null {
  if (!EXTENSION_NAME.test(name)) {
    return {
      rule: 'bridge.ce.extension.name',
      message: `CE attribute "${name}" was dropped: AEP extension names must match [a-z0-9]{1,20} (AEP-0001 §5.4); rename it at the producer to carry it`,
    };
  }
  if (CORE.has(name) || MAPPED_BY_TABLE.has(name) || name === 'data') {
    return {
      rule: 'bridge.ce.extension.collision',
      message: `CE attribute "${name}" was dropped: it collides with the AEP core attribute of that name (AEP-0001 §5.4); the core value travels in its own mapped CE attribute`,
    };
  }
  if (!(typeof value === 'string' || typeof value === 'boolean' || Number.isInteger(value))) {
    return {
      rule: 'bridge.ce.extension.value',
      message: `CE attribute "${name}" was dropped: AEP extension values must be a string, integer or boolean (AEP-0001 §5.4), got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`,
    };
  }
  return null;
}
