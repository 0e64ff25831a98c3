/**
 * The envelope in one pass (issue 33): one walk over an Event's own members decides whether
 * `validateEnvelope` would report nothing, allocating nothing. It checks, member by member, what
 * the reference checks in envelope.ts check attribute by attribute (`checkAttributes`,
 * `checkExtensions`), then the required members, the type grammar and scope, and the depth verdict
 * (only `data` can nest: a clean member is a scalar). It never builds an issue: a `false` sends
 * the caller to the reference checks, which report every problem with its rule id, section, path
 * and message in their own order. So the fast path cannot change a finding, only skip the search
 * for one in a valid Event (`envelope-pass.test.ts` holds the two side by side). Pure.
 */
import { CAPTURE_ORDER, CORE_ATTRIBUTES, SEVERITY_ORDER } from './event.js';
import { ABSOLUTE_URI, CORE_TYPE, EXTENSION_NAME, VENDOR_COMMAND, VENDOR_TYPE, isDateTime, traceparentProblem } from './envelope-formats.js';
import { MAX_DEPTH, fitsDepth } from './json-shape.js';
import { COMMAND_TYPES, lookupCategory, lookupType } from '../../spec/registry.js';

const SEVERITIES: ReadonlySet<unknown> = new Set<unknown>(SEVERITY_ORDER);
const CAPTURES: ReadonlySet<unknown> = new Set<unknown>(CAPTURE_ORDER);
const COMMANDS: ReadonlySet<string> = new Set(COMMAND_TYPES);

// One bit per core member, in CORE_ATTRIBUTES order, then `data`.
const AEP = 1 << 0;
const ID = 1 << 1;
const TYPE = 1 << 2;
const SUBJECT = 1 << 3;
const TIME = 1 << 4;
const SOURCE = 1 << 5;
const AGENT = 1 << 6;
const SESSION = 1 << 7;
const RUN = 1 << 8;
const STEP = 1 << 9;
const SEQ = 1 << 10;
const EPOCH = 1 << 11;
const CAUSE = 1 << 12;
const TRACEPARENT = 1 << 13;
const SEVERITY = 1 << 14;
const CAPTURE = 1 << 15;
const DATA = 1 << 16;
const REQUIRED = AEP | ID | TYPE | TIME | SOURCE | AGENT;
const NOT_AGENT_SCOPED = SESSION | RUN | STEP | SEQ;
/** Each core member's bit and name. */
const CORE: readonly (readonly [number, string])[] = [...CORE_ATTRIBUTES, 'data'].map((name, i) => [1 << i, name] as const);

/**
 * Sources found absolute, so the pattern runs once per source rather than once per Event (a stream
 * carries a handful). Bounded: emptied when it reaches {@link SOURCES_KEPT}.
 */
const absoluteSources = new Set<string>();
const SOURCES_KEPT = 256;

function isAbsoluteSource(v: string): boolean {
  if (absoluteSources.has(v)) return true;
  if (!ABSOLUTE_URI.test(v)) return false;
  if (absoluteSources.size >= SOURCES_KEPT) absoluteSources.clear();
  absoluteSources.add(v);
  return true;
}

/** Whether Object.prototype has no enumerable member (something may have made one so): then for...in lists own names only. */
function enumeratesOwn(): boolean {
  for (const _ in Object.prototype) return false;
  return true;
}

const nonEmpty = (v: unknown): boolean => typeof v === 'string' && v.length > 0;

/** A JSON position (`seq`, `epoch`): an integer in 0..2^53-1. */
const position = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= Number.MAX_SAFE_INTEGER;

/**
 * Whether `validateEnvelope(value)` returns `[]`. `depthChecked`: the caller has the depth verdict
 * already (its scanner refused anything deeper than `MAX_DEPTH`), so `data` is not walked for it.
 * `false` means "not proven clean", never a finding of its own.
 */
