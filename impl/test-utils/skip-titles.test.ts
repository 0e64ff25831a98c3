/**
 * Every skip names its reason where the skip summary (skip-reporter.ts) reads it: a conditional
 * skip's title carries `(skipped: WHY)` (through `skipped(cond, WHY)`, skip.ts) or a `needs ...`
 * title. Scans every test file's source for the ways vitest skips.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skipReason } from './skip-reporter.js';
import { skipped, WHY } from './skip.js';

const ROOT = join(import.meta.dirname, '..', '..');

function testFiles(dir: string, out: string[] = []): string[] {
  for (const n of readdirSync(dir)) {
    if (['node_modules', 'dist', 'coverage', '.git', 'reports'].includes(n)) continue;
    const p = join(dir, n);
    if (statSync(p).isDirectory()) testFiles(p, out);
    else if (n.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

/** A title expression names a reason when it holds one of these (the reason itself is text or a helper call). */
const NAMES_A_REASON = /skipped\(|skipNote\(|\(skipped: |\$\{SKIP\}|\$\{why|\$\{reason|needs /;

/** The title expression after `.skipIf(cond)(` (or `describe.skip(`): up to the test body, pure. */
export function titleAfter(text: string, from: number): string {
  const end = text.slice(from).search(/,\s*(?:async\s*)?(?:\([^)]*\)|\w+)\s*=>|,\s*(?:async\s+)?function\b/);
  return text.slice(from, end < 0 ? from + 400 : from + end);
}

/** Every skip in `text` whose title names no reason: `[line, title]`, pure. */
export function unnamedSkips(text: string): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  const lineOf = (i: number): number => text.slice(0, i).split('\n').length;
  for (const m of text.matchAll(/\.(?:skipIf|runIf)\(/g)) {
    // Skip over the condition (balanced parentheses) to the title call.
    let depth = 0;
    let i = m.index! + m[0].length - 1;
    for (; i < text.length; i++) {
      if (text[i] === '(') depth++;
      else if (text[i] === ')' && --depth === 0) break;
    }
    if (text[i + 1] !== '(') continue;
    const title = titleAfter(text, i + 2);
    if (!NAMES_A_REASON.test(title)) out.push([lineOf(m.index!), title.trim()]);
  }
  for (const m of text.matchAll(/\b(?:describe|it|test)\.skip\(/g)) {
    const title = titleAfter(text, m.index! + m[0].length);
    if (!NAMES_A_REASON.test(title)) out.push([lineOf(m.index!), title.trim()]);
  }
  // `const suite = ok ? describe : describe.skip;` then `suite(title, ...)`: each title names the reason.
  const alias = /const (\w+) = [^;]*\bdescribe\.skip;/.exec(text)?.[1];
  if (alias) {
    for (const m of text.matchAll(new RegExp(`^${alias}\\(`, 'gm'))) {
      const title = titleAfter(text, m.index! + m[0].length);
      if (!NAMES_A_REASON.test(title)) out.push([lineOf(m.index!), title.trim()]);
    }
  }
  return out;
}

describe('every skip names its reason', () => {
  it('in every test file', () => {
    // This file is left out: its self-test holds skips without a reason on purpose.
    const files = ['impl', 'runners', 'spec', 'bench', 'reliability'].flatMap((d) => testFiles(join(ROOT, d))).filter((f) => f !== join(import.meta.dirname, 'skip-titles.test.ts'));
    expect(files.length).toBeGreaterThan(100);
    const unnamed = files.flatMap((f) => unnamedSkips(readFileSync(f, 'utf8')).map(([line, title]) => `${relative(ROOT, f)}:${line}: ${title}`));
    expect(unnamed).toEqual([]);
  });
  it('the scan finds a skip without a reason, in each form (self-test)', () => {
    expect(unnamedSkips("describe.skipIf(!existsSync(x))('against the files', () => {})").length).toBe(1);
    expect(unnamedSkips("it.skipIf(!a || f(b))(`t ${n}`, async () => {})").length).toBe(1);
    expect(unnamedSkips("describe.skip('later', () => {})").length).toBe(1);
    expect(unnamedSkips("const suite = ok ? describe : describe.skip;\nsuite('the fleet', () => {});").length).toBe(1);
    expect(unnamedSkips("describe.skipIf(!ok)(`against the files${skipped(!ok, WHY.build)}`, () => {})")).toEqual([]);
  });
  it('skipped() writes the form the summary reads, and nothing when the test runs', () => {
    expect(skipReason(`a suite${skipped(true, WHY.standard)} > a test`)).toBe(WHY.standard);
    expect(skipReason(`a suite${skipped(true, WHY.build)} > a test`)).toBe(WHY.build);
    expect(skipped(false, WHY.build)).toBe('');
  });
});
