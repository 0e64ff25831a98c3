import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateEvent } from './envelope.js';
import { gateFormValues, validateFormValues } from './forms.js';
import type { CaptureLevel } from './event.js';
import { RULES, lookupRule } from './rules.js';
import { parseJsonl, validateStream } from './stream.js';
import { standardPath } from '../test-utils/standard.js';
import { skipped, WHY } from '../test-utils/skip.js';

const ROOT = join(import.meta.dirname, '..', '..');
const OURS = join(ROOT, 'conformance', 'fixtures');
const STANDARD = standardPath('conformance', 'fixtures');

interface InvalidCase {
  name: string;
  rule: string;
  rule_id?: string;
  event?: unknown;
  events?: unknown[];
  jsonl?: string;
  pad_to_bytes?: number;
}
interface GatingCase {
  name: string;
  fields: unknown;
  values: unknown;
  ceiling: CaptureLevel;
  expect: unknown;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
/** Validate one invalid case the way its members say: raw JSONL, a stream, or a single Event. */
function validateCase(c: InvalidCase) {
  if (c.jsonl !== undefined) {
    const [first = '', ...rest] = c.jsonl.split('\n');
    const text = [first.padEnd(c.pad_to_bytes ?? 0, ' '), ...rest].join('\n');
    const { events, issues } = parseJsonl(text);
    return [...issues, ...validateStream(events)];
  }
  return c.events !== undefined ? validateStream(c.events) : validateEvent(c.event);
}

describe('the rule catalogue', () => {
  it('has unique ids, each with a section and a summary', () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of RULES) {
      expect(r.id).toMatch(/^[a-z_]+(\.[a-z_]+)+$/);
      expect(r.section).toMatch(/^AEP-000\d/);
      expect(r.summary.length).toBeGreaterThan(10);
    }
    expect(lookupRule('scope.seq.required')?.section).toBe('AEP-0001 §5.2');
    expect(lookupRule('no.such.rule')).toBeUndefined();
  });
});

describe('our invalid corpus', () => {
  const file = readJson<{ $comment: string; cases: InvalidCase[] }>(join(OURS, 'invalid', 'cases.json'));

  it('has at least 28 cases, each naming a spec rule and a catalogued rule id', () => {
    expect(file.cases.length).toBeGreaterThanOrEqual(28);
    for (const c of file.cases) {
      expect(c.rule, c.name).toMatch(/AEP-000\d/);
      expect(lookupRule(c.rule_id ?? ''), `${c.name}: rule_id ${c.rule_id}`).toBeDefined();
    }
  });

  it.each(file.cases.map((c) => [c.name, c] as const))('%s: produces its rule_id', (_name, c) => {
    const found = validateCase(c);
    expect(found.map((i) => i.rule)).toContain(c.rule_id);
  });

  it('covers every catalogued rule with at least one case', () => {
    const covered = new Set(file.cases.map((c) => c.rule_id));
    const missing = RULES.map((r) => r.id).filter((id) => !covered.has(id));
    expect(missing).toEqual([]);
  });
});

describe('every validator emits catalogued rule ids only', () => {
  const streams: unknown[][] = [];
  const file = readJson<{ cases: InvalidCase[] }>(join(OURS, 'invalid', 'cases.json'));
  for (const c of file.cases) if (c.jsonl === undefined) streams.push(c.events ?? [c.event]);
  if (existsSync(STANDARD)) {
    for (const c of readJson<{ cases: InvalidCase[] }>(join(STANDARD, 'invalid', 'cases.json')).cases) streams.push(c.events ?? [c.event]);
  }
  it('over the invalid corpora', () => {
    const unknown = streams.flatMap((s) => validateStream(s)).filter((i) => lookupRule(i.rule) === undefined);
    expect(unknown).toEqual([]);
  });
  it('over parse failures and form checks', () => {
    const parsed = parseJsonl('{\n\u0000\n' + 'x'.repeat(1024 * 1024 + 1)).issues;
    const forms = validateFormValues([{ id: 'a', type: 'number', min: 1, required: true }, { id: 'b', type: 'select', choices: [{ id: 'x' }] }], { a: 0, b: 'y', c: 1 });
    const all = [...parsed, ...forms, ...validateFormValues([], 'nope')];
    expect(all.length).toBeGreaterThanOrEqual(6);
    expect(all.filter((i) => lookupRule(i.rule) === undefined)).toEqual([]);
  });
});

describe('our golden stream', () => {
  const text = readFileSync(join(OURS, 'golden', 'golden.jsonl'), 'utf8');
  const { events, issues } = parseJsonl(text);

  it('parses and validates with zero issues', () => {
    expect(issues).toEqual([]);
    expect(validateStream(events)).toEqual([]);
  });

  it('has at least 64 events covering every severity, capture level and mandatory type', () => {
    expect(events.length).toBeGreaterThanOrEqual(64);
    const values = events.map((e) => e.value as Record<string, unknown>);
    const types = new Set(values.map((v) => v.type));
    for (const t of ['session.started', 'session.ended', 'run.started', 'run.finished', 'run.failed', 'run.cancelled', 'tool.requested', 'tool.completed', 'tool.failed', 'tool.denied', 'attention.requested', 'attention.answered', 'attention.resolved', 'attention.timeout', 'attention.routed', 'control.cancel', 'control.accepted', 'control.rejected']) {
      expect(types, t).toContain(t);
    }
    expect(new Set(values.map((v) => v.severity ?? 'info'))).toEqual(new Set(['debug', 'info', 'notice', 'warning', 'error', 'critical']));
    expect(new Set(values.map((v) => v.capture ?? 'metadata'))).toEqual(new Set(['none', 'metadata', 'redacted', 'full']));
    expect(values.some((v) => typeof v.traceparent === 'string')).toBe(true);
    expect(values.some((v) => String(v.type).startsWith('x.'))).toBe(true);
  });
});

describe('our capture-gating corpus', () => {
  const file = readJson<{ cases: GatingCase[] }>(join(OURS, 'capture-gating', 'cases.json'));
  it('has at least as many cases as the standard (6)', () => expect(file.cases.length).toBeGreaterThanOrEqual(6));
  it.each(file.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(gateFormValues(c.fields, c.values, c.ceiling, (t) => t)).toEqual(c.expect);
  });
});

describe.skipIf(!existsSync(STANDARD))(`the standard corpus (AEP_STANDARD_DIR, else ../shared beside the package)${skipped(!existsSync(STANDARD), WHY.standard)}`, () => {
  it('golden.jsonl validates with zero issues', () => {
    const { events, issues } = parseJsonl(readFileSync(join(STANDARD, 'golden', 'golden.jsonl')));
    expect(issues).toEqual([]);
    expect(events.length).toBeGreaterThan(0);
    expect(validateStream(events)).toEqual([]);
  });

  const cases = existsSync(STANDARD) ? readJson<{ cases: InvalidCase[] }>(join(STANDARD, 'invalid', 'cases.json')).cases : [];
  it.each(cases.map((c) => [c.name, c] as const))('invalid case fails: %s', (_name, c) => {
    expect(validateCase(c).length).toBeGreaterThan(0);
  });

  const gating = existsSync(STANDARD) ? readJson<{ cases: GatingCase[] }>(join(STANDARD, 'capture-gating', 'cases.json')).cases : [];
  it.each(gating.map((c) => [c.name, c] as const))('capture-gating case: %s', (_name, c) => {
    expect(gateFormValues(c.fields, c.values, c.ceiling)).toEqual(c.expect);
  });
});
