/**
 * Hop down-leveling as its callers rely on it: whole outputs at the edges of each rule (the
 * nesting bound, what an unannotated member keeps at each level, which types degrade their
 * `[metadata*]` fields), the refusals word for word, the schema walk's pointer decoding and
 * branch merging, and the lazily loaded annotation map of our own schemas.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { CAPTURE_ANNOTATIONS, annotationsOf, downlevel, loadCaptureAnnotations, projectSchemaTypesDir, type CaptureAnnotations } from './capture.js';
import type { AepEvent, CaptureLevel } from './event.js';
import { skipped, WHY } from '../test-utils/skip.js';

const base: AepEvent = { aep: '0.1', id: 'e1', type: 'demo.thing', time: '2026-11-30T00:00:00Z', source: 's', agent: 'lumen', session: 'q' };
const ev = (capture: CaptureLevel, data: Record<string, unknown> | undefined, extra: Partial<AepEvent> = {}): AepEvent =>
  ({ ...base, capture, ...(data === undefined ? {} : { data }), ...extra });

/** `n` objects nested in each other through member `a`; the innermost is `{}`. */
function chain(n: number): Record<string, unknown> {
  let node: Record<string, unknown> = {};
  for (let i = 1; i < n; i++) node = { a: node };
  return node;
}

/** `n` arrays nested in each other; the innermost is `[]`. */
function arrays(n: number): unknown[] {
  let node: unknown[] = [];
  for (let i = 1; i < n; i++) node = [node];
  return node;
}

describe('the nesting bound: an event keeps 64 levels (data is level 2) and loses the 65th', () => {
  it('at a full ceiling, data holding 63 levels passes whole and a 64th is cut', () => {
    expect(downlevel(ev('full', chain(63)), 'full', {}).data).toEqual(chain(63));
    expect(downlevel(ev('full', chain(64)), 'full', {}).data).toEqual(chain(63));
  });

  it('a redacted source at a redacted ceiling, of a type without schema, is cut at the same edge', () => {
    const e = (data: Record<string, unknown>) => ev('redacted', data, { type: 'x.acme.thing' });
    expect(downlevel(e(chain(63)), 'redacted', {}).data).toEqual(chain(63));
    expect(downlevel(e(chain(64)), 'redacted', {}).data).toEqual(chain(63));
  });

  it('a chain of annotated objects keeps its container at level 64 and drops the one at 65', () => {
    const ann: CaptureAnnotations = { 'demo.thing': { [`${'a.'.repeat(63)}x`]: 'metadata' } };
    expect(downlevel(ev('full', chain(70)), 'metadata', ann).data).toEqual(chain(63));
    expect(downlevel(ev('metadata', chain(63)), 'metadata', ann).data).toEqual(chain(63));
  });

  it('a chain of annotated arrays keeps its array at level 64 and drops the one at 65', () => {
    const ann: CaptureAnnotations = { 'demo.thing': { [`l${'[]'.repeat(64)}`]: 'metadata' } };
    // `l` is level 3, so 62 nested arrays reach level 64.
    expect(downlevel(ev('full', { l: arrays(70) }), 'metadata', ann).data).toEqual({ l: arrays(62) });
    expect(downlevel(ev('full', { l: arrays(62) }), 'metadata', ann).data).toEqual({ l: arrays(62) });
  });

  it('an unannotated member kept at a redacted level is copied down to level 64 only', () => {
    const ann: CaptureAnnotations = { 'demo.thing': { secret: 'full' } };
    // `deep` is level 3: 62 objects reach level 64.
    expect(downlevel(ev('redacted', { deep: chain(62) }), 'redacted', ann).data).toEqual({ deep: chain(62) });
    expect(downlevel(ev('redacted', { deep: chain(63), secret: 's' }), 'redacted', ann).data).toEqual({ deep: chain(62) });
  });
});

describe('what a member no annotation names keeps', () => {
  const ann: CaptureAnnotations = { 'demo.thing': { secret: 'full', 'tags[]': 'metadata' } };
  const data = { n: 1.5, b: false, z: null, s: 'prose', o: { a: 1 }, l: [1], tags: ['t1', 't2'], secret: 'k' };

  it('below redacted: numbers, booleans and null only (annotated array items stay)', () => {
    expect(downlevel(ev('metadata', data), 'metadata', ann).data).toEqual({ n: 1.5, b: false, z: null, tags: ['t1', 't2'] });
    expect(downlevel(ev('full', data), 'metadata', ann).data).toEqual({ n: 1.5, b: false, z: null, tags: ['t1', 't2'] });
  });

  it('at redacted (a redacted source at a redacted ceiling): everything but what ranks above', () => {
    expect(downlevel(ev('redacted', data), 'redacted', ann).data).toEqual({ n: 1.5, b: false, z: null, s: 'prose', o: { a: 1 }, l: [1], tags: ['t1', 't2'] });
  });

  it('a member whose value is undefined is left out, not copied as undefined', () => {
    const out = downlevel(ev('redacted', { u: undefined, k: 'v' }), 'redacted', ann);
    expect(Object.keys(out.data!)).toEqual(['k']);
  });
});

