/**
 * `renderAt` skips re-serializing the event to compare when the ceiling lowers an honest event's
 * level; what it delivers must be exactly what the full comparison gives, at every declared
 * level (absent and unknown included), ceiling and over-declared mark.
 */
import { describe, expect, it } from 'vitest';
import { downlevel } from '../core/capture.js';
import type { AepEvent, CaptureLevel } from '../core/event.js';
import type { Received } from './received.js';
import { renderAt } from './render.js';

/** The rendering as it was before the shortcut: always compare with the event's own serialization. */
function reference(rec: Received, ceiling: CaptureLevel | undefined): string {
  if (ceiling === undefined || ceiling === 'full') return rec.raw;
  const lowered = JSON.stringify(downlevel(rec.overDeclared ? { ...rec.event, capture: 'full' } : rec.event, ceiling));
  return lowered === JSON.stringify(rec.event) ? rec.raw : lowered;
}

const DECLARED = [undefined, 'none', 'metadata', 'redacted', 'full', 'bogus'];
const DATA = [undefined, {}, { tool: { name: 'Edit', call_id: 'c' }, status: 'success' }, { tool: { name: 'Edit', call_id: 'c' }, status: 'success', result: 'secret' }];
const CEILINGS = [undefined, 'none', 'metadata', 'redacted', 'full'] as const;

describe('renderAt against the full comparison', () => {
  it('delivers the same text for every declared level, payload, ceiling and over-declared mark', () => {
    let lowered = 0;
    let n = 0;
    for (const capture of DECLARED) {
      for (const data of DATA) {
        for (const overDeclared of [undefined, true]) {
          const event = { aep: '0.1', id: `r${++n}`, type: 'tool.completed', time: '2026-11-30T06:00:00.000Z', source: 's', agent: 'a', session: 's1', seq: n, epoch: 0, ...(capture === undefined ? {} : { capture }), ...(data === undefined ? {} : { data }) } as unknown as AepEvent;
          // Received text with spaces: a re-serialization is told apart from the received bytes.
          const raw = JSON.stringify(event, null, 1).replace(/\n\s*/g, ' ');
          for (const ceiling of CEILINGS) {
            const rec: Received = overDeclared ? { event: structuredClone(event), raw, overDeclared } : { event: structuredClone(event), raw };
            const got = renderAt(rec, ceiling);
            expect(got, `${capture} ${JSON.stringify(data)} ${overDeclared} ${ceiling}`).toBe(reference(rec, ceiling));
            if (got !== raw) lowered++;
          }
        }
      }
    }
    expect(lowered).toBeGreaterThan(50);
  });
});