export function isCleanEnvelope(value: unknown, depthChecked = false): boolean {
  // Plain JSON objects only (what JSON.parse makes): anything else takes the reference path.
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype || !enumeratesOwn()) return false;
  const ev = value as Record<string, unknown>;
  let seen = 0;
  for (const name in ev) {
    const bit = memberBit(name, ev[name], depthChecked);
    if (bit < 0) return false;
    seen |= bit;
  }
  if ((seen & REQUIRED) !== REQUIRED) return false;
  // A core member for...in did not list is absent, unless it is own but not enumerable (never so
  // in parsed JSON): the reference checks see those, so they decide.
  for (let i = 0; i < CORE.length; i++) if ((seen & CORE[i]![0]) === 0 && Object.hasOwn(ev, CORE[i]![1])) return false;
  const type = ev.type as string;
  return typeClean(type) && scopeClean(type, seen);
}

/**
 * One member checked as the reference checks check it: the member's bit (0 for an extension
 * attribute), or -1 when the reference would report something about it.
 */
function memberBit(name: string, v: unknown, depthChecked: boolean): number {
  switch (name) {
    case 'aep':
      return v !== '0.1' ? -1 : AEP;
    case 'id':
      return !nonEmpty(v) ? -1 : ID;
    case 'type':
      return typeof v !== 'string' ? -1 : TYPE;
    case 'time':
      return typeof v !== 'string' || !isDateTime(v) ? -1 : TIME;
    case 'source':
      return typeof v !== 'string' || v.length === 0 || !isAbsoluteSource(v) ? -1 : SOURCE;
    case 'agent':
      return !nonEmpty(v) ? -1 : AGENT;
    case 'session':
      return !nonEmpty(v) ? -1 : SESSION;
    case 'run':
      return !nonEmpty(v) ? -1 : RUN;
    case 'step':
      return !nonEmpty(v) ? -1 : STEP;
    case 'subject':
      return !nonEmpty(v) ? -1 : SUBJECT;
    case 'cause':
      return !nonEmpty(v) ? -1 : CAUSE;
    case 'seq':
      return !position(v) ? -1 : SEQ;
    case 'epoch':
      return !position(v) ? -1 : EPOCH;
    case 'traceparent':
      return typeof v !== 'string' || traceparentProblem(v) !== undefined ? -1 : TRACEPARENT;
    case 'severity':
      return !SEVERITIES.has(v) ? -1 : SEVERITY;
    case 'capture':
      return !CAPTURES.has(v) ? -1 : CAPTURE;
    case 'data':
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return -1;
      return !depthChecked && !fitsDepth(v, 2, MAX_DEPTH) ? -1 : DATA;
    default:
      // An extension attribute: a well-formed name and a scalar value (so nothing nested).
      if (!EXTENSION_NAME.test(name)) return -1;
      return typeof v !== 'string' && typeof v !== 'boolean' && !(typeof v === 'number' && Number.isInteger(v)) ? -1 : 0;
  }
}

/** `checkTypeGrammar` finds nothing: a registered type, a well-formed vendor type, or a well-formed type of a registered category. */
function typeClean(type: string): boolean {
  if (lookupType(type) !== undefined) return true;
  if (/[A-Z]/.test(type)) return false;
  if (type.startsWith('x.')) return VENDOR_TYPE.test(type);
  return CORE_TYPE.test(type) && lookupCategory(type.slice(0, type.indexOf('.'))) !== undefined;
}

/** `checkScope` finds nothing, from the members `seen`. */
function scopeClean(type: string, seen: number): boolean {
  if (type.startsWith('agent.')) return (seen & NOT_AGENT_SCOPED) === 0;
  if ((seen & SESSION) === 0) return false;
  const foreign = COMMANDS.has(type) || (type.startsWith('x.') && VENDOR_COMMAND.test(type)) || type === 'attention.routed';
  return foreign ? (seen & SEQ) === 0 : (seen & SEQ) !== 0;
}
