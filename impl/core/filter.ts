/**
 * The AEP-0003 §6 `attr-match` filter dialect: validation (fail closed) and matching.
 *
 * A filter is a JSON object; each member is a predicate on one filterable context attribute
 * or one legal extension attribute, and a filter matches when every member matches.
 */
import { CAPTURE_ORDER, CORE_ATTRIBUTES, SEVERITY_ORDER, isPlainObject } from './event.js';
import { childPath, issue, type Issue } from './issue.js';

const SECTION = 'AEP-0003 §6.1';

/** Every rule id `filterIssues` can emit, all under `AEP-0003 §6.1` (for the RULES registry). */
export const FILTER_RULES: readonly string[] = [
  'filter.object', 'filter.key', 'filter.empty-list', 'filter.predicate', 'filter.glob',
  'filter.type-pattern', 'filter.severity', 'filter.capture', 'filter.severity-cmp',
];

/** The core attributes a filter may name (AEP-0003 §6.2 rule 1). */
export const FILTERABLE_ATTRIBUTES: readonly string[] = [
  'id', 'type', 'subject', 'source', 'agent', 'session', 'run', 'step', 'epoch', 'cause', 'severity', 'capture',
];

/** Extension attribute names (AEP-0001 §5.4): `[a-z0-9]{1,20}`, not a core name. */
const EXTENSION_NAME = /^[a-z0-9]{1,20}$/;
/** A type pattern: a non-empty dotted prefix followed by `.*` (AEP-0003 §6.2 rule 3). */
const TYPE_PATTERN = /^[^*]+\.\*$/;
/** Defaults applied before matching (AEP-0003 §6.2 rule 5). */
const DEFAULTS: Readonly<Record<string, unknown>> = { severity: 'info', capture: 'metadata', epoch: 0 };

/**
 * Check a filter. Returns null when valid, otherwise the first problem as a message naming
 * the offending key. Call before subscribing; a non-null result is an `invalid-filter` refusal.
 */
export function validateFilter(filter: unknown): string | null {
  return filterIssues(filter)[0]?.message ?? null;
}

/** Every problem in a filter, as Issues with `filter.*` rule ids (empty when valid). */
export function filterIssues(filter: unknown): Issue[] {
  if (!isPlainObject(filter)) {
    return [issue('filter.object', SECTION, '$', `a filter must be a JSON object, got ${describe(filter)}; use {} to match every event`)];
  }
  const issues: Issue[] = [];
  for (const [key, predicate] of Object.entries(filter)) {
    const path = childPath('$', key);
    const keyProblem = checkKey(key);
    if (keyProblem) {
      issues.push(issue('filter.key', SECTION, path, keyProblem));
      continue;
    }
    issues.push(...predicateIssues(key, predicate, path));
  }
  return issues;
}

/**
 * Does `event` match `filter`? Call only with a filter `validateFilter` accepted: an invalid
 * filter matches nothing here (fail closed) rather than everything.
 */
export function attrMatch(filter: unknown, event: Readonly<Record<string, unknown>>): boolean {
  if (filterIssues(filter).length > 0) return false;
  return Object.entries(filter as Record<string, unknown>).every(([key, predicate]) => {
    // Own members only: an inherited `constructor` is not an attribute the event carries.
    const own = Object.hasOwn(event, key) ? event[key] : undefined;
    const value = own !== undefined ? own : Object.hasOwn(DEFAULTS, key) ? DEFAULTS[key] : undefined;
    if (value === undefined) return false;
    if (key === 'severity' && isPlainObject(predicate)) return severityInBand(predicate, value);
    const alternatives = Array.isArray(predicate) ? predicate : [predicate];
    return alternatives.some((p) => (key === 'type' && isTypePattern(p) ? typeMatches(p, value) : p === value));
  });
}

/**
 * Most terms one filter may hold: its members plus the entries of its lists (a severity
 * comparison counts its operators). A subscription whose filter is larger is refused
 * `limit-exceeded` before it is validated or compiled (AEP-0003 §6.5).
 */
export const MAX_FILTER_TERMS = 1024;

