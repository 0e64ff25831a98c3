import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { describeWhenPresent } from '../test-utils/suites.js';
import { CAPTURE_ANNOTATIONS, STARRED_FIELDS, annotationsOf, downlevel, loadCaptureAnnotations, projectSchemaTypesDir, type CaptureAnnotations } from './capture.js';
import type { AepEvent, CaptureLevel } from './event.js';
import { standardPath } from '../test-utils/standard.js';
import { skipped, WHY } from '../test-utils/skip.js';

interface Case { name: string; ceiling: CaptureLevel; event: AepEvent; expect_capture: CaptureLevel | null; expect_data: unknown }

const standardTypes = standardPath('schemas', 'types');
const standardCases = standardPath('conformance', 'fixtures', 'downlevel', 'cases.json');
const oursDir = projectSchemaTypesDir();
const ourCases = fileURLToPath(new URL('../../conformance/fixtures/downlevel/cases.json', import.meta.url));

function runCases(file: string, annotations: () => CaptureAnnotations): void {
  const { cases } = JSON.parse(readFileSync(file, 'utf8')) as { cases: Case[] };
  for (const c of cases) {
    it(c.name, () => {
      const before = JSON.stringify(c.event);
      const out = downlevel(c.event, c.ceiling, annotations());
      expect(JSON.stringify(c.event)).toBe(before); // never mutates
      expect(out.capture ?? null).toBe(c.expect_capture);
      expect(out.data ?? null).toEqual(c.expect_data);
      const { data: _d, capture: _c, ...envelopeOut } = out;
      const { data: _e, capture: _f, ...envelopeIn } = c.event;
      expect(envelopeOut).toEqual(envelopeIn); // the envelope is never touched
    });
  }
}

describe('project downlevel corpus', () => {
  it('has enough cases, each naming a rule', () => {
    const { cases } = JSON.parse(readFileSync(ourCases, 'utf8')) as { cases: Array<{ rule?: string }> };
    expect(cases.length).toBeGreaterThanOrEqual(18);
    for (const c of cases) expect(c.rule).toMatch(/^AEP-000\d §/);
  });
  describe.skipIf(!existsSync(oursDir))(`against our schemas${skipped(!existsSync(oursDir), WHY.schemas)}`, () => runCases(ourCases, () => CAPTURE_ANNOTATIONS));
  describeWhenPresent(standardTypes, "against the standard's schemas", () => runCases(ourCases, () => loadCaptureAnnotations(standardTypes)));
});

describeWhenPresent([standardCases, standardTypes], 'standard downlevel corpus', () => {
  describe("with the standard's schemas", () => runCases(standardCases, () => loadCaptureAnnotations(standardTypes)));
  describe.skipIf(!existsSync(oursDir))(`with our schemas${skipped(!existsSync(oursDir), WHY.schemas)}`, () => runCases(standardCases, () => CAPTURE_ANNOTATIONS));
});

const base: AepEvent = { aep: '0.1', id: 'e1', type: 'demo.thing', time: '2026-11-30T00:00:00Z', source: 's', agent: 'a', session: 'x' };
const ann: CaptureAnnotations = {
  'demo.thing': { secret: 'full', note: 'redacted', 'list[]': 'full', 'rows[].body': 'redacted', 'gen_ai.x': 'redacted' },
};

