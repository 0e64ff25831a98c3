/**
 * Whole-output tests of the OTLP projection, written against the mutants `npm run mutate` left
 * alive in otlp.ts (docs/mutation.md).
 */
import { describe, expect, it } from 'vitest';
import type { AepEvent } from '../event.js';
import { toOtlp } from './otlp.js';

const event = (over: Record<string, unknown>): AepEvent =>
  ({ aep: '0.1', id: 'e1', type: 'run.started', time: '2026-02-11T08:00:01.25Z', source: 'aep://ws-7/agent/coder', agent: 'coder', session: 'k1', run: 'r1', seq: 1, ...over }) as unknown as AepEvent;
const TRACE = '0af7651916cd43dd8448eb211c80319c';
const SPAN = 'b7ad6b7169203331';

describe('toOtlp: trace context and time', () => {
  it('takes trace and span ids from a traceparent that matches from its first character to its last', () => {
    const good = toOtlp(event({ traceparent: `00-${TRACE}-${SPAN}-01` }));
    expect([good.trace_id, good.span_id, good.flags]).toStrictEqual([TRACE, SPAN, 1]);
    for (const traceparent of [`x00-${TRACE}-${SPAN}-01`, `00-${TRACE}-${SPAN}-01-extra`, `00-${TRACE}-${SPAN}-010`]) {
      const record = toOtlp(event({ traceparent }));
      expect([record.trace_id, record.span_id, record.flags]).toStrictEqual([undefined, undefined, undefined]);
    }
  });
  it('gives time 0 for a time that is not a string', () => {
    expect(toOtlp(event({ time: ['2025-01-01T00:00:00Z'] })).time_unix_nano).toBe(0);
    expect(toOtlp(event({})).time_unix_nano).toBe(1770796801250000000);
  });
});
