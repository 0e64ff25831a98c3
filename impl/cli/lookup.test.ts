/** Name lookups: own names only; a missing or unknown name is a usage error listing the known ones. */
import { describe, expect, it } from 'vitest';
import { UsageError } from './io.js';
import { named, own } from './lookup.js';

const TABLE: Record<string, number> = { alpha: 1, beta: 2 };

function usage(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error('no usage error');
}

describe('own', () => {
  it('finds own names only', () => {
    expect(own(TABLE, 'beta')).toBe(2);
    for (const n of ['__proto__', 'constructor', 'hasOwnProperty', 'gamma']) expect(own(TABLE, n), n).toBeUndefined();
  });
});

describe('named', () => {
  it('the entry of a known name', () => {
    expect(named(TABLE, 'alpha', 'an', 'entry')).toBe(1);
  });

  it('a missing name asks for one and lists them; an unknown one (prototype names too) says so and lists them', () => {
    expect(usage(() => named(TABLE, undefined, 'an', 'adapter'))).toBe('name an adapter: alpha, beta');
    expect(usage(() => named(TABLE, 'gamma', 'a', 'bridge'))).toBe("unknown bridge 'gamma'; known: alpha, beta");
    expect(usage(() => named(TABLE, '__proto__', 'a', 'bridge'))).toBe("unknown bridge '__proto__'; known: alpha, beta");
  });
});
