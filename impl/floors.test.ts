import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { floorOf, isTestHelper, judgeFloors, judgeTestHelpers, staticImports } from './floors.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TREES = ['spec', 'impl', 'runners', 'bench', 'reliability'];

/** Non-test TypeScript modules of the package, the `test-utils/` helpers included. */
function modules(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(ROOT, dir))) {
      const rel = posix.join(dir, name);
      if (name === 'node_modules' || name === 'schemas') continue;
      if (statSync(join(ROOT, rel)).isDirectory()) walk(rel);
      else if (/\.c?ts$/.test(name) && !/\.test\.c?ts$/.test(name) && !name.endsWith('.d.ts')) out.push(rel);
    }
  };
  for (const t of TREES) walk(t);
  return out;
}

/** `./x.js` from `impl/a/b.ts` → `impl/a/x.ts` (or `.cts` for `.cjs`); undefined for packages. */
function resolveSpecifier(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const joined = posix.normalize(posix.join(posix.dirname(from), spec));
  return joined.replace(/\.js$/, '.ts').replace(/\.cjs$/, '.cts');
}

function edges(): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const file of modules()) {
    for (const spec of staticImports(readFileSync(join(ROOT, file), 'utf8'))) {
      const to = resolveSpecifier(file, spec);
      if (to !== undefined) out.push([file, to]);
    }
  }
  return out;
}

describe('floors', () => {
  it('no module imports a higher floor', () => {
    const found = edges();
    expect(found.length).toBeGreaterThan(500); // the scan saw the tree
    // Test helpers may import any floor.
    expect(judgeFloors(found.filter(([from]) => !isTestHelper(from))).map((v) => v.message)).toEqual([]);
  });

  it('scans the test helpers too, and no source module imports one', () => {
    const found = edges();
    expect(found.filter(([from]) => isTestHelper(from)).length).toBeGreaterThan(50); // the helpers were scanned
    expect(judgeTestHelpers(found).map((v) => v.message)).toEqual([]);
  });

  it('flags a source module importing a test helper (a deliberately broken graph)', () => {
    const v = judgeTestHelpers([
      ['impl/relay/server.ts', 'impl/relay/test-utils/use-relay.ts'],
      ['impl/relay/server.test.ts', 'impl/relay/test-utils/use-relay.ts'],
      ['impl/relay/test-utils/use-relay.ts', 'impl/test-utils/cli-io.ts'],
      ['impl/cli/main.ts', 'impl/relay/server.ts'],
    ]);
    expect(v.map((x) => [x.rule, x.from])).toEqual([['floors.import.test-helper', 'impl/relay/server.ts']]);
  });

  it('no bridge, adapter or operator module imports impl/cli', () => {
    const bad = edges().filter(([from, to]) => !isTestHelper(from) && /^impl\/(bridges\/|adapters\/|operator\/)/.test(from) && to.startsWith('impl/cli/'));
    expect(bad).toEqual([]);
  });

  it('classifies by the most specific path', () => {
    expect(floorOf('impl/core/envelope.ts')?.level).toBe(0);
    expect(floorOf('impl/adapters/codex/descriptor.ts')?.level).toBe(1);
    expect(floorOf('impl/adapters/codex/deviations.ts')?.level).toBe(1);
    expect(floorOf('impl/adapter-kit/engine.ts')?.level).toBe(2);
    expect(floorOf('impl/relay-client/transport.ts')?.level).toBe(2);
    expect(floorOf('impl/adapters/codex/adapter.ts')?.level).toBe(3);
    expect(floorOf('runners/conformance/runner.ts')?.level).toBe(4);
    expect(floorOf('impl/cli/main.ts')?.level).toBe(5);
    expect(floorOf('README.md')).toBeUndefined();
  });

  it('flags an upward import and names both ends (a deliberately broken graph)', () => {
    const v = judgeFloors([
      ['impl/operator/sender.ts', 'impl/cli/io.ts'],
      ['impl/cli/io.ts', 'impl/contract/cli.ts'],
    ]);
    expect(v).toHaveLength(1);
    expect(v[0]).toMatchObject({ rule: 'floors.import.upward', from: 'impl/operator/sender.ts', to: 'impl/cli/io.ts' });
    expect(v[0]!.message).toContain('floor 3');
  });

  it('reads static imports, multi-line and re-exports, not dynamic ones', () => {
    const text = [
      "import { a,",
      "  b } from './a.js';",
      "export { c } from '../c.js';",
      "import './side.js';",
      "import type { T } from './t.js';",
      "const m = await import('./lazy.js');",
      " * import x from 'comment.js'",
    ].join('\n');
    expect(staticImports(text)).toEqual(['./a.js', '../c.js', './side.js', './t.js']);
  });

});
