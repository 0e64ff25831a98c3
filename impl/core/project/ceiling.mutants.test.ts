/** The exporter capture ceiling: what payload an exporter may carry. */
import { describe, expect, it } from 'vitest';
import type { AepEvent } from '../event.js';
import { declaredCapture, DEFAULT_MAX_CAPTURE, survivingData } from './ceiling.js';

const ev = (capture: string | undefined, data: unknown = { a: 1 }) =>
  ({ aep: '0.1', id: 'i', type: 't', time: 'x', source: 's', agent: 'a', session: 'q', ...(capture === undefined ? {} : { capture }), data }) as unknown as AepEvent;

describe('capture ceiling', () => {
  it('defaults: an Event without capture is metadata, and metadata is the ceiling', () => {
    expect(DEFAULT_MAX_CAPTURE).toBe('metadata');
    expect(declaredCapture(ev(undefined))).toBe('metadata');
    expect(declaredCapture(ev('full'))).toBe('full');
    expect(survivingData(ev(undefined))).toEqual({ a: 1 });
    expect(survivingData(ev('redacted'))).toBeUndefined();
  });

  it('keeps the payload at or below the ceiling, drops it whole above', () => {
    expect(survivingData(ev('redacted'), 'redacted')).toEqual({ a: 1 });
    expect(survivingData(ev('metadata'), 'full')).toEqual({ a: 1 });
    expect(survivingData(ev('full'), 'redacted')).toBeUndefined();
    const data = { a: { b: 2 } };
    expect(survivingData(ev('full', data), 'full')).toBe(data);
  });

  it('none, an unknown level and a non-object payload carry nothing', () => {
    expect(survivingData(ev('none'), 'full')).toBeUndefined();
    expect(survivingData(ev('secret'), 'full')).toBeUndefined();
    expect(survivingData(ev('metadata', [1]), 'full')).toBeUndefined();
    expect(survivingData(ev('metadata', 'text'), 'full')).toBeUndefined();
    expect(survivingData(ev('metadata', null), 'full')).toBeUndefined();
  });
});
