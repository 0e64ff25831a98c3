/**
 * Issue 14, core side: hostile input the validators must refuse with a rule id, walks that must
 * survive any nesting, and down-levelling that must fail closed.
 */
import { describe, expect, it } from 'vitest';
import { downlevel } from './capture.js';
import { canonicalJson } from './canonical.js';
import { digest } from './digest.js';
import { validateEvent } from './envelope.js';
import type { AepEvent, CaptureLevel } from './event.js';
import { attrMatch } from './filter.js';
import { findOverCapture, gatesForType, isOverDeclared } from './honesty.js';
import { MAX_DEPTH } from './json-shape.js';
import { toCloudEvent, fromCloudEvent } from './project/cloudevents.js';
import { toOcsf } from './project/ocsf.js';
import { toOtlp } from './project/otlp.js';
import { redactValue } from './redact.js';
import { parseJsonl, validateStream } from './stream.js';

const envelope = (over: Record<string, unknown>): AepEvent =>
  ({ aep: '0.1', id: 'h-1', type: 'state.snapshot', time: '2026-12-01T09:00:00Z', source: 'aep://h/agent/a', agent: 'a', session: 's', seq: 0, ...over }) as AepEvent;

function deepObject(depth: number): Record<string, unknown> {
  let deep: Record<string, unknown> = { end: 'S3CR3T' };
  for (let i = 0; i < depth; i++) deep = { a: deep };
  return deep;
}
const deepArrayText = (depth: number): string => `${'['.repeat(depth)}"S3CR3T"${']'.repeat(depth)}`;

const rulesOf = (text: string): string[] => {
  const { events, issues } = parseJsonl(text);
  return [...issues, ...validateStream(events)].map((i) => i.rule);
};

describe('defect 1: nesting is bounded and refused by validate', () => {
  it('a line nested 100,000 deep is refused envelope.depth (it was accepted)', () => {
    const line = JSON.stringify(envelope({ type: 'x.a.session.blob' })).replace('}', `,"data":{"d":${deepArrayText(100_000)}}}`);
    expect(rulesOf(`${line}\n`)).toEqual(['envelope.depth']);
  });
  it('an event at exactly the bound is fine; one level more is refused', () => {
    // The Event is level 1 and data level 2; deepObject(n) is n + 1 levels deep.
    const within = envelope({ type: 'x.a.session.blob', data: deepObject(MAX_DEPTH - 2) });
    expect(validateEvent(within).map((i) => i.rule)).toEqual([]);
    const beyond = envelope({ type: 'x.a.session.blob', data: deepObject(MAX_DEPTH - 1) });
    expect(validateEvent(beyond).map((i) => i.rule)).toEqual(['envelope.depth']);
  });
  it('every recursive walk survives 100,000 levels: downlevel, canonicalJson, digest, redactValue, honesty, filter, projections', () => {
    const deep = deepObject(100_000);
    const ev = envelope({ type: 'tool.completed', capture: 'full', data: { tool: { name: 'x' }, result: deep, vendor: deep } });
    for (const ceiling of ['none', 'metadata', 'redacted', 'full'] as CaptureLevel[]) expect(() => downlevel(ev, ceiling)).not.toThrow();
    expect(JSON.stringify(downlevel(ev, 'metadata'))).not.toContain('S3CR3T');
    expect(canonicalJson(deep).length).toBeGreaterThan(400_000);
    expect(digest(deep)).toMatch(/^[0-9a-f]{32}$/);
    expect(() => redactValue(deep)).not.toThrow();
    expect(() => isOverDeclared(ev)).not.toThrow();
    expect(findOverCapture(ev.data!, gatesForType('tool.completed'), 'metadata').map((f) => f.path)).toEqual(['$.data.result']);
    expect(attrMatch({ session: 's' }, ev)).toBe(true);
    expect(() => toCloudEvent(ev)).not.toThrow();
    expect(() => fromCloudEvent({ specversion: '1.0', id: 'i', source: 's', type: 'aep.tool.completed', data: deep })).not.toThrow();
    expect(() => toOtlp(ev, { maxCapture: 'full' })).not.toThrow();
    expect(() => toOcsf(ev, { maxCapture: 'full' })).not.toThrow();
    expect(() => validateEvent(ev)).not.toThrow();
  });
  it('canonicalJson keeps its contract iteratively: sorted keys, toJSON, cycles and BigInt refused', () => {
    expect(canonicalJson({ b: [1, { d: 2, c: undefined }], a: new Date(0), f: () => 1 })).toBe('{"a":"1970-01-01T00:00:00.000Z","b":[1,{"d":2}]}');
    expect(canonicalJson([undefined, Number.NaN])).toBe('[null,null]');
    const cycle: Record<string, unknown> = {};
    cycle.self = { again: cycle };
    expect(() => canonicalJson(cycle)).toThrow(/cycle at \$\.self\.again/);
    expect(() => canonicalJson({ n: [1n] })).toThrow(/BigInt at \$\.n\[0\]/);
    expect(canonicalJson({ x: { y: [] } })).toBe('{"x":{"y":[]}}');
  });
});

