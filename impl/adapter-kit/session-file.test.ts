/** Session log file names: safe on disk, one file per session id, the earlier names kept where they were safe. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_STEM, sessionFileName, sessionFileStem, sessionOfFileName } from './session-file.js';

describe('sessionFileName', () => {
  it('the earlier collision: a/b and a_b get two files', () => {
    expect(sessionFileName('a/b')).toBe('a%2Fb.jsonl');
    expect(sessionFileName('a_b')).toBe('a_b.jsonl');
  });

  it('a safe id keeps the name it had before (UUIDs, dotted ids), so its log goes on in the same file', () => {
    expect(sessionFileName('0f8e1c2a-5b7d-4e3f-9a10-1b2c3d4e5f60')).toBe('0f8e1c2a-5b7d-4e3f-9a10-1b2c3d4e5f60.jsonl');
    expect(sessionFileName('sess.2026-12-01_run7')).toBe('sess.2026-12-01_run7.jsonl');
  });

  it('escapes separators, traversal, leading dots and dashes, percent signs and non-ASCII bytes', () => {
    expect(sessionFileName('../../etc/passwd')).toBe('%2E.%2F..%2Fetc%2Fpasswd.jsonl');
    expect(sessionFileName('..')).toBe('%2E..jsonl');
    expect(sessionFileName('.hidden')).toBe('%2Ehidden.jsonl');
    expect(sessionFileName('-rf')).toBe('%2Drf.jsonl');
    expect(sessionFileName('_x')).toBe('%5Fx.jsonl');
    expect(sessionFileName('50%')).toBe('50%25.jsonl');
    expect(sessionFileName('a\\b:c')).toBe('a%5Cb%3Ac.jsonl');
    expect(sessionFileName('é')).toBe('%C3%A9.jsonl');
    expect(sessionFileName('a b')).toBe('a%20b.jsonl');
  });

  it('the empty id is "%", apart from the id "session" it used to share a file with', () => {
    expect(sessionFileName('')).toBe('%.jsonl');
    expect(sessionFileName('session')).toBe('session.jsonl');
  });

  it('a long id is cut and ends in ~ and 32 hex digits of its hash; ids that share the first 200 characters differ', () => {
    const a = `${'x'.repeat(250)}a`;
    const b = `${'x'.repeat(250)}b`;
    const na = sessionFileStem(a);
    expect(na).toMatch(/^x{167}~[0-9a-f]{32}$/);
    expect(na.length).toBe(MAX_STEM);
    expect(sessionFileStem(b)).not.toBe(na);
    expect(sessionFileStem('x'.repeat(MAX_STEM))).toBe('x'.repeat(MAX_STEM));
    expect(sessionFileStem('x'.repeat(MAX_STEM + 1))).toMatch(/^x{167}~[0-9a-f]{32}$/);
  });

  it('the cut never splits a %XX escape', () => {
    for (let pad = 160; pad < 170; pad++) {
      const stem = sessionFileStem(`${'y'.repeat(pad)}${'/'.repeat(80)}`);
      const prefix = stem.slice(0, stem.indexOf('~'));
      expect(prefix).toMatch(/^y*(?:%2F)*$/);
      expect(stem.length).toBeLessThanOrEqual(MAX_STEM);
    }
  });

  it('a lone surrogate is told apart from U+FFFD (both would be the bytes EF BF BD)', () => {
    expect(sessionFileStem('\ufffd')).toBe('%EF%BF%BD');
    expect(sessionFileStem('\ud800')).toMatch(/^%EF%BF%BD~[0-9a-f]{32}$/);
    expect(sessionFileStem('\udc00')).not.toBe(sessionFileStem('\ud800'));
  });

  it('is injective and safe over arbitrary ids (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 260 }), fc.string({ unit: 'binary', maxLength: 260 }), (a, b) => {
        const na = sessionFileName(a);
        expect(na).toMatch(/^(?:[A-Za-z0-9]|%)[A-Za-z0-9._%~-]*\.jsonl$/);
        expect(na.length).toBeLessThanOrEqual(MAX_STEM + '.jsonl'.length);
        if (a !== b) expect(sessionFileName(b)).not.toBe(na);
      }),
      { numRuns: 2000 },
    );
    // near misses: ids that differ only where the earlier mapping folded them together
    const near = ['a/b', 'a_b', 'a b', 'a%b', 'a%2Fb', 'a\\b', '_ab', 'ab', '.ab', '-ab', 'a.b', ''];
    expect(new Set(near.map(sessionFileName)).size).toBe(near.length);
  });
});

describe('sessionOfFileName', () => {
  it('gives back the id of every unhashed name', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (s) => {
        expect(sessionOfFileName(sessionFileName(s))).toBe(s);
      }),
    );
  });

  it('undefined for hashed names, non-canonical spellings and files that are not logs', () => {
    expect(sessionOfFileName(sessionFileName('z'.repeat(300)))).toBeUndefined();
    expect(sessionOfFileName('a%2fb.jsonl')).toBeUndefined(); // lower-case hex is not this mapping's
    expect(sessionOfFileName('a%41.jsonl')).toBeUndefined(); // 'A' is never escaped
    expect(sessionOfFileName('_old.jsonl')).toBeUndefined();
    expect(sessionOfFileName('a%.jsonl')).toBeUndefined();
    expect(sessionOfFileName('notes.txt')).toBeUndefined();
    expect(sessionOfFileName('a%2Fb.jsonl')).toBe('a/b');
  });
});
