import { describe, expect, it } from 'vitest';
import { epochMillis, epochNanos } from './time.js';

describe('epochNanos', () => {
  it('is exact to the nanosecond, beyond double precision', () => {
    expect(epochNanos('2026-02-11T08:00:01.123456789Z')).toBe(1770796801123456789n);
    expect(epochNanos('2026-02-11T08:00:01Z')).toBe(1770796801000000000n);
    expect(epochNanos('2026-02-11T08:00:01.5z')).toBe(1770796801500000000n);
  });

  it('truncates fraction digits past the ninth', () => {
    expect(epochNanos('2026-02-11T08:00:01.1234567899Z')).toBe(1770796801123456789n);
  });

  it('applies numeric offsets in both directions', () => {
    expect(epochNanos('2026-02-11T09:30:01+01:30')).toBe(1770796801000000000n);
    expect(epochNanos('2026-02-11T03:00:01-05:00')).toBe(1770796801000000000n);
  });

  it('handles instants before the epoch', () => {
    expect(epochNanos('1969-12-31T23:59:59.999Z')).toBe(-1000000n);
  });

  it.each(['', '2026-02-11', '2026-02-11T08:00:01', '2026-02-11 08:00:01Z', '2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z', '2026-02-11T24:00:00Z', '2026-02-11T08:00:01.Z'])(
    'rejects %j',
    (bad) => expect(epochNanos(bad)).toBeNull(),
  );
});

describe('epochMillis', () => {
  it('floors to the millisecond, also before the epoch', () => {
    expect(epochMillis('2026-02-11T08:00:01.2509Z')).toBe(1770796801250);
    expect(epochMillis('1969-12-31T23:59:59.9995Z')).toBe(-1);
    expect(epochMillis('nope')).toBeNull();
  });
});
