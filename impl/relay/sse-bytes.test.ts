import { describe, expect, it } from 'vitest';
import type { Received } from './buffer.js';
import { renderAt } from './render.js';
import { batchBytes, batchText, type SharedBatches } from './sse-bytes.js';
import { sseEvent } from './sse-format.js';

const raw = (seq: number, session = 's1'): string =>
  `{"aep":"0.1","id":"e${seq}","type":"tool.completed","time":"2026-11-30T06:00:00.000Z","source":"aep://h/agent/a/session/s","agent":"a","session":${JSON.stringify(session)},"seq":${seq},"epoch":0,"capture":"full","data":{"tool":{"name":"Edit","call_id":"c"},"status":"success","result":"secret ü text"}}`;
const rec = (seq: number, session?: string): Received => {
  const text = raw(seq, session);
  return { raw: text, event: JSON.parse(text) } as unknown as Received;
};
const CEILINGS = [undefined, 'full', 'redacted', 'metadata', 'none'] as const;

describe('batchBytes', () => {
  it('is exactly the UTF-8 of the SSE messages in order, at every ceiling', () => {
    const recs = [rec(3), rec(4), rec(5, 'weird\nname')];
    for (const ceiling of CEILINGS) {
      const expected = recs.map((r) => sseEvent(r.event, renderAt(r, ceiling))).join('');
      expect(batchText(recs, ceiling)).toBe(expected);
      expect(batchBytes([...recs], ceiling).equals(Buffer.from(expected, 'utf8'))).toBe(true);
    }
    expect(batchBytes([recs[0]!], undefined).toString('utf8')).toBe(`id: s1:0:3\nevent: tool.completed\ndata: ${raw(3)}\n\n`);
    expect(batchBytes([...recs], 'metadata').toString('utf8')).not.toContain('secret');
    // A session an SSE id cannot carry: the message has no id line.
    expect(batchBytes([recs[2]!], undefined).toString('utf8')).toMatch(/^event: tool\.completed\n/);
  });

  it('shares one buffer for the same records at the same ceiling, and only then', () => {
    const a = rec(1), b = rec(2);
    const first = batchBytes([a, b], undefined);
    expect(batchBytes([a, b], undefined)).toBe(first);
    expect(batchBytes([a, b], 'full')).toBe(first); // full renders the received bytes, like no ceiling
    expect(batchBytes([a, b], 'metadata')).not.toBe(first);
    expect(batchBytes([b, a], undefined)).not.toBe(first);
    expect(batchBytes([b, a], undefined).toString('utf8')).toBe(sseEvent(b.event, b.raw) + sseEvent(a.event, a.raw));
    expect(batchBytes([a], undefined)).not.toBe(first);
    expect(batchBytes([a, rec(2)], undefined)).not.toBe(first); // equal text, another record: built anew
    expect(batchBytes([a, rec(2)], undefined).equals(first)).toBe(true);
  });

  it('matches sseEvent for seq-less, agent-scoped and later-epoch events, sessions changing within the batch', () => {
    const variants = [rec(1), rec(2, 'other'), rec(3, 'a\u0000b'), rec(4)];
    const text = (over: Record<string, unknown>): Received => {
      const event = { ...JSON.parse(raw(9)), ...over };
      for (const [k, v] of Object.entries(over)) if (v === undefined) delete event[k];
      const json = JSON.stringify(event);
      return { raw: json, event: JSON.parse(json) } as unknown as Received;
    };
    variants.push(text({ seq: undefined }), text({ session: undefined, seq: undefined }), text({ epoch: 7, seq: 12 }), text({ epoch: undefined }), rec(5, 'other'));
    for (const ceiling of CEILINGS) expect(batchText(variants, ceiling)).toBe(variants.map((r) => sseEvent(r.event, renderAt(r, ceiling))).join(''));
  });

  it('within one fan-out\'s shared list, shares across any number of distinct selections', () => {
    const recs = Array.from({ length: 24 }, (_, i) => rec(i, `s${i % 12}`));
    const groups = Array.from({ length: 12 }, (_, g) => recs.filter((_, i) => i % 12 === g));
    const shared: SharedBatches = [];
    const first = groups.map((g) => batchBytes(g, undefined, shared));
    groups.forEach((g, i) => expect(batchBytes([...g], undefined, shared)).toBe(first[i]));
    expect(shared).toHaveLength(12);
    // A new fan-out starts with a new list: nothing carried over.
    expect(batchBytes([...groups[0]!], undefined, [])).not.toBe(first[0]);
  });

  it('is empty for no records', () => {
    expect(batchBytes([], undefined).length).toBe(0);
  });
});