describe('downlevel rules', () => {
  it('prunes by path, array items and dotted property names', () => {
    const e = { ...base, capture: 'full' as const, data: { secret: 1, note: 'n', keep: { a: 1 }, list: [1, 2], rows: [{ body: 'b', n: 1 }], 'gen_ai.x': 'y' } };
    // `keep` is named by no annotation: below redacted its structure drops (rule 7, fail closed).
    expect(downlevel(e, 'metadata', ann).data).toEqual({ list: [], rows: [{ n: 1 }] });
    expect(downlevel({ ...e, capture: 'redacted' }, 'metadata', ann).data).toEqual({ list: [], rows: [{ n: 1 }] });
    expect(downlevel(e, 'redacted', { 'demo.thing': { ...ann['demo.thing'], keep: 'metadata' } }).data).toEqual({ keep: { a: 1 }, list: [], rows: [{ n: 1 }] });
  });
  it('a full source at a full ceiling is untouched; a redacted ceiling gives metadata', () => {
    const e = { ...base, capture: 'full' as const, data: { secret: 1 } };
    expect(downlevel(e, 'full', ann)).toEqual(e);
    expect(downlevel(e, 'redacted', ann).capture).toBe('metadata');
  });
  it('returns a deep copy even when untouched', () => {
    const e = { ...base, capture: 'metadata' as const, data: { keep: { a: 1 } } };
    const out = downlevel(e, 'full', ann);
    expect(out.data).toEqual(e.data);
    expect(out.data).not.toBe(e.data);
    expect((out.data as { keep: object }).keep).not.toBe(e.data.keep);
  });
  it('treats an unknown source capture as full and rejects an unknown ceiling', () => {
    const e = { ...base, capture: 'weird' as CaptureLevel, data: { secret: 1, keep: 2 } };
    expect(downlevel(e, 'redacted', ann)).toMatchObject({ capture: 'metadata', data: { keep: 2 } });
    expect(() => downlevel(e, 'most' as CaptureLevel, ann)).toThrow(RangeError);
  });
  it('drops non-object data and a non-object answer.values', () => {
    expect(downlevel({ ...base, capture: 'full', data: 'x' as unknown as Record<string, unknown> }, 'metadata', ann).data).toBeUndefined();
    const answered = { ...base, type: 'attention.answered', capture: 'redacted' as const, data: { answer: { values: 'free text' } } };
    expect(downlevel(answered, 'metadata', { 'attention.answered': { answer: 'metadata', 'answer.values': 'metadata' } }).data).toEqual({ answer: {} });
    expect(downlevel(answered, 'metadata', { 'attention.answered': {} }).data).toEqual({});
  });
  it('labels without a usable id fall back to the 1-based index; kind defaults', () => {
    const req = { ...base, type: 'attention.requested', capture: 'redacted' as const, subject: '', data: { prompt: 'p', options: [{ label: 'A' }, 'odd', { id: 7, label: 'B' }] } };
    const annotated: CaptureAnnotations = { 'attention.requested': { prompt: 'metadata', options: 'metadata', 'options[]': 'metadata', 'options[].id': 'metadata', 'options[].label': 'metadata' } };
    // 'odd' is not the object the annotations describe for an option: dropped (rule 7).
    expect(downlevel(req, 'metadata', annotated).data).toEqual({ prompt: 'a requests attention', options: [{ label: '1' }, { id: 7, label: '7' }] });
  });
  it('does not consult inherited properties of the annotation map', () => {
    const e = { ...base, type: 'toString', capture: 'full' as const, data: { a: 1 } };
    expect(downlevel(e, 'metadata', {}).data).toBeUndefined();
  });
});

describe('annotations', () => {
  it('walks properties, items, combinators, conditionals and local refs, keeping the higher level', () => {
    const schema = {
      $defs: { doc: { type: 'object', properties: { body: { 'x-aep-capture': 'full' } } } },
      properties: {
        a: { 'x-aep-capture': 'redacted', anyOf: [{ properties: { b: { 'x-aep-capture': 'full' } } }] },
        docs: { type: 'array', items: { $ref: '#/$defs/doc', 'x-aep-capture': 'metadata' } },
        t: { prefixItems: [{ 'x-aep-capture': 'redacted' }] },
        z: { 'x-aep-capture': 'bogus' },
      },
      if: { properties: { a: { 'x-aep-capture': 'full' } } },
      then: { $ref: 'other.json' },
    };
    expect(annotationsOf(schema)).toEqual({ a: 'full', 'a.b': 'full', 'docs[]': 'metadata', 'docs[].body': 'full', 't[]': 'redacted' });
  });
  it('loads a folder and names broken files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'aep-cap-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'x.y.schema.json'), JSON.stringify({ properties: { t: { 'x-aep-capture': 'redacted' } } }));
    writeFileSync(join(dir, 'notes.txt'), 'ignored');
    expect(loadCaptureAnnotations(dir)).toEqual({ 'x.y': { t: 'redacted' } });
    writeFileSync(join(dir, 'bad.schema.json'), '{');
    expect(() => loadCaptureAnnotations(dir)).toThrow(/bad\.schema\.json is not valid JSON/);
    expect(() => loadCaptureAnnotations(join(dir, 'missing'))).toThrow(/does not exist/);
  });
  it.skipIf(!existsSync(oursDir))(`CAPTURE_ANNOTATIONS is our schema folder, lazily${skipped(!existsSync(oursDir), WHY.schemas)}`, () => {
    const direct = loadCaptureAnnotations(oursDir);
    expect(Object.keys(CAPTURE_ANNOTATIONS).sort()).toEqual(Object.keys(direct).sort());
    expect('tool.completed' in CAPTURE_ANNOTATIONS).toBe(true);
    expect(CAPTURE_ANNOTATIONS['tool.completed']).toEqual(direct['tool.completed']);
    expect({ ...CAPTURE_ANNOTATIONS }['tool.completed']).toEqual(direct['tool.completed']);
  });
});

