import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TYPES } from '../../spec/registry.js';
import { annotationsOf } from './capture.js';
import { validateEnvelope, validateEvent } from './envelope.js';
import { CAPTURE_ORDER, isPlainObject, type AepEvent } from './event.js';
import { compileGates, findOverCapture, gatesForType, isOverDeclared } from './honesty.js';
import { schemaForType } from './payload.js';
import { standardPath } from '../test-utils/standard.js';
import { skipped, WHY } from '../test-utils/skip.js';

/** The two issues `validateEvent` raises for over-declared capture: the reference for isOverDeclared. */
const OVER_DECLARED = new Set(['capture.field.level', 'capture.none.data']);
const byValidator = (event: unknown): boolean => validateEvent(event).some((i) => OVER_DECLARED.has(i.rule));

const base = { aep: '0.1', id: 'hon-1', time: '2026-11-30T05:10:00Z', source: 'aep://honesty-host/agent/probe', agent: 'probe' };

/** An envelope-valid event of `type` carrying `data`, whichever scope the type needs; undefined when none fits. */
function eventOf(type: string, data: Record<string, unknown> | undefined, capture: string | undefined): AepEvent | undefined {
  const extras = capture === undefined ? {} : { capture };
  const withData = data === undefined ? {} : { data };
  for (const scope of [{ session: 'hon-s', seq: 3 }, { session: 'hon-s' }, {}]) {
    const event = { ...base, type, ...scope, subject: 'hon-req', cause: 'hon-cmd', ...extras, ...withData };
    if (validateEnvelope(event).length === 0) return event as AepEvent;
  }
  return undefined;
}

/** A payload putting `value` at an annotation path (`a.b[].c`); dotted names come out nested, which is fine for a differential test. */
function dataAt(path: string, value: unknown): Record<string, unknown> {
  const build = (segments: readonly string[]): unknown => {
    if (segments.length === 0) return value;
    const [head, ...rest] = segments as [string, ...string[]];
    if (head.endsWith('[]')) return { [head.slice(0, -2)]: [build(rest)] };
    return { [head]: build(rest) };
  };
  // Array items of array items (`a[][]`) are rare; split keeps them as separate `[]` segments.
  const segments = path.split('.').flatMap((s) => (s.endsWith('[][]') ? [s.slice(0, -2), '[]'] : [s]));
  const out = build(segments);
  return isPlainObject(out) ? out : { value: out };
}

function* probes(): Generator<AepEvent> {
  for (const entry of TYPES) {
    const annotations = entry.payload ? annotationsOf(schemaForType(entry.type)) : {};
    const payloads: Array<Record<string, unknown> | undefined> = [undefined, {}, { unannotated: 'x' }];
    for (const path of Object.keys(annotations)) {
      payloads.push(dataAt(path, 'text'), dataAt(path, { nested: 'x' }), dataAt(path, []), dataAt(path, [{ nested: 'x' }]));
    }
    for (const data of payloads) {
      for (const capture of [undefined, ...CAPTURE_ORDER]) {
        const event = eventOf(entry.type, data, capture);
        if (event) yield event;
      }
    }
  }
}

/** An object whose keys must never be listed: proves a payload was not walked. */
const untouchable = (): Record<string, unknown> =>
  new Proxy({}, { ownKeys: () => { throw new Error('walked a payload the fast path should skip'); } });

describe('findOverCapture', () => {
  const gates = compileGates({ notes: 'metadata', 'notes[]': 'full', 'box.inner': 'redacted', 'odd key': 'full', 'docs[].body': 'full' });

  it('compiles the levels, the paths to descend and the highest rank', () => {
    expect([...gates.levels]).toEqual([['notes', 'metadata'], ['notes[]', 'full'], ['box.inner', 'redacted'], ['odd key', 'full'], ['docs[].body', 'full']]);
    expect([...gates.parents].sort()).toEqual(['box', 'docs', 'docs[]', 'notes']);
    expect(gates.top).toBe(3);
    expect(compileGates({}).top).toBe(1); // nothing annotated: everything is metadata
  });

  it('reports every finding in document order, with JSON paths and the level each needs', () => {
    const data = { 'odd key': 1, box: { inner: 'x', other: 'y' }, notes: ['a', 'b'], docs: [{ id: 'd1' }, { id: 'd2', body: 'text' }] };
    expect(findOverCapture(data, gates, 'metadata')).toEqual([
      { path: '$.data["odd key"]', level: 'full' },
      { path: '$.data.box.inner', level: 'redacted' },
      { path: '$.data.notes[0]', level: 'full', array: '$.data.notes' },
      { path: '$.data.notes[1]', level: 'full', array: '$.data.notes' },
      { path: '$.data.docs[1].body', level: 'full' },
    ]);
    expect(findOverCapture(data, gates, 'redacted').map((f) => f.path)).toEqual(['$.data["odd key"]', '$.data.notes[0]', '$.data.notes[1]', '$.data.docs[1].body']);
  });

  it('stops at the first finding when asked', () => {
    const data = { box: { inner: 'x' }, notes: ['a', 'b'] };
    expect(findOverCapture(data, gates, 'metadata', { first: true })).toEqual([{ path: '$.data.box.inner', level: 'redacted' }]);
    expect(findOverCapture({ notes: ['a', 'b'] }, gates, 'metadata', { first: true })).toEqual([{ path: '$.data.notes[0]', level: 'full', array: '$.data.notes' }]);
  });

  it('does not descend into a finding, an empty array, or a member whose shape does not match the annotations', () => {
    expect(findOverCapture({ notes: [] }, gates, 'metadata')).toEqual([]);
    expect(findOverCapture({ box: { other: 1 } }, gates, 'metadata')).toEqual([]);
    expect(findOverCapture({ box: 'flat', other: { inner: 1 }, docs: ['flat', [{ body: 1 }]] }, gates, 'metadata')).toEqual([]);
    const nested = compileGates({ a: 'full', 'a.b': 'full' });
    expect(findOverCapture({ a: { b: 1 } }, nested, 'metadata')).toEqual([{ path: '$.data.a', level: 'full' }]);
  });

  it('matches a dotted property name verbatim, as the annotations spell it', () => {
    const dotted = compileGates({ 'gen_ai.evaluation.name': 'full' });
    expect(findOverCapture({ 'gen_ai.evaluation.name': 'x' }, dotted, 'redacted')).toEqual([{ path: '$.data["gen_ai.evaluation.name"]', level: 'full' }]);
  });

  it('does not walk a payload whose type has nothing above the declared level', () => {
    expect(findOverCapture(untouchable(), gates, 'full')).toEqual([]);
    expect(findOverCapture(untouchable(), compileGates({ a: 'redacted' }), 'redacted')).toEqual([]);
    expect(() => findOverCapture(untouchable(), gates, 'redacted')).toThrow(/should skip/); // the probe itself can fail
  });

  it('judges neither none nor an unknown level (those are other findings)', () => {
    expect(findOverCapture({ 'odd key': 1 }, gates, 'none')).toEqual([]);
    expect(findOverCapture({ 'odd key': 1 }, gates, 'bogus' as never)).toEqual([]);
  });

  it('compiles a type once, from its payload schema; types without one have no annotations', () => {
    const gated = TYPES.find((t) => t.payload && Object.keys(annotationsOf(schemaForType(t.type))).length > 0)!;
    expect(gatesForType(gated.type)).toBe(gatesForType(gated.type));
    expect(gatesForType(gated.type).top).toBeGreaterThan(1);
    expect(gatesForType('x.acme.progress.note').levels.size).toBe(0);
    expect(gatesForType('progress.unheard_of').levels.size).toBe(0);
  });
});