describe('defect 3 and 5: duplicate members and unsafe integers are refused by validate', () => {
  it('duplicate members in the envelope or in data: json.member.duplicate', () => {
    const base = JSON.stringify(envelope({ type: 'progress.status' }));
    expect(rulesOf(`${base.replace('"type":"progress.status"', '"type":"control.cancel","type":"progress.status"')}\n`)).toEqual(['json.member.duplicate']);
    expect(rulesOf(`${base.replace(/}$/, ',"data":{"phase":"a","phase":"b"}}')}\n`)).toEqual(['json.member.duplicate']);
    expect(rulesOf(`${base}\n`)).toEqual([]);
  });
  it('seq or epoch above 2^53 - 1: envelope.seq.range / envelope.epoch.range', () => {
    expect(validateEvent(envelope({ seq: 2 ** 53 })).map((i) => i.rule)).toEqual(['envelope.seq.range']);
    expect(validateEvent(envelope({ epoch: 2 ** 60 })).map((i) => i.rule)).toEqual(['envelope.epoch.range']);
    expect(validateEvent(envelope({ seq: Number.MAX_SAFE_INTEGER, epoch: Number.MAX_SAFE_INTEGER })).map((i) => i.rule)).toEqual([]);
    expect(rulesOf('{"aep":"0.1","id":"i","type":"progress.status","time":"2026-12-01T09:00:00Z","source":"aep://h/a","agent":"a","session":"s","seq":9007199254740993}\n')).toEqual(['envelope.seq.range']);
  });
});

describe('defect 2: down-levelling fails closed', () => {
  const at = (ev: AepEvent, ceiling: CaptureLevel): string => JSON.stringify(downlevel(ev, ceiling));
  it('an array where error.raised annotates an object is dropped, not walked', () => {
    const ev = envelope({ type: 'error.raised', data: { error: [{ message: 'S3CR3T' }], code: 'E1' } });
    expect(downlevel(ev, 'metadata').data).toEqual({ code: 'E1' });
    expect(at(ev, 'redacted')).not.toContain('S3CR3T');
  });
  it('an object where resource.retrieval.returned annotates documents[] is dropped, whatever capture claims', () => {
    const ev = envelope({ type: 'resource.retrieval.returned', capture: 'full', data: { documents: { content: 'S3CR3T' }, count: 1 } });
    expect(downlevel(ev, 'metadata')).toMatchObject({ capture: 'metadata', data: { count: 1 } });
    expect(at(ev, 'metadata')).not.toContain('S3CR3T');
    expect(at({ ...ev, capture: 'metadata' }, 'metadata')).not.toContain('S3CR3T');
  });
  it('__proto__, constructor and prototype keys are data: never a prototype link, and unclassifiable below redacted', () => {
    const data = JSON.parse('{"__proto__":{"result":"S3CR3T"},"constructor":{"prototype":"S3CR3T"},"status":"ok"}') as Record<string, unknown>;
    for (const capture of ['metadata', 'full'] as const) {
      const out = downlevel(envelope({ type: 'tool.completed', capture, data: { tool: { name: 'x' }, ...data } }), 'metadata');
      expect(JSON.stringify(out)).not.toContain('S3CR3T');
      expect(Object.getPrototypeOf(out.data)).toBe(Object.prototype);
      expect((out.data as Record<string, unknown>).result).toBeUndefined();
    }
    const kept = downlevel(envelope({ type: 'tool.completed', capture: 'redacted', data: { tool: { name: 'x' }, ...data } }), 'redacted');
    expect(Object.keys(kept.data!)).toEqual(['tool', '__proto__', 'constructor', 'status']);
    expect(Object.getPrototypeOf(kept.data)).toBe(Object.prototype);
  });
  it('AEP-0001 §8 decision: a metadata ceiling keeps no data of a type it has no annotation for, whatever it declares', () => {
    for (const type of ['x.acme.session.note', 'tool.zapped']) {
      const ev = envelope({ type, capture: 'metadata', data: { note: 'S3CR3T', count: 2 } });
      expect(downlevel(ev, 'metadata')).not.toHaveProperty('data');
      expect(downlevel(ev, 'metadata').capture).toBe('metadata');
      // A redacted source at a redacted ceiling passes: that claim was minted at the source (§8.2e).
      expect(downlevel({ ...ev, capture: 'redacted' }, 'redacted').data).toEqual({ note: 'S3CR3T', count: 2 });
      expect(downlevel(ev, 'full').data).toEqual({ note: 'S3CR3T', count: 2 });
    }
  });
  it('below redacted an unannotated member of a registered type keeps numbers, booleans and null only', () => {
    const ev = envelope({ type: 'tool.completed', data: { tool: { name: 'x' }, shard: 4, hot: true, gone: null, note: 'S3CR3T', blob: { t: 'S3CR3T' }, list: ['S3CR3T'] } });
    expect(downlevel(ev, 'metadata').data).toEqual({ tool: { name: 'x' }, shard: 4, hot: true, gone: null });
  });
});
