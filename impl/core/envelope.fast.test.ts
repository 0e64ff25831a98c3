/**
 * `isDateTime` reads RFC 3339 by hand (no regular expression, no match array). It must say
 * exactly what the regular-expression reading says, with the same calendar and clock ranges, on
 * generated strings close to the format and on hostile ones.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDateTime } from './envelope.js';

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/;

/** The regular-expression reading isDateTime replaced. */
function reference(s: string): boolean {
  const m = DATE_TIME.exec(s);
  if (m === null) return false;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i]));
  if (month! < 1 || month! > 12 || day! < 1) return false;
  const leap = year! % 4 === 0 && (year! % 100 !== 0 || year! % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month! - 1]!;
  if (day! > days || hour! > 23 || minute! > 59 || second! > 60) return false;
  if (m[9] !== undefined && (Number(m[10]) > 23 || Number(m[11]) > 59)) return false;
  return true;
}

const two = fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(2, '0'));
const wellFormed = fc
  .tuple(
    fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')),
    two,
    two,
    fc.constantFrom('T', 't'),
    two,
    two,
    two,
    fc.oneof(fc.constant(''), fc.stringMatching(/^\.\d{1,12}$/), fc.constant('.')),
    fc.oneof(fc.constantFrom('Z', 'z', 'UTC', '', '+', 'Z\n'), fc.tuple(fc.constantFrom('+', '-'), two, fc.constantFrom(':', ''), two).map((p) => p.join(''))),
  )
  .map(([y, mo, d, t, h, mi, s, frac, zone]) => `${y}-${mo}-${d}${t}${h}:${mi}:${s}${frac}${zone}`);

/** A well-formed string with one character replaced, inserted or removed. */
const mutated = fc.tuple(wellFormed, fc.nat(), fc.constantFrom('delete', 'insert', 'replace'), fc.constantFrom('0', '9', '-', ':', '.', 'T', 'Z', '+', ' ', '\u0660', 'a', '\n')).map(([s, at, op, ch]) => {
  const i = at % (s.length + 1);
  return op === 'delete' ? s.slice(0, i) + s.slice(i + 1) : op === 'insert' ? s.slice(0, i) + ch + s.slice(i) : s.slice(0, i) + ch + s.slice(i + 1);
});

describe('isDateTime by hand', () => {
  it('agrees with the regular-expression reading on generated near-format strings', () => {
    fc.assert(fc.property(fc.oneof(wellFormed, mutated), (s) => {
      expect(isDateTime(s)).toBe(reference(s));
    }), { numRuns: 20000 });
  });
  it('agrees on arbitrary strings', () => {
    fc.assert(fc.property(fc.string({ maxLength: 40 }), (s) => {
      expect(isDateTime(s)).toBe(reference(s));
    }), { numRuns: 5000 });
  });
  it('on the edges: leap days, leap seconds, offsets, fractions, case, digits outside ASCII', () => {
    const cases: Array<[string, boolean]> = [
      ['2026-11-30T06:00:00.000Z', true],
      ['2024-02-29T00:00:00Z', true],
      ['2023-02-29T00:00:00Z', false],
      ['2000-02-29T00:00:00Z', true],
      ['1900-02-29T00:00:00Z', false],
      ['2026-12-31T23:59:60z', true],
      ['2026-12-31t23:59:61Z', false],
      ['2026-01-01T00:00:00+23:59', true],
      ['2026-01-01T00:00:00-24:00', false],
      ['2026-01-01T00:00:00+05:60', false],
      ['2026-01-01T00:00:00.Z', false],
      ['2026-01-01T00:00:00.123456789+01:00', true],
      ['2026-01-01T00:00:00', false],
      ['2026-01-01 00:00:00Z', false],
      ['2026-00-10T00:00:00Z', false],
      ['2026-04-31T00:00:00Z', false],
      ['2026-04-00T00:00:00Z', false],
      ['2026-01-01T24:00:00Z', false],
      ['\u0662026-01-01T00:00:00Z', false],
      ['2026-01-01T00:00:00Z ', false],
      ['2026-01-01T00:00:00+0100', false],
    ];
    for (const [s, ok] of cases) {
      expect(reference(s)).toBe(ok);
      expect(isDateTime(s)).toBe(ok);
    }
  });
});

describe('the registered-type shortcut of the type grammar check', () => {
  it('holds for every registered type: lowercase core grammar, registered category, no issue', async () => {
    const { TYPES, lookupCategory } = await import('../../spec/registry.js');
    const { validateEnvelope } = await import('./envelope.js');
    expect(TYPES.length).toBeGreaterThan(30);
    for (const { type } of TYPES) {
      expect(type).toMatch(/^[a-z0-9_]+(\.[a-z0-9_]+)+$/);
      expect(type.startsWith('x.')).toBe(false);
      expect(lookupCategory(type.slice(0, type.indexOf('.')))).toBeDefined();
      const issues = validateEnvelope({ aep: '0.1', id: 'e', type, time: '2026-01-01T00:00:00Z', source: 'aep://h/a', agent: 'a' });
      expect(issues.filter((i) => i.path === '$.type')).toEqual([]);
    }
  });
  it('still reports unregistered, vendor and malformed types', async () => {
    const { validateEnvelope } = await import('./envelope.js');
    const rule = (type: string): string[] => validateEnvelope({ aep: '0.1', id: 'e', type, time: '2026-01-01T00:00:00Z', source: 'aep://h/a', agent: 'a', session: 's', seq: 0 }).filter((i) => i.path === '$.type').map((i) => i.rule);
    expect(rule('Tool.completed')).toEqual(['type.grammar']);
    expect(rule('nope.thing')).toEqual(['type.category']);
    expect(rule('x.acme')).toEqual(['type.vendor']);
    expect(rule('tool')).toEqual(['type.grammar']);
    expect(rule('x.acme.session.note')).toEqual([]);
  });
});