describe('the declared level and the ceiling', () => {
  it('a ceiling that is not a level is refused, naming it and the levels', () => {
    expect(() => downlevel(ev('full', {}), 'most' as CaptureLevel, {})).toThrow(new RangeError('downlevel: ceiling "most" is not one of none, metadata, redacted, full'));
  });

  it('an event without data stays without a data member at a full ceiling', () => {
    const e = ev('full', undefined);
    const out = downlevel(e, 'full', {});
    expect(Object.keys(out)).toEqual(Object.keys(e));
    expect(out).toEqual(e);
    expect(out).not.toBe(e);
  });

  it('an unrecognized declared level counts as full, whole output at each ceiling below', () => {
    const ann: CaptureAnnotations = { 'demo.thing': { note: 'redacted', secret: 'full' } };
    const e = ev('weird' as CaptureLevel, { note: 'n', secret: 's', k: 2 });
    const { data: _d, capture: _c, ...envelope } = e;
    expect(downlevel(e, 'redacted', ann)).toEqual({ ...envelope, capture: 'metadata', data: { k: 2 } });
    expect(downlevel(e, 'metadata', ann)).toEqual({ ...envelope, capture: 'metadata', data: { k: 2 } });
    expect(downlevel(e, 'none', ann)).toEqual({ ...envelope, capture: 'none' });
  });

  it('a metadata source at a redacted ceiling is not lowered: its prompt stays as written', () => {
    const ann: CaptureAnnotations = { 'attention.requested': { prompt: 'metadata' } };
    const e = ev('metadata', { prompt: 'Deploy now?' }, { type: 'attention.requested' });
    expect(downlevel(e, 'redacted', ann)).toEqual(e);
  });
});

describe('the [metadata*] degrade applies to its own types only', () => {
  it('another type keeps its prompt, labels and answer values when lowered', () => {
    const ann: CaptureAnnotations = {
      'demo.thing': { prompt: 'metadata', 'options[]': 'metadata', 'options[].id': 'metadata', 'options[].label': 'metadata', answer: 'metadata', 'answer.values': 'metadata' },
    };
    const data = { prompt: 'Say yes?', options: [{ id: 'y', label: 'Yes' }], answer: { values: { why: 'text', n: 1 } } };
    expect(downlevel(ev('full', data), 'metadata', ann).data).toEqual(data);
  });

  it('attention.requested without a prompt gets none; a kind that is not a string reads "attention"', () => {
    const ann: CaptureAnnotations = { 'attention.requested': { kind: 'metadata', prompt: 'metadata' } };
    const e = (data: Record<string, unknown>) => ev('full', data, { type: 'attention.requested', subject: 'req-1' });
    const none = downlevel(e({ kind: 'approval' }), 'metadata', ann);
    expect(none.data).toEqual({ kind: 'approval' });
    expect(Object.keys(none.data!)).toEqual(['kind']);
    expect(downlevel(e({ kind: 5, prompt: 'free text' }), 'metadata', ann).data).toEqual({ kind: 5, prompt: 'lumen requests attention: req-1' });
  });

  it('answer values keep booleans and finite numbers only, on both answer types', () => {
    const values = { a: true, b: -2.5, c: 'text', d: Infinity, e: NaN, f: null, g: { x: 1 }, h: -Infinity };
    for (const type of ['attention.answered', 'control.attention.respond']) {
      const ann: CaptureAnnotations = { [type]: { answer: 'metadata', 'answer.values': 'metadata' } };
      expect(downlevel(ev('redacted', { answer: { values } }, { type }), 'metadata', ann).data).toEqual({ answer: { values: { a: true, b: -2.5 } } });
    }
  });

  it('fields without choices keep their shape and get their ids as labels', () => {
    const ann: CaptureAnnotations = { 'attention.requested': { 'fields[]': 'metadata', 'fields[].id': 'metadata', 'fields[].label': 'metadata' } };
    const e = ev('full', { fields: [{ id: 'f1', label: 'Your name' }, { label: 'Age' }] }, { type: 'attention.requested' });
    expect(downlevel(e, 'metadata', ann).data).toEqual({ fields: [{ id: 'f1', label: 'f1' }, { label: '2' }] });
  });
});