/** The terms of a filter as `MAX_FILTER_TERMS` counts them, stopping once past `MAX_FILTER_TERMS`. */
export function filterTerms(filter: unknown): number {
  if (!isPlainObject(filter)) return 0;
  let terms = 0;
  for (const key of Object.keys(filter)) {
    const predicate = filter[key];
    terms += Array.isArray(predicate) ? Math.max(predicate.length, 1) : isPlainObject(predicate) ? Math.max(Object.keys(predicate).length, 1) : 1;
    if (terms > MAX_FILTER_TERMS) break;
  }
  return terms;
}

/** A compiled filter: one event in, whether it matches. */
export type FilterMatch = (event: Readonly<Record<string, unknown>>) => boolean;

/**
 * Compile a filter once (at subscribe time) into a matcher with `attrMatch`'s semantics: exact
 * alternatives become one set lookup (one comparison for a single value), type patterns prefix
 * tests. A filter `validateFilter` rejects compiles to a matcher that matches nothing (fail
 * closed). The filter is copied: later changes to the object do not change the matcher.
 * Matching allocates nothing.
 */
export function compileFilter(filter: unknown): FilterMatch {
  if (filterIssues(filter).length > 0) return () => false;
  const tests: FilterMatch[] = Object.entries(filter as Record<string, unknown>).map(([key, predicate]) => compileMember(key, predicate));
  const match: FilterMatch = tests.length === 0 ? () => true : tests.length === 1 ? tests[0]! : (event) => {
    for (const test of tests) if (!test(event)) return false;
    return true;
  };
  keys.set(match, JSON.stringify(filter));
  return match;
}

/** The text of the filter each matcher `compileFilter` made was compiled from. */
const keys = new WeakMap<FilterMatch, string>();

/**
 * The filter a matcher was compiled from, as JSON text, when `compileFilter` made it (else
 * undefined): two matchers with the same key select the same events, so a fan-out may match once
 * for both. A filter `validateFilter` rejects has no key.
 */
export function filterKey(match: FilterMatch): string | undefined {
  return keys.get(match);
}

/** One member's predicate as a test: the event's own value (or the default) against it. */
function compileMember(key: string, predicate: unknown): FilterMatch {
  const fallback = Object.hasOwn(DEFAULTS, key) ? DEFAULTS[key] : undefined;
  const read = (event: Readonly<Record<string, unknown>>): unknown => {
    const own = Object.hasOwn(event, key) ? event[key] : undefined;
    return own !== undefined ? own : fallback;
  };
  if (key === 'severity' && isPlainObject(predicate)) {
    const band = { ...predicate };
    return (event) => {
      const value = read(event);
      return value !== undefined && severityInBand(band, value);
    };
  }
  const alternatives = Array.isArray(predicate) ? predicate : [predicate];
  const patterns = key === 'type' ? alternatives.filter(isTypePattern) : [];
  const exact = new Set(alternatives.filter((p) => !patterns.includes(p as string)));
  const prefixes = patterns.map((p) => p.slice(0, -1));
  if (prefixes.length === 0) {
    // Predicates are strings, integers or booleans: `===` is the set's SameValueZero on them.
    if (exact.size === 1) {
      const only = exact.values().next().value;
      return (event) => read(event) === only;
    }
    return (event) => {
      const value = read(event);
      return value !== undefined && exact.has(value);
    };
  }
  return (event) => {
    const value = read(event);
    if (value === undefined) return false;
    if (exact.has(value)) return true;
    if (typeof value !== 'string') return false;
    for (const prefix of prefixes) if (value.startsWith(prefix) && value.length > prefix.length) return true;
    return false;
  };
}

function checkKey(key: string): string | null {
  if (FILTERABLE_ATTRIBUTES.includes(key)) return null;
  if ((CORE_ATTRIBUTES as readonly string[]).includes(key) || key === 'data') {
    return `filter key "${key}" is not filterable: time, seq, aep, traceparent and data are never filter keys (AEP-0003 §6.2); remove it`;
  }
  if (!EXTENSION_NAME.test(key)) {
    return `filter key "${key}" is neither a filterable attribute nor a legal extension name ([a-z0-9]{1,20}); fix the spelling or remove it`;
  }
  return null;
}

