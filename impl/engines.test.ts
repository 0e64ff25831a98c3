/**
 * The Node range `engines` claims is one caret range (ci.sh provisions its lowest version and the
 * newest of its major), and the lockfile stays inside it: every package npm installs (optional
 * platform packages aside) admits the lowest version and the rest of the major, so `npm install`
 * on a claimed Node prints no EBADENGINE warning.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; optional?: boolean; engines?: { node?: string } | string[] }> };

type Version = [number, number, number];
const cmp = (a: Version, b: Version): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** One comparator of an npm range (`^22.13.0`, `>= 22.x`, `20`, `6.*`, `<=1.2`) against `v`, pure. */
function comparator(text: string, v: Version): boolean {
  const m = /^(\^|~|>=|<=|>|<|=)?\s*v?(\d+|[x*])(?:\.(\d+|[x*]))?(?:\.(\d+|[x*]))?(?:-[\w.]+)?$/.exec(text.trim());
  if (!m) throw new Error(`a range this check cannot read: '${text}'`);
  const op = m[1] ?? '';
  const parts = [m[2], m[3], m[4]].map((p) => (p === undefined || p === 'x' || p === '*' ? undefined : Number(p)));
  const [maj, min, pat] = parts;
  if (maj === undefined) return true;
  const lo: Version = [maj, min ?? 0, pat ?? 0];
  // The exclusive upper bound of a partial or caret/tilde version.
  const hi: Version = op === '^' ? (maj > 0 ? [maj + 1, 0, 0] : min !== undefined && min > 0 ? [0, min + 1, 0] : [0, 0, (pat ?? 0) + 1]) : op === '~' || (op === '' && pat === undefined) ? (min === undefined ? [maj + 1, 0, 0] : [maj, min + 1, 0]) : [maj, min ?? 0, (pat ?? 0) + 1];
  switch (op) {
    case '>=':
      return cmp(v, lo) >= 0;
    case '>':
      return cmp(v, pat === undefined ? hi : lo) > 0 || (pat === undefined && cmp(v, hi) >= 0);
    case '<':
      return cmp(v, lo) < 0;
    case '<=':
      return cmp(v, hi) < 0;
    default:
      return cmp(v, lo) >= 0 && cmp(v, hi) < 0;
  }
}

/** Whether `v` satisfies an npm range (`a || b`, each a space-separated AND of comparators), pure. */
export function satisfies(range: string, v: Version): boolean {
  return range.split('||').some((set) => {
    const words = set.trim().replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1').split(/\s+/).filter(Boolean);
    return words.length === 0 || words.every((w) => comparator(w, v));
  });
}

describe('the Node range', () => {
  const m = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(pkg.engines.node);
  it('engines.node is one caret range (what ci.sh provisions from)', () => {
    expect(m, pkg.engines.node).not.toBeNull();
  });
  const lowest: Version = [Number(m?.[1]), Number(m?.[2]), Number(m?.[3])];
  const newest: Version = [lowest[0], 99, 0];
  it('every installed package admits the lowest claimed version and the rest of its major', () => {
    const outside: string[] = [];
    for (const [path, p] of Object.entries(lock.packages)) {
      const range = !Array.isArray(p.engines) ? p.engines?.node : undefined;
      if (path === '' || p.optional || range === undefined) continue;
      for (const v of [lowest, newest]) if (!satisfies(range, v)) outside.push(`${path.replace(/^.*node_modules\//, '')}@${p.version} wants ${range}; Node ${v.join('.')} is claimed`);
    }
    expect(outside).toEqual([]);
  });
  it('reads npm ranges as npm does (self-test)', () => {
    expect(satisfies('^22.22.2 || ^24.15.0 || >=26.0.0', [22, 13, 0])).toBe(false);
    expect(satisfies('^22.22.2 || ^24.15.0 || >=26.0.0', [22, 23, 0])).toBe(true);
    expect(satisfies('>=23.5.0 || ^22.13.0 || ^20.17.0', [22, 13, 0])).toBe(true);
    expect(satisfies('>=23.5.0 || ^22.13.0 || ^20.17.0', [22, 12, 9])).toBe(false);
    expect(satisfies('>= 22.x', [22, 0, 0])).toBe(true);
    expect(satisfies('>= 22.x', [20, 20, 2])).toBe(false);
    expect(satisfies('18 || 20 || >=22', [21, 0, 0])).toBe(false);
    expect(satisfies('6.* || 8.* || >= 10.*', [22, 13, 0])).toBe(true);
    expect(satisfies('^12.17.0 || ^14.13 || >=16.0.0', [14, 20, 0])).toBe(true);
    expect(satisfies('>=18 <19', [18, 5, 0])).toBe(true);
    expect(satisfies('>=18 <19', [19, 0, 0])).toBe(false);
  });
});
