/** RFC 3339 edges of the projections' clock arithmetic: field ranges, leap seconds, offsets, flooring. */
import { describe, expect, it } from 'vitest';
import { epochMillis, epochNanos } from './time.js';

const base = epochNanos('2026-02-11T00:00:00Z')!;

describe('RFC 3339 field ranges', () => {
  it.each([
    '2026-00-11T00:00:00Z', '2026-02-00T00:00:00Z', '2026-01-32T00:00:00Z', '2026-02-11T00:60:00Z',
    '2026-02-11T00:00:61Z', '2026-04-31T00:00:00Z', '2026-02-11T00:00:00', 'x2026-02-11T00:00:00Z', '2026-02-11T00:00:00Zx',
    '2026-02-11T00:00:00+0100',
  ])('refuses %j', (bad) => expect(epochNanos(bad)).toBeNull());

  // A leap second skips the rolled-over-date check, so day and hour must be range-checked on their own.
  it.each(['2026-01-00T23:59:60Z', '2026-01-32T23:59:60Z', '2026-01-31T24:59:60Z'])(
    'refuses %j even with a leap second',
    (bad) => expect(epochNanos(bad)).toBeNull(),
  );

  it('accepts the bounds of each field', () => {
    expect(epochNanos('2026-01-01T00:00:00Z')).toBe(1767225600000000000n);
    expect(epochNanos('2026-12-31T23:59:59Z')).toBe(1798761599000000000n);
    expect(epochNanos('2026-01-31T00:00:00Z')).toBe(1769817600000000000n);
    expect(epochNanos('2024-02-29T00:00:00Z')).toBe(1709164800000000000n);
    expect(epochNanos('2026-02-11t00:00:00z')).toBe(base);
  });

  it('a leap second reads as the next second, also at the end of a month', () => {
    expect(epochNanos('2016-12-31T23:59:60Z')).toBe(epochNanos('2017-01-01T00:00:00Z'));
    expect(epochNanos('2026-02-11T00:00:60Z')).toBe(base + 60_000_000_000n);
  });

  it('offsets: zero either way, minutes and hours', () => {
    expect(epochNanos('2026-02-11T00:00:00+00:00')).toBe(base);
    expect(epochNanos('2026-02-11T00:00:00-00:00')).toBe(base);
    expect(epochNanos('2026-02-11T00:00:00-00:30')).toBe(base + 1_800_000_000_000n);
    expect(epochNanos('2026-02-11T00:00:00+02:00')).toBe(base - 7_200_000_000_000n);
  });

  it('fractions are padded on the right', () => {
    expect(epochNanos('2026-02-11T00:00:00.05Z')).toBe(base + 50_000_000n);
    expect(epochNanos('2026-02-11T00:00:00.000000001Z')).toBe(base + 1n);
  });
});

describe('epochMillis', () => {
  it('floors, and an exact negative millisecond stays as it is', () => {
    expect(epochMillis('1969-12-31T23:59:59.999Z')).toBe(-1);
    expect(epochMillis('1969-12-31T23:59:59.9989Z')).toBe(-2);
    expect(epochMillis('1970-01-01T00:00:00.0009Z')).toBe(0);
    expect(epochMillis('2026-02-11T00:00:00.001Z')).toBe(Number(base / 1_000_000n) + 1);
  });
});
