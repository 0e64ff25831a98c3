import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { annotationsOf } from '../core/capture.js';
import { validateEnvelope, validateEvent } from '../core/envelope.js';
import { CAPTURE_ORDER, isPlainObject, type AepEvent } from '../core/event.js';
import { schemaForType } from '../core/payload.js';
import { TYPES } from '../../spec/registry.js';
import { carriesAbove, compileGates, isOverDeclared } from './honesty.js';

/** What the relay used to compute with the full validator: the reference for isOverDeclared. */
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

  const golden = 'conformance/fixtures/golden/golden.jsonl';
  it.skipIf(!existsSync(golden))('agrees with validateEvent on the golden corpus, re-declared at every capture level', () => {
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

  it('flags content at capture none, and nothing for an empty or absent payload', () => {
    const type = 'progress.status';
    expect(isOverDeclared(eventOf(type, { phase: 'x' }, 'none')!)).toBe(true);
    expect(isOverDeclared(eventOf(type, {}, 'none')!)).toBe(false);
    expect(isOverDeclared(eventOf(type, undefined, 'none')!)).toBe(false);
  });

  it('never judges vendor or unregistered types, whatever they carry', () => {
    const vendor = eventOf('x.acme.progress.note', { message: 'secret text' }, 'metadata')!;
    const unregistered = eventOf('progress.unheard_of', { message: 'secret text' }, 'metadata')!;
    expect([isOverDeclared(vendor), byValidator(vendor)]).toEqual([false, false]);
    expect([isOverDeclared(unregistered), byValidator(unregistered)]).toEqual([false, false]);
    expect(isOverDeclared({ ...vendor, capture: 'none' })).toBe(true); // `none` holds for every type
  });

  it('judges array items by their own annotation, and an empty array carries none', () => {
    // Our schemas never annotate items above their array; the walk must still handle it as validateEvent does.
    const gates = compileGates({ notes: 'metadata', 'notes[]': 'full', 'box.inner': 'redacted' });
    expect(carriesAbove({ notes: ['x'] }, gates, 'redacted')).toBe(true);
    expect(carriesAbove({ notes: ['x'] }, gates, 'full')).toBe(false);
    expect(carriesAbove({ notes: [] }, gates, 'metadata')).toBe(false);
    expect(carriesAbove({ box: { inner: 1 } }, gates, 'metadata')).toBe(true);
    expect(carriesAbove({ box: { other: 1 } }, gates, 'metadata')).toBe(false);
    expect(carriesAbove({ box: 'flat', other: { inner: 1 } }, gates, 'metadata')).toBe(false);
  });
});
