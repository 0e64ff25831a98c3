/**
 * `batchBytes` keeps nothing per event: no memo on the record (the record must look exactly as
 * before to everything else, frozen records included), and nothing on a held record.
 */
import { describe, expect, it } from 'vitest';
import type { Received } from './buffer.js';
import { renderAt } from './render.js';
import { batchBytes } from './sse-bytes.js';
import { sseEvent } from './sse-format.js';

const raw = '{"aep":"0.1","id":"e1","type":"tool.completed","time":"2026-11-30T06:00:00.000Z","source":"aep://h/agent/a/session/s1","agent":"a","session":"s1","seq":3,"epoch":0,"capture":"full","data":{"tool":{"name":"Edit","call_id":"c"},"status":"success","result":"secret ü text"}}';
const rec = (): Received => ({ raw, event: JSON.parse(raw) } as unknown as Received);
const CEILINGS = [undefined, 'full', 'redacted', 'metadata', 'none'] as const;

describe('batchBytes keeps nothing per record', () => {
  it('leaves no trace on the record', () => {
    const r = rec();
    const before = { keys: Object.keys(r), json: JSON.stringify(r) };
    for (const c of CEILINGS) batchBytes([r], c);
    expect(Object.keys(r)).toEqual(before.keys);
    expect(Object.getOwnPropertySymbols(r)).toEqual([]);
    expect(JSON.stringify(r)).toBe(before.json);
    expect({ ...r }).toEqual(rec());
  });

  it('works on a frozen record, and never mixes two records up', () => {
    const a = Object.freeze(rec());
    const b = rec();
    for (const c of CEILINGS) {
      const bytes = batchBytes([a], c);
      expect(bytes.toString('utf8')).toBe(sseEvent(a.event, renderAt(a, c)));
      expect(batchBytes([b], c)).not.toBe(bytes);
      expect(batchBytes([b], c).equals(bytes)).toBe(true);
    }
  });
});
