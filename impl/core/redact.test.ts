import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeWhenPresent } from '../test-utils/suites.js';
import { PII_MARKER, SECRET_MARKER, isCredentialKey, redactText, redactValue, type RedactOptions } from './redact.js';
import { standardPath } from '../test-utils/standard.js';

interface TextCase { name: string; input: string; opts?: RedactOptions; must_contain?: string[]; must_not_contain?: string[] }
interface ValueCase { name: string; input: unknown; opts?: RedactOptions; must_contain?: string[]; must_not_contain?: string[] }
interface Corpus { text_cases: TextCase[]; value_cases?: ValueCase[] }

function checkCorpus(corpus: Corpus): void {
  for (const c of corpus.text_cases) {
    it(`text: ${c.name}`, () => {
      const out = redactText(c.input, c.opts);
      for (const s of c.must_contain ?? []) expect(out, out).toContain(s);
      for (const s of c.must_not_contain ?? []) expect(out, out).not.toContain(s);
      expect(redactText(out, c.opts)).toBe(out); // idempotent
    });
  }
  for (const c of corpus.value_cases ?? []) {
    it(`value: ${c.name}`, () => {
      const before = JSON.stringify(c.input);
      const out = JSON.stringify(redactValue(c.input, c.opts));
      expect(JSON.stringify(c.input)).toBe(before); // never mutates
      for (const s of c.must_contain ?? []) expect(out, out).toContain(s);
      for (const s of c.must_not_contain ?? []) expect(out, out).not.toContain(s);
    });
  }
}

const ours = new URL('../../conformance/fixtures/redaction/cases.json', import.meta.url);
describe('project redaction corpus', () => {
  const corpus = JSON.parse(readFileSync(ours, 'utf8')) as Corpus;
  it('is large enough and names rules', () => {
    expect(corpus.text_cases.length).toBeGreaterThanOrEqual(28);
    for (const c of [...corpus.text_cases, ...(corpus.value_cases ?? [])]) expect((c as { rule?: string }).rule, c.name).toMatch(/^AEP-0003 §9\.4/);
  });
  checkCorpus(corpus);
});

const standard = standardPath('conformance', 'fixtures', 'redaction', 'cases.json');
describeWhenPresent(standard, 'standard redaction corpus', () => {
  checkCorpus(JSON.parse(readFileSync(standard, 'utf8')) as Corpus);
});

describe('redactText exact output', () => {
  it.each([
    ['password=hunter22 next', `password=${SECRET_MARKER} next`],
    ['{"token": "abc123", "n": 1}', `{"token": "${SECRET_MARKER}", "n": 1}`],
    ["secret='x y z' done", `secret='${SECRET_MARKER}' done`],
    ['Authorization: Basic dXNlcjpwYXNz', `Authorization: Basic ${SECRET_MARKER}`],
    ['Authorization: Bearer abcdef12345', `Authorization: Bearer ${SECRET_MARKER}`],
    ['db: postgres://app:pa55word@db.internal:5432/x', `db: postgres://app:${SECRET_MARKER}@db.internal:5432/x`],
    ['see /home/ana/src and C:\\Users\\Ana\\proj', 'see ~/src and ~\\proj'],
    ['call +1 415 555 0100 or (415) 555-0100', `call ${PII_MARKER} or ${PII_MARKER}`],
    ['card 4111 1111 1111 1111 ok', `card ${PII_MARKER} ok`],
    ['ssn 078-05-1120.', `ssn ${PII_MARKER}.`],
    ['password="" empty', 'password="" empty'],
    ['-----BEGIN EC PRIVATE KEY-----\nabc (truncated', SECRET_MARKER],
  ])('%j', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  it('uses the operator home and ignores short configured values', () => {
    expect(redactText('/srv/ana/x and abc', { home: '/srv/ana/', secretValues: ['abc', ''] })).toBe('~/x and abc');
  });

  it.each([
    'released v20.19.0 on 2026-07-03 at 10:00:00Z',
    'the bearer of good news arrived',
    'a bearer instrument is transferable',
    'ran 42 tests in 3.1s, commit 9f1c2ab3d4e5f60718293a4b5c6d7e8f90a1b2c3',
    'max_tokens: 4096 and token_count=12',
    'see https://example.com/home/page and ip 192.168.100.200',
    'task-runner-with-a-very-long-descriptive-name',
    'uuid 550e8400-e29b-41d4-a716-446655440000 order 12345678901234',
  ])('leaves %j alone', (text) => {
    expect(redactText(text)).toBe(text);
  });

  it('returns non-strings and empty strings as given', () => {
    expect(redactText('')).toBe('');
    expect(redactText(42 as unknown as string)).toBe(42);
  });
});

describe('redactValue', () => {
  it('replaces credential-named values whole, keeps null and booleans, recurses', () => {
    const input = { apiKey: { v: 1 }, GITHUB_TOKEN: 7, password: null, is_secret: true, nested: [{ note: 'mail bo@ex.io' }], n: 3 };
    expect(redactValue(input)).toEqual({
      apiKey: SECRET_MARKER, GITHUB_TOKEN: SECRET_MARKER, password: null, is_secret: true, nested: [{ note: `mail ${PII_MARKER}` }], n: 3,
    });
  });
  it('classifies credential keys', () => {
    for (const k of ['token', 'accessToken', 'client_secret', 'Authorization', 'credentials', 'private-key', 'aws.secret']) expect(isCredentialKey(k), k).toBe(true);
    for (const k of ['tokens', 'token_count', 'secret_name', 'author', 'keyboard']) expect(isCredentialKey(k), k).toBe(false);
  });
});

describe('redactText cost', () => {
  it.each([
    ['dotted words', 'a.'.repeat(100_000)],
    ['word run', 'x'.repeat(200_000)],
    ['many BEGIN lines', '-----BEGIN X-----\n'.repeat(5_000)],
    ['digits and dashes', '1-2-'.repeat(50_000)],
    ['at signs', 'a@b.'.repeat(50_000)],
    ['credential words', 'token'.repeat(40_000)],
  ])('stays linear on %s', (_name, text) => {
    const start = performance.now();
    redactText(text);
    expect(performance.now() - start).toBeLessThan(1500);
  });
});

describe('the project corpus catches weak redactors', () => {
  const corpus = JSON.parse(readFileSync(ours, 'utf8')) as Corpus;
  const failures = (impl: (s: string, o?: RedactOptions) => string): number =>
    corpus.text_cases.filter((c) => {
      const out = impl(c.input, c.opts);
      return (c.must_contain ?? []).some((s) => !out.includes(s)) || (c.must_not_contain ?? []).some((s) => out.includes(s));
    }).length;
  it('fails the identity, a floor-only redactor and an over-eager one', () => {
    expect(failures(redactText)).toBe(0);
    expect(failures((s) => s)).toBeGreaterThan(20);
    const floorOnly = (s: string) =>
      s.replace(/-----BEGIN [A-Z ]+-----[\s\S]*?-----END [A-Z ]+-----/g, SECRET_MARKER)
        .replace(/AKIA[0-9A-Z]{16}/g, SECRET_MARKER)
        .replace(/Bearer \S+/g, `Bearer ${SECRET_MARKER}`)
        .replace(/(password|passwd|secret|api[_-]?key|token)\s*[=:]\s*\S+/g, `$1=${SECRET_MARKER}`);
    expect(failures(floorOnly)).toBeGreaterThan(10);
    const overEager = (s: string) => s.replace(/\d+(?:[.-]\d+)+/g, PII_MARKER);
    expect(failures((s, o) => overEager(redactText(s, o)))).toBeGreaterThan(0);
  });
});