function predicateIssues(key: string, predicate: unknown, path: string): Issue[] {
  if (key === 'severity' && isPlainObject(predicate)) return severityCmpIssues(predicate, path);
  if (Array.isArray(predicate)) {
    if (predicate.length === 0) {
      return [issue('filter.empty-list', SECTION, path, `filter key "${key}" has an empty list, which would match nothing; list at least one value or remove the key`)];
    }
    return predicate.flatMap((p, i) => scalarIssues(key, p, childPath(path, i)));
  }
  return scalarIssues(key, predicate, path);
}

function scalarIssues(key: string, value: unknown, path: string): Issue[] {
  const isScalar = typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isInteger(value));
  if (!isScalar) {
    return [issue('filter.predicate', SECTION, path, `filter key "${key}" has ${describe(value)}; a predicate is a string, integer or boolean, or a non-empty list of them`)];
  }
  if (typeof value !== 'string') {
    // severity and capture take level names only: a number or boolean there is an unknown level.
    if (key === 'severity') return [issue('filter.severity', SECTION, path, `severity ${describe(value)} is unknown; use one of ${SEVERITY_ORDER.join(', ')}`)];
    if (key === 'capture') return [issue('filter.capture', SECTION, path, `capture ${describe(value)} is unknown; use one of ${CAPTURE_ORDER.join(', ')}`)];
    return [];
  }
  if (value.includes('*')) {
    if (key !== 'type') {
      return [issue('filter.glob', SECTION, path, `filter key "${key}" has the pattern "${value}"; patterns are allowed only on "type", use exact values here`)];
    }
    if (!isTypePattern(value)) {
      return [issue('filter.type-pattern', SECTION, path, `type pattern "${value}" is malformed; write a prefix followed by ".*" (e.g. "attention.*"), and omit the key to match every type`)];
    }
  }
  if (key === 'severity' && !(SEVERITY_ORDER as readonly string[]).includes(value)) {
    return [issue('filter.severity', SECTION, path, `severity "${value}" is unknown; use one of ${SEVERITY_ORDER.join(', ')}`)];
  }
  if (key === 'capture' && !(CAPTURE_ORDER as readonly string[]).includes(value)) {
    return [issue('filter.capture', SECTION, path, `capture "${value}" is unknown; use one of ${CAPTURE_ORDER.join(', ')}`)];
  }
  return [];
}

function severityCmpIssues(cmp: Record<string, unknown>, path: string): Issue[] {
  const keys = Object.keys(cmp);
  if (keys.length === 0) {
    return [issue('filter.severity-cmp', SECTION, path, 'severity comparison is empty; give "gte", "lte" or both')];
  }
  return keys.flatMap((op) => {
    const opPath = childPath(path, op);
    if (op !== 'gte' && op !== 'lte') {
      return [issue('filter.severity-cmp', SECTION, opPath, `"${op}" is not a severity operator; use "gte" and/or "lte" (inclusive bounds)`)];
    }
    const level = cmp[op];
    if (typeof level !== 'string' || !(SEVERITY_ORDER as readonly string[]).includes(level)) {
      return [issue('filter.severity', SECTION, opPath, `severity bound ${describe(level)} is unknown; use one of ${SEVERITY_ORDER.join(', ')}`)];
    }
    return [];
  });
}

function isTypePattern(p: unknown): p is string {
  return typeof p === 'string' && TYPE_PATTERN.test(p);
}

function typeMatches(pattern: string, type: unknown): boolean {
  return typeof type === 'string' && type.startsWith(pattern.slice(0, -1)) && type.length > pattern.length - 1;
}

function severityInBand(cmp: Record<string, unknown>, value: unknown): boolean {
  const rank = SEVERITY_ORDER.indexOf(value as (typeof SEVERITY_ORDER)[number]);
  if (rank < 0) return false;
  const gte = cmp.gte === undefined ? 0 : SEVERITY_ORDER.indexOf(cmp.gte as (typeof SEVERITY_ORDER)[number]);
  const lte = cmp.lte === undefined ? SEVERITY_ORDER.length - 1 : SEVERITY_ORDER.indexOf(cmp.lte as (typeof SEVERITY_ORDER)[number]);
  return rank >= gte && rank <= lte;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'number' && !Number.isInteger(v)) return `the non-integer ${v}`;
  return `${typeof v} ${JSON.stringify(v)}`;
}
