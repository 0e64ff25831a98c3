/**
 * The floors of the code base, as data, and a pure judge of an import graph against them.
 * ARCHITECTURE.md explains each floor; floors.test.ts scans the tree and holds every static
 * import of a non-test module to the rule: a module imports its own floor or lower ones, never
 * a higher one. Lazy `import()` is how a higher floor is loaded on purpose (the registry's
 * loaders, the CLI's verbs) and is not judged here; cycles through it are (`npm run cycles`).
 */

export interface Floor {
  /** 0 is the lowest. */
  level: number;
  name: string;
  /** Path prefixes (relative to the package root, `/`-separated) or exact files. */
  paths: readonly string[];
}

/** Most specific match wins, so `impl/adapters/codex/descriptor.ts` is data, not an adapter. */
export const FLOORS: readonly Floor[] = [
  { level: 0, name: 'protocol', paths: ['spec/', 'impl/core/'] },
  {
    level: 1,
    name: 'contracts and data',
    paths: ['impl/contract/', 'impl/http/', 'impl/integrations/', 'impl/integrations/registry.ts', 'impl/floors.ts', '*/descriptor.ts', '*/deviations.ts'],
  },
  { level: 2, name: 'kits', paths: ['impl/adapter-kit/', 'impl/bridge-kit/', 'impl/relay-client/'] },
  {
    level: 3,
    name: 'components',
    paths: ['impl/adapters/', 'impl/bridges/', 'impl/relay/', 'impl/check-live/', 'impl/demo-agent/', 'impl/mcp/', 'impl/operator/', 'impl/console/'],
  },
  { level: 4, name: 'runners and assemblies', paths: ['runners/', 'impl/demo/', 'impl/reference-api.ts', 'impl/bridge-api.ts'] },
  { level: 5, name: 'entry points', paths: ['impl/cli/', 'bench/', 'reliability/', 'spec/generate.ts'] },
];

function matches(path: string, pattern: string): number {
  if (pattern.startsWith('*/')) {
    const tail = pattern.slice(1);
    return path.endsWith(tail) && path.startsWith('impl/') && path.split('/').length === (/^impl\/(adapters|bridges)\//.test(path) ? 4 : 3) ? 1000 : -1;
  }
  return path.startsWith(pattern) ? pattern.length : -1;
}

/** The floor of a file, or undefined for a file outside every floor. */
export function floorOf(path: string): Floor | undefined {
  let best: Floor | undefined;
  let bestScore = -1;
  for (const floor of FLOORS) {
    for (const p of floor.paths) {
      const score = matches(path, p);
      if (score > bestScore) {
        best = floor;
        bestScore = score;
      }
    }
  }
  return best;
}

/** One import that climbs: `from` (floor `fromLevel`) imports `to` (a higher floor). */
export interface FloorViolation {
  rule: 'floors.import.upward';
  from: string;
  to: string;
  message: string;
}

/** Judges static import edges (`[importer, imported]`, package-relative paths) against FLOORS. */
export function judgeFloors(edges: Iterable<readonly [string, string]>): FloorViolation[] {
  const out: FloorViolation[] = [];
  for (const [from, to] of edges) {
    const a = floorOf(from);
    const b = floorOf(to);
    if (a === undefined || b === undefined || b.level <= a.level) continue;
    out.push({
      rule: 'floors.import.upward',
      from,
      to,
      message: `${from} (floor ${a.level}, ${a.name}) imports ${to} (floor ${b.level}, ${b.name}): move what it needs down a floor (ARCHITECTURE.md, "Floors"), or load it lazily from the higher floor`,
    });
  }
  return out;
}

/** The static import specifiers of a module's text (`import ... from`, `export ... from`, bare `import '...'`). */
export function staticImports(text: string): string[] {
  const out: string[] = [];
  const re = /^\s*(?:import|export)\s(?:[^'"]*?\sfrom\s)?\s*['"]([^'"]+)['"]/gm;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push(m[1]!);
  return out;
}

/** A test helper: a module under a `test-utils/` folder. Tests and helpers may import any floor. */
export function isTestHelper(path: string): boolean {
  return path.startsWith('test-utils/') || path.includes('/test-utils/');
}

/** One source module that imports a test helper. */
export interface TestHelperViolation {
  rule: 'floors.import.test-helper';
  from: string;
  to: string;
  message: string;
}

/** Judges static import edges: no source module (not a test, not a helper) imports a `test-utils/` module. */
export function judgeTestHelpers(edges: Iterable<readonly [string, string]>): TestHelperViolation[] {
  const out: TestHelperViolation[] = [];
  for (const [from, to] of edges) {
    if (isTestHelper(from) || /\.test\.c?ts$/.test(from) || !isTestHelper(to)) continue;
    out.push({
      rule: 'floors.import.test-helper',
      from,
      to,
      message: `${from} (source) imports ${to} (a test helper): source never depends on test-utils/; move what it needs out of test-utils/`,
    });
  }
  return out;
}