describe('the project corpus catches broken down-levelers', () => {
  const { cases } = JSON.parse(readFileSync(ourCases, 'utf8')) as { cases: Case[] };
  const std = existsSync(oursDir) ? CAPTURE_ANNOTATIONS : existsSync(standardTypes) ? loadCaptureAnnotations(standardTypes) : undefined;
  const failures = (impl: (e: AepEvent, c: CaptureLevel) => AepEvent): number =>
    cases.filter((c) => {
      const out = impl(structuredClone(c.event), c.ceiling);
      return (out.capture ?? null) !== c.expect_capture || JSON.stringify(out.data ?? null) !== JSON.stringify(c.expect_data);
    }).length;
  it.skipIf(!std)(`rejects minting redacted, skipping the starred degrade, and passing vendor data through${skipped(!std, WHY.schemas)}`, () => {
    const ann = std!;
    const order: CaptureLevel[] = ['none', 'metadata', 'redacted', 'full'];
    const mints = (e: AepEvent, c: CaptureLevel) => {
      const out = downlevel(e, c, ann);
      const min = order[Math.min(order.indexOf(e.capture ?? 'metadata'), order.indexOf(c))]!;
      return { ...out, capture: min };
    };
    const keepsPrompt = (e: AepEvent, c: CaptureLevel) => {
      const out = downlevel(e, c, ann);
      if (out.data && e.data && 'prompt' in e.data) out.data.prompt = e.data.prompt;
      return out;
    };
    const vendorLeak = (e: AepEvent, c: CaptureLevel) => (e.type.startsWith('x.') ? { ...e, capture: c } : downlevel(e, c, ann));
    expect(failures((e, c) => downlevel(e, c, ann))).toBe(0);
    expect(failures(mints)).toBeGreaterThan(0);
    expect(failures(keepsPrompt)).toBeGreaterThan(0);
    expect(failures(vendorLeak)).toBeGreaterThan(0);
    expect(failures((e) => e)).toBeGreaterThan(10);
  });
});

describe.skipIf(!existsSync(oursDir))(`STARRED_FIELDS${skipped(!existsSync(oursDir), WHY.schemas)}`, () => {
  it('equals the paths our schemas mark with x-aep-capture-exception', () => {
    const marked: Record<string, string[]> = {};
    const walk = (node: unknown, path: string, type: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const n = node as Record<string, unknown>;
      if (n['x-aep-capture-exception'] !== undefined) (marked[type] ??= []).push(path);
      for (const [k, v] of Object.entries((n.properties as Record<string, unknown>) ?? {})) walk(v, path === '' ? k : `${path}.${k}`, type);
      if (n.items) walk(n.items, `${path}[]`, type);
    };
    for (const file of readdirSync(oursDir).filter((f) => f.endsWith('.schema.json'))) {
      walk(JSON.parse(readFileSync(join(oursDir, file), 'utf8')), '', file.replace('.schema.json', ''));
    }
    expect(marked).toEqual(Object.fromEntries(Object.entries(STARRED_FIELDS).map(([t, p]) => [t, [...p]])));
  });
});
