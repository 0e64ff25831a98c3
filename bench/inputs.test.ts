import { describe, expect, it } from 'vitest';
import { parseJsonl, validateStream } from '../impl/core/stream.js';
import { redactText } from '../impl/core/redact.js';
import { FLOOR, floorRedact, leaked } from './cases/redact.js';
import { lcg, mixedText, syntheticStream } from './inputs.js';

describe('syntheticStream', () => {
  it('is exactly n valid Events from several sessions, deterministic', () => {
    const text = syntheticStream(1_000);
    const { events, issues } = parseJsonl(text);
    expect(issues).toEqual([]);
    expect(events).toHaveLength(1_000);
    expect(validateStream(events)).toEqual([]);
    // 12 full groups of 4 interleaved 20-Event sessions (960 Events), then 40 Events of 4 more.
    expect(new Set(events.map((e) => (e.value as { session: string }).session)).size).toBe(52);
    expect(syntheticStream(1_000)).toBe(text);
  });

  it('interleaves sessions but keeps each one in seq order', () => {
    const values = parseJsonl(syntheticStream(40)).events.map((e) => e.value as { session: string; seq: number });
    expect(values.slice(0, 4).map((v) => v.session)).toEqual(['bench-s0', 'bench-s1', 'bench-s2', 'bench-s3']);
    const last = new Map<string, number>();
    for (const v of values) {
      expect(v.seq).toBe((last.get(v.session) ?? -1) + 1);
      last.set(v.session, v.seq);
    }
  });

  it('still validates when cut mid-session', () => {
    const { events } = parseJsonl(syntheticStream(37));
    expect(events).toHaveLength(37);
    expect(validateStream(events)).toEqual([]);
  });

  it('refuses a non-positive size', () => {
    expect(() => syntheticStream(0)).toThrow(RangeError);
  });
});

describe('mixedText', () => {
  const { text, secrets } = mixedText(64 * 1024);

  it('is exactly the asked size, ASCII', () => {
    expect(text).toHaveLength(64 * 1024);
    expect(/^[\x00-\x7f]*$/.test(text)).toBe(true);
  });

  it('plants secrets of every floor class, each present in the text', () => {
    expect(secrets.some((s) => /^AKIA[0-9A-Z]{16}$/.test(s))).toBe(true);
    expect(secrets.some((s) => s.startsWith('eyJ'))).toBe(true);
    expect(secrets.some((s) => s.startsWith('pw-'))).toBe(true);
    expect(text).toContain('-----BEGIN PRIVATE KEY-----');
    expect(text).toContain('Authorization: Bearer ');
    expect(leaked(text, secrets)).toEqual(secrets);
  });

  it('carries what only the hardened pipeline removes: PII and home paths', () => {
    expect(text).toMatch(/@example\.org/);
    expect(text).toMatch(/\/home\/[a-z]+\//);
    const ours = redactText(text);
    expect(ours).not.toMatch(/@example\.org|\/home\/[a-z]+\//);
    expect(floorRedact(text)).toMatch(/@example\.org/);
  });

  it('both sides of the redact bench remove every planted secret', () => {
    expect(leaked(redactText(text), secrets)).toEqual([]);
    expect(leaked(floorRedact(text), secrets)).toEqual([]);
  });

  it('leaked() catches a redactor that misses a class (self-test)', () => {
    const withoutJwt = FLOOR.filter(([pattern]) => !pattern.source.startsWith('eyJ'));
    expect(withoutJwt).toHaveLength(4);
    const left = leaked(floorRedact(text, withoutJwt), secrets);
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((s) => s.startsWith('eyJ'))).toBe(true);
  });
});

describe('lcg', () => {
  it('is deterministic per seed and stays in range', () => {
    const a = lcg(7);
    const b = lcg(7);
    const xs = Array.from({ length: 100 }, () => a(10));
    expect(Array.from({ length: 100 }, () => b(10))).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 10)).toBe(true);
    expect(new Set(xs).size).toBe(10);
    // Not periodic in its low bits: 64-symbol strings do not repeat every 64 draws.
    const c = lcg(1);
    const s = Array.from({ length: 128 }, () => c(64));
    expect(s.slice(0, 64)).not.toEqual(s.slice(64));
  });
});
