/**
 * The function-length rule (issue 35): no named function in impl/ or runners/ is over
 * MAX_FUNCTION_LINES lines unless ARCHITECTURE.md's "Long functions" table names it with a reason.
 * Test-only: the TypeScript compiler API measures, `parseAllowList` reads the table.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';

export const MAX_FUNCTION_LINES = 80;

export interface FunctionLength {
  file: string;
  /** `name`, or `Class.method` for a class member. */
  name: string;
  /** First line of the function (1-based). */
  line: number;
  /** Lines from the function's first token to its last, both included. */
  lines: number;
}

export interface AllowEntry {
  file: string;
  name: string;
  lines: number;
  reason: string;
}

export interface LengthProblem {
  rule: 'function-length.over' | 'function-length.stale' | 'function-length.count';
  file: string;
  name: string;
  message: string;
}

function propertyName(name: ts.PropertyName | ts.BindingName, sf: ts.SourceFile): string | undefined {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  if (ts.isComputedPropertyName(name)) return `[${name.expression.getText(sf)}]`;
  return undefined;
}

function className(node: ts.Node): string | undefined {
  const parent = node.parent;
  if (parent !== undefined && (ts.isClassDeclaration(parent) || ts.isClassExpression(parent))) return parent.name?.text ?? 'class';
  return undefined;
}

/** The name a function goes by, or undefined for an anonymous one (a callback). */
function nameOf(node: ts.Node, sf: ts.SourceFile): string | undefined {
  if (ts.isFunctionDeclaration(node)) return node.name?.text ?? 'default';
  if (ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)) {
    const own = propertyName(node.name, sf);
    const owner = className(node);
    return own === undefined ? undefined : owner === undefined ? own : `${owner}.${own}`;
  }
  if (ts.isConstructorDeclaration(node)) return `${className(node) ?? 'class'}.constructor`;
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
    const parent = node.parent;
    if (ts.isVariableDeclaration(parent) && parent.initializer === node) return propertyName(parent.name, sf);
    if (ts.isPropertyAssignment(parent) && parent.initializer === node) return propertyName(parent.name, sf);
    if (ts.isPropertyDeclaration(parent) && parent.initializer === node) {
      const own = propertyName(parent.name, sf);
      const owner = className(parent);
      return own === undefined ? undefined : owner === undefined ? own : `${owner}.${own}`;
    }
    if (ts.isBinaryExpression(parent) && parent.right === node && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      return parent.left.getText(sf);
    }
    if (ts.isFunctionExpression(node) && node.name !== undefined) return node.name.text;
  }
  return undefined;
}

/** Every named function of one source text with its length in lines. */
export function measureFunctions(file: string, text: string): FunctionLength[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: FunctionLength[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const name = nameOf(node, sf);
      if (name !== undefined) {
        const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
        const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
        out.push({ file, name, line: first + 1, lines: last - first + 1 });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The functions over `max` lines. */
export function longFunctions(file: string, text: string, max = MAX_FUNCTION_LINES): FunctionLength[] {
  return measureFunctions(file, text).filter((f) => f.lines > max);
}

/** Non-test TypeScript sources under `trees` (relative to `root`): no `*.test.ts`, no `test-utils/`. */
export function sourceFiles(root: string, trees: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(root, dir))) {
      const rel = posix.join(dir, name);
      if (name === 'node_modules' || name === 'test-utils') continue;
      if (statSync(join(root, rel)).isDirectory()) walk(rel);
      else if (/\.c?ts$/.test(name) && !/\.test\.c?ts$/.test(name) && !name.endsWith('.d.ts')) out.push(rel);
    }
  };
  for (const t of trees) walk(t);
  return out.sort();
}

const cell = (s: string): string => s.trim().replace(/^`(.*)`$/, '$1');

/**
 * The rows of the "Long functions" section's table: `| file | function | lines | reason |`.
 * Throws when the section or its table is missing (the doc must carry it, even empty).
 */
export function parseAllowList(markdown: string): AllowEntry[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => /^#{2,3} Long functions\s*$/.test(l));
  if (start < 0) throw new Error('ARCHITECTURE.md has no "Long functions" section');
  const out: AllowEntry[] = [];
  let header = false;
  for (const line of lines.slice(start + 1)) {
    if (/^#{1,3} /.test(line)) break;
    if (!line.startsWith('|')) continue;
    const cells = line.split('|').slice(1, -1);
    if (!header) {
      if (cells.map(cell).join(',') !== 'file,function,lines,reason') throw new Error(`"Long functions" table header is not file, function, lines, reason: ${line}`);
      header = true;
      continue;
    }
    if (cells.every((c) => /^\s*-+\s*$/.test(c))) continue;
    const [file, name, count, reason] = cells.map(cell);
    if (file === undefined || name === undefined || count === undefined || reason === undefined || !/^\d+$/.test(count) || reason === '') {
      throw new Error(`"Long functions" row needs a file, a function, a line count and a reason: ${line}`);
    }
    out.push({ file, name, lines: Number(count), reason });
  }
  if (!header) throw new Error('"Long functions" section has no table');
  return out;
}

/** Long functions not allowed, allowed ones whose count moved, and entries naming no long function. */
export function judgeLengths(found: readonly FunctionLength[], allowed: readonly AllowEntry[]): LengthProblem[] {
  const problems: LengthProblem[] = [];
  const key = (file: string, name: string): string => `${file}\u0000${name}`;
  const allow = new Map(allowed.map((a) => [key(a.file, a.name), a]));
  const seen = new Set<string>();
  for (const f of found) {
    const k = key(f.file, f.name);
    const entry = allow.get(k);
    if (entry === undefined) {
      problems.push({ rule: 'function-length.over', file: f.file, name: f.name, message: `${f.file}:${f.line} ${f.name} is ${f.lines} lines (over ${MAX_FUNCTION_LINES}): split it, or name it in ARCHITECTURE.md "Long functions" with a reason` });
      continue;
    }
    seen.add(k);
    if (entry.lines !== f.lines) {
      problems.push({ rule: 'function-length.count', file: f.file, name: f.name, message: `${f.file} ${f.name} is ${f.lines} lines, ARCHITECTURE.md "Long functions" says ${entry.lines}: update the table` });
    }
  }
  for (const a of allowed) {
    if (!seen.has(key(a.file, a.name))) {
      problems.push({ rule: 'function-length.stale', file: a.file, name: a.name, message: `ARCHITECTURE.md "Long functions" names ${a.file} ${a.name}, which is no longer over ${MAX_FUNCTION_LINES} lines (or no longer exists): remove the row` });
    }
  }
  return problems;
}

/** The rule over the package: every long function in `trees`, judged against the doc's table. */
export function checkTree(root: string, trees: readonly string[], markdown: string): { found: FunctionLength[]; problems: LengthProblem[]; scanned: number } {
  const files = sourceFiles(root, trees);
  const found = files.flatMap((f) => longFunctions(f, readFileSync(join(root, f), 'utf8')));
  return { found, problems: judgeLengths(found, parseAllowList(markdown)), scanned: files.length };
}
