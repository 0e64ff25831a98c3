/**
 * docs/dependencies.md gives every package of package.json its reason: a dependency added
 * without a row there fails, and so does a row for a package that is gone.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (rel: string): string => readFileSync(new URL(`../../${rel}`, import.meta.url), 'utf8');

/** The package names in the first cell of the tables' rows (`| \`name\` | ...`). */
function documentedPackages(markdown: string): string[] {
  return [...markdown.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!);
}

describe('docs/dependencies.md', () => {
  it('has one row with a reason for every dependency of package.json, and none for a package that is not there', () => {
    const pkg = JSON.parse(read('package.json')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
    const declared = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})].sort();
    const documented = documentedPackages(read('docs/dependencies.md'));
    expect(documented.length, 'a package documented twice').toBe(new Set(documented).size);
    expect([...documented].sort()).toEqual(declared);
  });

  it('reads the package of each row, and misses a dependency that has none', () => {
    expect(documentedPackages('| package | why |\n|---|---|\n| `ws` | `^8` | sockets |\n| `zod` | `^4` | schemas |\n')).toEqual(['ws', 'zod']);
    expect(documentedPackages('| `ws` | sockets |\n').includes('zod')).toBe(false);
  });
});