describe('validateEvent reports the findings as capture.field.level', () => {
  it('with the finding paths, and a message naming the level and the declared one', () => {
    const event = eventOf('progress.status', { phase: 'x', message: 'text' }, undefined)!;
    const found = findOverCapture(event.data!, gatesForType('progress.status'), 'metadata');
    expect(found.length).toBeGreaterThan(0);
    const issues = validateEvent(event).filter((i) => i.rule === 'capture.field.level');
    expect(issues.map((i) => i.path)).toEqual(found.map((f) => f.path));
    expect(issues[0]!.message).toBe(`\`${found[0]!.path}\` may appear only at capture "${found[0]!.level}" or above, but this Event declares "metadata"; drop the field or declare the capture level it needs`);
  });
});

describe('isOverDeclared', () => {
  it('agrees with validateEvent on every annotated path of every registered type, at every capture level', () => {
    let over = 0;
    let honest = 0;
    for (const event of probes()) {
      const want = byValidator(event);
      expect({ type: event.type, capture: event.capture, data: event.data, over: isOverDeclared(event) }).toEqual({ type: event.type, capture: event.capture, data: event.data, over: want });
      if (want) over++;
      else honest++;
    }
    // Both answers must be well represented, or the agreement above proves little.
    expect(over).toBeGreaterThan(200);
    expect(honest).toBeGreaterThan(200);
  });

  // Ours, and the standard's when it is beside the repo (it is not on a fresh clone).
  for (const golden of ['conformance/fixtures/golden/golden.jsonl', standardPath('conformance', 'fixtures', 'golden', 'golden.jsonl')]) {
    it.skipIf(!existsSync(golden))(`agrees with validateEvent on ${golden}, re-declared at every capture level${skipped(!existsSync(golden), golden.startsWith('conformance/') ? WHY.corpus : WHY.standard)}`, () => {
      let checked = 0;
      for (const line of readFileSync(golden, 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        const original = JSON.parse(line) as Record<string, unknown>;
        for (const capture of [undefined, ...CAPTURE_ORDER]) {
          const event = { ...original };
          if (capture === undefined) delete event.capture;
          else event.capture = capture;
          if (validateEnvelope(event).length > 0) continue;
          expect([event.id, capture, isOverDeclared(event as AepEvent)]).toEqual([event.id, capture, byValidator(event)]);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(100);
    });
  }

  it('flags content at capture none, and nothing for an empty or absent payload', () => {
    const type = 'progress.status';
    expect(isOverDeclared(eventOf(type, { phase: 'x' }, 'none')!)).toBe(true);
    expect(isOverDeclared(eventOf(type, {}, 'none')!)).toBe(false);
    expect(isOverDeclared(eventOf(type, undefined, 'none')!)).toBe(false);
  });

  it('never judges vendor or unregistered types above none, whatever they carry', () => {
    const vendor = eventOf('x.acme.progress.note', { message: 'secret text' }, 'metadata')!;
    const unregistered = eventOf('progress.unheard_of', { message: 'secret text' }, 'metadata')!;
    expect([isOverDeclared(vendor), byValidator(vendor)]).toEqual([false, false]);
    expect([isOverDeclared(unregistered), byValidator(unregistered)]).toEqual([false, false]);
    expect(isOverDeclared({ ...vendor, capture: 'none' })).toBe(true); // `none` holds for every type
  });
});
