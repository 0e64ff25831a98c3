/**
 * `parseLines` accepts clean events without a verdict object per line (`admitClean`) and hands
 * every other line to `parseEventText`: its verdict is exactly the reference loop's (each
 * non-blank line through `parseEventText`), for lines of every kind: valid events, over-declared
 * ones, commands with and without `seq`, unknown `x.` types, envelope violations, bad JSON,
 * duplicate members, non-objects, text to trim or re-serialize.
 */
import { describe, expect, it } from 'vitest';
import { parseEventText, parseLines, type BatchVerdict } from './batch.js';
import type { Received } from './buffer.js';

/** The loop `parseBatch` ran before the fast path: one `parseEventText` per non-blank line. */
function reference(lines: readonly string[], maxBatch: number): BatchVerdict {
  const all = [...lines];
  if (all[0]!.startsWith('\uFEFF')) all[0] = all[0]!.slice(1);
  const blank = (l: string): boolean => l.trim() === '';
  const count = all.filter((l) => !blank(l)).length;
  if (count > maxBatch) return { ok: false, refusal: { status: 413, body: { error: 'too-many-events', detail: `the batch carries ${count} events; this relay takes at most ${maxBatch} per request (AEP_MAX_BATCH); nothing was ingested` } } };
  const events: Received[] = [];
  for (let i = 0; i < all.length; i++) {
    if (blank(all[i]!)) continue;
    const one = parseEventText(all[i]!, i + 1);
    if (!one.ok) return one;
    events.push(one.rec);
  }
  return { ok: true, events };
}

const base = { aep: '0.1', id: 'f-1', type: 'progress.status', time: '2026-11-30T06:00:00.000Z', source: 'aep://h/agent/a/session/s', agent: 'a', session: 's', epoch: 0, seq: 1, capture: 'metadata', data: { phase: 'working' } };
const event = (over: Record<string, unknown>): string => {
  const e: Record<string, unknown> = { ...base, ...over };
  for (const [k, v] of Object.entries(over)) if (v === undefined) delete e[k];
  return JSON.stringify(e);
};

const LINES = [
  event({}),
  event({ id: 'f-2', seq: 2, type: 'tool.completed', capture: 'metadata', data: { tool: { name: 'Edit', call_id: 'c' }, status: 'success', result: 'secret' } }), // over-declared
  event({ id: 'f-3', type: 'control.pause', seq: undefined, data: {} }), // a command, seq-less
  event({ id: 'f-4', type: 'control.pause', data: {} }), // a command with seq
  event({ id: 'f-5', type: 'control.nonesuch', seq: undefined }), // an unknown verb, seq-less
  event({ id: 'f-6', type: 'x.vendor.thing' }),
  event({ id: 'f-7', seq: undefined }), // session-scoped without seq
  event({ id: 'f-8', time: 'yesterday' }),
  event({ id: 'f-9', source: 'not a uri' }),
  event({ id: 'f-10', aep: '9.9' }),
  event({ id: 'f-11', type: 'Bad Type' }),
  event({ id: 'f-12', session: undefined, seq: undefined, epoch: undefined }), // agent-scoped
  `  ${event({ id: 'f-13' })}\t`,
  event({ id: 'f-14' }).replace(',"type"', ',\r"type"'),
  '{"aep":"0.1","id":"dup","id":"dup2"}',
  '{"aep":',
  '[1,2]',
  '"text"',
  '',
  '\u00a0',
];

describe('parseLines fast path', () => {
  it('gives the reference verdict for every line alone and in mixed batches', () => {
    for (const line of LINES) {
      for (const lines of [[line], [LINES[0]!, line, ''], [`\uFEFF${line}`]]) {
        expect(parseLines([...lines], 100)).toEqual(reference(lines, 100));
      }
    }
    for (let k = 0; k < 200; k++) {
      const lines = Array.from({ length: 1 + (k % 9) }, (_, i) => LINES[(k * 7 + i * 3) % LINES.length]!);
      expect(parseLines([...lines], 100)).toEqual(reference(lines, 100));
      expect(parseLines([...lines], 2)).toEqual(reference(lines, 2));
    }
  });
});
