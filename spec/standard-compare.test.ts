/**
 * Differential check against the published standard's machine-readable files, when a copy sits
 * at `../shared/aep-standard/schemas` (skipped otherwise: the project stands alone on a fresh clone).
 * Compared: the type set, status and scope; for every payload schema the property names, required
 * lists, enums, consts and `x-aep-capture` levels at every path; categories; severity, capture and
 * nack-reason sets. Every failure names the type, the JSON path and both values.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { payloadJsonSchema } from './json-schema.js';
import { CAPTURE_ORDER, CATEGORIES, NACK_REASONS, SEVERITY_OCSF, SEVERITY_ORDER, SEVERITY_OTLP, TYPES } from './registry.js';
import { standardPath } from '../impl/test-utils/standard.js';
import { skipped, WHY } from '../impl/test-utils/skip.js';

const dir = standardPath('schemas');
const read = (rel: string): any => JSON.parse(readFileSync(join(dir, rel), 'utf8'));

/**
 * Differences we keep on purpose, each because the standard's schema file disagrees with its own
 * spec prose and the prose wins. Key: `<type> <path> <aspect>`.
 */
const ALLOWED: Record<string, string> = {
  // AEP-0002 §5.2 `citation`: "`source` is REQUIRED, since a citation with no source is not a
  // citation". The standard's resource.citation.recorded schema leaves `required` off the item.
  'resource.citation.recorded $.citations[] required': 'prose makes citation.source REQUIRED',
};

type Node = Record<string, unknown> | undefined;
const sorted = (v: unknown) => (Array.isArray(v) ? [...v].map(String).sort() : v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Walk both schemas side by side and describe every difference as `path aspect: ours=… standard=…`. */
function diffSchema(ours: Node, theirs: Node, path: string, out: { key: string; text: string }[]): void {
  const o = ours ?? {};
  const t = theirs ?? {};
  const note = (aspect: string, a: unknown, b: unknown) => {
    if (!same(a, b)) out.push({ key: `${path} ${aspect}`, text: `${path} ${aspect}: ours=${JSON.stringify(a)} standard=${JSON.stringify(b)}` });
  };
  note('x-aep-capture', o['x-aep-capture'], t['x-aep-capture']);
  note('required', sorted(o.required ?? []), sorted(t.required ?? []));
  note('enum', sorted(o.enum), sorted(t.enum));
  note('const', o.const, t.const);
  note('then.required', sorted((o.then as Node)?.required), sorted((t.then as Node)?.required));
  const op = (o.properties ?? {}) as Record<string, Node>;
  const tp = (t.properties ?? {}) as Record<string, Node>;
  note('properties', Object.keys(op).sort(), Object.keys(tp).sort());
  for (const k of Object.keys(tp)) if (k in op) diffSchema(op[k], tp[k], `${path}.${k}`, out);
  if (o.items !== undefined || t.items !== undefined) diffSchema(o.items as Node, t.items as Node, `${path}[]`, out);
}

describe('diffSchema (self-test against deliberately different schemas)', () => {
  it('reports a changed capture level, required list, enum and property set, with path and both values', () => {
    const base = { type: 'object', required: ['a'], properties: { a: { enum: ['x', 'y'], 'x-aep-capture': 'metadata' }, b: { type: 'object', properties: { c: { 'x-aep-capture': 'redacted' } } } } };
    const broken = { type: 'object', required: [], properties: { a: { enum: ['x'], 'x-aep-capture': 'full' }, b: { type: 'object', properties: { c: { 'x-aep-capture': 'metadata' }, d: {} } } } };
    const found: { key: string; text: string }[] = [];
    diffSchema(broken, base, '$', found);
    expect(found.map((d) => d.text)).toEqual([
      '$ required: ours=[] standard=["a"]',
      '$.a x-aep-capture: ours="full" standard="metadata"',
      '$.a enum: ours=["x"] standard=["x","y"]',
      '$.b properties: ours=["c","d"] standard=["c"]',
      '$.b.c x-aep-capture: ours="metadata" standard="redacted"',
    ]);
    const none: { key: string; text: string }[] = [];
    diffSchema(base, base, '$', none);
    expect(none).toEqual([]);
  });
});

describe.skipIf(!existsSync(dir))(`our spec/ against the standard schemas (AEP_STANDARD_DIR, else ../shared/aep-standard beside the package)${skipped(!existsSync(dir), WHY.standard)}`, () => {
  const theirTypes: any[] = existsSync(dir) ? read('registry/types.json').types : [];

  it('registers the same types with the same status, scope and schema presence', () => {
    const ours = TYPES.map((t) => `${t.type} ${t.status} ${t.scope} payload=${t.payload}`).sort();
    const theirs = theirTypes.map((t) => `${t.type} ${t.status} ${t.scope} payload=${t.schema !== null}`).sort();
    expect(ours).toEqual(theirs);
  });

  it('has the same categories and scopes', () => {
    const theirs = read('registry/categories.json').categories.map((c: any) => `${c.name}:${c.scope}`);
    expect(CATEGORIES.map((c) => `${c.name}:${c.scope}`)).toEqual(theirs);
  });

  it('has the same severity order and bridge mappings, capture order and nack reasons', () => {
    const sev = read('registry/severity.json');
    expect(SEVERITY_ORDER).toEqual(sev.order);
    expect(SEVERITY_OTLP).toEqual(sev.otlp);
    expect(SEVERITY_OCSF).toEqual(sev.ocsf);
    expect(CAPTURE_ORDER).toEqual(read('registry/capture.json').order);
    expect(NACK_REASONS).toEqual(read('registry/nack-reasons.json').reasons);
  });

  it.each(theirTypes.filter((t) => t.schema !== null).map((t) => t.type as string))(
    '%s payload: same fields, required, enums and capture levels',
    (type) => {
      const found: { key: string; text: string }[] = [];
      diffSchema(payloadJsonSchema(type), read(`types/${type}.schema.json`), '$', found);
      const unexpected = found.filter((d) => !(`${type} ${d.key}` in ALLOWED)).map((d) => `${type} ${d.text}`);
      expect(unexpected, unexpected.join('\n')).toEqual([]);
    },
  );

  it('every allow-list entry still matches a real difference (no stale exemptions)', () => {
    const live = new Set<string>();
    for (const t of theirTypes.filter((x) => x.schema !== null)) {
      const found: { key: string; text: string }[] = [];
      diffSchema(payloadJsonSchema(t.type), read(`types/${t.type}.schema.json`), '$', found);
      for (const d of found) live.add(`${t.type} ${d.key}`);
    }
    expect(Object.keys(ALLOWED).filter((k) => !live.has(k))).toEqual([]);
  });
});
