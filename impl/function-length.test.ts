import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkTree, judgeLengths, longFunctions, measureFunctions, parseAllowList, MAX_FUNCTION_LINES } from './test-utils/function-length.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DOC = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');

/** A source text with a function of `n` body lines. */
function bodyOf(n: number): string {
  return Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
}

describe('function length (ARCHITECTURE.md "Long functions")', () => {
  it('no function in impl/ or runners/ is over 80 lines unless the doc names it; no stale row', () => {
    const { problems, scanned } = checkTree(ROOT, ['impl', 'runners'], DOC);
    expect(scanned).toBeGreaterThan(300); // the scan saw the tree
    expect(problems.map((p) => p.message)).toEqual([]);
  });

  it('every row of the table has a reason', () => {
    for (const row of parseAllowList(DOC)) expect(row.reason.length).toBeGreaterThan(3);
  });

  it('measures declarations, methods, arrows and function expressions by name (a deliberately long one)', () => {
    const src = [
      `export function long(): void {\n${bodyOf(MAX_FUNCTION_LINES)}\n}`,
      `function short(): void {\n${bodyOf(3)}\n}`,
      `const arrow = (): void => {\n${bodyOf(MAX_FUNCTION_LINES - 1)}\n};`,
      `const expr = function (): void {\n${bodyOf(MAX_FUNCTION_LINES - 2)}\n};`,
      `class Box {\n  method(): void {\n${bodyOf(MAX_FUNCTION_LINES)}\n  }\n}`,
      `const obj = { prop: (): void => {\n${bodyOf(MAX_FUNCTION_LINES)}\n} };`,
      `[1].map(() => {\n${bodyOf(MAX_FUNCTION_LINES + 5)}\n});`, // anonymous: not named, not measured
    ].join('\n');
    const all = measureFunctions('inline.ts', src);
    expect(all.find((f) => f.name === 'short')?.lines).toBe(5);
    expect(longFunctions('inline.ts', src).map((f) => [f.name, f.lines])).toEqual([
      ['long', MAX_FUNCTION_LINES + 2],
      ['arrow', MAX_FUNCTION_LINES + 1],
      ['Box.method', MAX_FUNCTION_LINES + 2],
      ['prop', MAX_FUNCTION_LINES + 2],
    ]);
    // exactly 80 lines passes
    expect(longFunctions('inline.ts', `function edge(): void {\n${bodyOf(MAX_FUNCTION_LINES - 2)}\n}`)).toEqual([]);
  });

  it('judges an unlisted long function, a moved count and a stale row', () => {
    const found = [
      { file: 'impl/a.ts', name: 'big', line: 1, lines: 120 },
      { file: 'impl/b.ts', name: 'listed', line: 1, lines: 90 },
    ];
    const doc = [
      '## Long functions',
      '',
      '| file | function | lines | reason |',
      '|---|---|---|---|',
      '| `impl/b.ts` | `listed` | 91 | not yet split |',
      '| `impl/c.ts` | `gone` | 100 | not yet split |',
      '',
      '## Next',
      '| file | function | lines | reason |',
    ].join('\n');
    const rows = parseAllowList(doc);
    expect(rows).toEqual([
      { file: 'impl/b.ts', name: 'listed', lines: 91, reason: 'not yet split' },
      { file: 'impl/c.ts', name: 'gone', lines: 100, reason: 'not yet split' },
    ]);
    expect(judgeLengths(found, rows).map((p) => [p.rule, p.name])).toEqual([
      ['function-length.over', 'big'],
      ['function-length.count', 'listed'],
      ['function-length.stale', 'gone'],
    ]);
  });

  it('refuses a table without a reason or without the section', () => {
    expect(() => parseAllowList('# x\n')).toThrow(/no "Long functions"/);
    expect(() => parseAllowList('## Long functions\n| file | function | lines | reason |\n|---|---|---|---|\n| a.ts | f | 90 |  |\n')).toThrow(/reason/);
  });
});
