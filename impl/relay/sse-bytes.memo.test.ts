/**
 * `messageBytes` keeps each event's encoded messages on the event record itself (a private,
 * non-enumerable symbol) rather than in a WeakMap: the record must look exactly as before to
 * everything else, and frozen records must still work.
 */
import { describe, expect, it } from 'vitest';
import type { Received } from './buffer.js';
import { renderAt } from './render.js';
import { messageBytes } from './sse-bytes.js';
import { sseEvent } from './sse-format.js';

const raw = '{"aep":"0.1","id":"e1","type":"tool.completed","time":"2026-11-30T06:00:00.000Z","source":"aep://h/agent/a/session/s1","agent":"a","session":"s1","seq":3,"epoch":0,"capture":"full","data":{"tool":{"name":"Edit","call_id":"c"},"status":"success","result":"secret ü text"}}';
const rec = (): Received => ({ raw, event: JSON.parse(raw) } as unknown as Received);
const CEILINGS = [undefined, 'full', 'redacted', 'metadata', 'none'] as const;

describe('messageBytes memo', () => {
  it('leaves no visible trace on the record', () => {
    const r = rec();
    const before = { keys: Object.keys(r), json: JSON.stringify(r) };
    for (const c of CEILINGS) messageBytes(r, c);
    expect(Object.keys(r)).toEqual(before.keys);
    expect(JSON.stringify(r)).toBe(before.json);
    expect(r).toEqual(rec());
    expect({ ...r }).toEqual(rec());
  });

  it('encodes once per ceiling in any order, the first and later ceilings alike', () => {
    for (const order of [CEILINGS, [...CEILINGS].reverse(), ['metadata', undefined, 'metadata', 'full', 'none', undefined] as const]) {
      const r = rec();
      const got = new Map<string, Buffer>();
      for (const c of order) {
        const bytes = messageBytes(r, c);
        expect(bytes.toString('utf8')).toBe(sseEvent(r.event, renderAt(r, c)));
        const key = c === undefined || c === 'full' ? '*' : c;
        if (got.has(key)) expect(bytes).toBe(got.get(key));
        got.set(key, bytes);
      }
    }
  });

  it('works on a frozen record, and never mixes two records up', () => {
    const a = Object.freeze(rec());
    const b = rec();
    for (const c of CEILINGS) {
      expect(messageBytes(a, c)).toBe(messageBytes(a, c));
      expect(messageBytes(a, c).toString('utf8')).toBe(sseEvent(a.event, renderAt(a, c)));
      expect(messageBytes(b, c)).not.toBe(messageBytes(a, c));
    }
  });
});