describe('reading x-aep-capture from a schema', () => {
  it('when branches disagree, the higher level wins whichever comes first', () => {
    const at = (level: string) => ({ properties: { x: { 'x-aep-capture': level } } });
    for (const key of ['allOf', 'anyOf', 'oneOf']) {
      expect(annotationsOf({ [key]: [at('metadata'), at('full')] })).toEqual({ x: 'full' });
      expect(annotationsOf({ [key]: [at('full'), at('redacted')] })).toEqual({ x: 'full' });
    }
  });

  it('decodes ~1 and ~0 in a local $ref pointer', () => {
    const body = (level: string) => ({ properties: { body: { 'x-aep-capture': level } } });
    const schema = {
      $defs: { 'a/b': body('full'), 'c~d': body('redacted'), '~1': body('full') },
      properties: { p: { $ref: '#/$defs/a~1b' }, q: { $ref: '#/$defs/c~0d' }, r: { $ref: '#/$defs/~01' } },
    };
    expect(annotationsOf(schema)).toEqual({ 'p.body': 'full', 'q.body': 'redacted', 'r.body': 'full' });
  });

  it('an external $ref is not followed, even when its path looks like a local one', () => {
    const schema = { $defs: { doc: { properties: { body: { 'x-aep-capture': 'full' } } } }, properties: { d: { $ref: './$defs/doc' } } };
    expect(annotationsOf(schema)).toEqual({});
  });

  it('a property named __proto__ keeps its annotation as an own member', () => {
    const got = annotationsOf(JSON.parse('{"properties":{"__proto__":{"x-aep-capture":"full"},"constructor":{"x-aep-capture":"redacted"}}}'));
    expect(Object.entries(got)).toEqual([['__proto__', 'full'], ['constructor', 'redacted']]);
    const ann: CaptureAnnotations = { 'demo.thing': got };
    const data = JSON.parse('{"__proto__":"secret","constructor":"c","k":1}') as Record<string, unknown>;
    expect(Object.entries(downlevel(ev('redacted', data), 'redacted', ann).data!)).toEqual([['constructor', 'c'], ['k', 1]]);
  });

  it('a folder is read in code-unit order of its file names, whatever order the file system lists', () => {
    const dir = mkdtempSync(join(tmpdir(), 'aep-cap-mut-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    // UTF-8 byte order puts U+FF01 first; JavaScript's string order puts U+1F600 first.
    for (const name of ['\uFF01', '\u{1F600}', '__proto__']) writeFileSync(join(dir, `${name}.schema.json`), '{}');
    expect(Object.keys(loadCaptureAnnotations(dir))).toEqual(['__proto__', '\u{1F600}', '\uFF01']);
  });
});

describe.skipIf(!existsSync(projectSchemaTypesDir()))(`CAPTURE_ANNOTATIONS (our schemas)${skipped(!existsSync(projectSchemaTypesDir()), WHY.schemas)}`, () => {
  it('answers `in` for our types only: not an unknown type, an inherited name or a symbol', () => {
    expect('tool.completed' in CAPTURE_ANNOTATIONS).toBe(true);
    expect('no.such.type' in CAPTURE_ANNOTATIONS).toBe(false);
    expect('toString' in CAPTURE_ANNOTATIONS).toBe(false);
    expect(Symbol.iterator in CAPTURE_ANNOTATIONS).toBe(false);
    expect(CAPTURE_ANNOTATIONS.toString).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(CAPTURE_ANNOTATIONS, 'constructor')).toBeUndefined();
  });

  it('lists each type as a read-only enumerable member', () => {
    const direct = loadCaptureAnnotations(projectSchemaTypesDir());
    expect(Object.getOwnPropertyDescriptor(CAPTURE_ANNOTATIONS, 'tool.completed')).toEqual({ value: direct['tool.completed'], enumerable: true, configurable: true, writable: false });
  });

  it('an event whose type is an inherited name has no schema: its data goes below full', () => {
    for (const type of ['constructor', 'toString', '__proto__']) {
      expect(downlevel(ev('full', { n: 1, s: 'x' }, { type }), 'metadata')).not.toHaveProperty('data');
    }
  });
});

describe('finding the project folder', () => {
  it('with no package.json above the module, says so instead of walking forever', async () => {
    let asked = 0;
    vi.resetModules();
    vi.doMock('node:fs', async (importOriginal) => {
      const fs = await importOriginal<typeof import('node:fs')>();
      const existsSync = (p: string): boolean => {
        if (!p.endsWith('package.json')) return fs.existsSync(p);
        if (++asked > 500) throw new Error('walked past the root');
        return false;
      };
      return { ...fs, existsSync, default: { ...fs, existsSync } };
    });
    try {
      const fresh = await import('./capture.js');
      expect(() => fresh.projectSchemaTypesDir()).toThrow(new Error('capture annotations: no package.json above this module; cannot locate spec/schemas/types'));
      expect(asked).toBeGreaterThan(1);
    } finally {
      vi.doUnmock('node:fs');
      vi.resetModules();
    }
  });
});
