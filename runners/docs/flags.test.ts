/**
 * The docs name only flags the code has: every `--flag` written after `aep <verb>` in the
 * Markdown files (a heading's synopsis, an inline command, a command line in a code block, the
 * first cell of a flag table under the verb's heading) is in that verb's `--help`; and a heading
 * that spells out a verb's synopsis spells out every flag of the help's usage lines.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERBS } from '../../impl/cli/verbs.js';
import { markdownFiles } from './files.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const FLAG = /(?<![\w-])--[a-z][a-z0-9-]*/g;

export interface FlagUse {
  file: string;
  line: number;
  verb: string;
  flags: string[];
  /** A heading's synopsis: `## \`aep verb ...\``. */
  heading: boolean;
}

/** Every place a Markdown text writes flags for an `aep` verb. */
export function flagUses(file: string, text: string, verbs: ReadonlySet<string>): FlagUse[] {
  const uses: FlagUse[] = [];
  let fence = false;
  let sectionVerb: string | undefined;
  const verbOf = (s: string): string | undefined => {
    const m = /^aep ([a-z-]+)/.exec(s.trim());
    return m && verbs.has(m[1]!) ? m[1] : undefined;
  };
  text.split('\n').forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fence = !fence;
      return;
    }
    if (fence) {
      // a command line in a code block: `aep verb ...` up to a comment
      const cmd = line.replace(/\s#.*$/, '');
      const at = cmd.search(/(?:^|[\s;&|(])aep [a-z-]+/);
      if (at >= 0) {
        const rest = cmd.slice(at).trim();
        const verb = verbOf(rest);
        if (verb) uses.push({ file, line: i + 1, verb, flags: rest.match(FLAG) ?? [], heading: false });
      }
      return;
    }
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      const code = /^`(aep [^`]*)`/.exec(heading[1]!);
      sectionVerb = code ? verbOf(code[1]!) : undefined;
      if (code && sectionVerb) uses.push({ file, line: i + 1, verb: sectionVerb, flags: code[1]!.match(FLAG) ?? [], heading: true });
      return;
    }
    for (const m of line.matchAll(/`(aep [^`]+)`/g)) {
      const verb = verbOf(m[1]!);
      if (verb) uses.push({ file, line: i + 1, verb, flags: m[1]!.match(FLAG) ?? [], heading: false });
    }
    const row = /^\|\s*`(--[a-z][^`]*)`/.exec(line);
    if (row && sectionVerb) {
      const firstCell = line.split('|')[1] ?? '';
      uses.push({ file, line: i + 1, verb: sectionVerb, flags: firstCell.match(FLAG) ?? [], heading: false });
    }
  });
  return uses;
}

/** The flags a help text names. */
function helpFlags(help: string): Set<string> {
  return new Set([...help.matchAll(FLAG)].map((m) => m[0]).concat('--help'));
}

/** The flags of a help's usage lines (the first lines, up to the first blank one). */
function usageFlags(help: string): string[] {
  const usage = help.split('\n\n')[0] ?? '';
  return [...new Set(usage.match(FLAG) ?? [])];
}

describe('flags in the docs', () => {
  it('every flag the Markdown files write after `aep <verb>` is in that verb\'s --help, and a full synopsis heading names every usage flag', async () => {
    const helps = new Map<string, string>();
    for (const [name, v] of Object.entries(VERBS)) helps.set(name, (await v.load()).help);
    const verbs = new Set(helps.keys());
    const problems: string[] = [];
    for (const file of markdownFiles(root)) {
      for (const use of flagUses(file, readFileSync(join(root, file), 'utf8'), verbs)) {
        const known = helpFlags(helps.get(use.verb)!);
        for (const f of use.flags) if (!known.has(f)) problems.push(`${file}:${use.line}: ${f} is not a flag of 'aep ${use.verb}' (see aep ${use.verb} --help)`);
        if (use.heading && use.flags.length >= 3) {
          for (const f of usageFlags(helps.get(use.verb)!)) if (!use.flags.includes(f)) problems.push(`${file}:${use.line}: the synopsis heading of 'aep ${use.verb}' lacks ${f} (its --help usage has it)`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('finds an unknown flag, a heading that lacks a usage flag, and flags in tables and code blocks', () => {
    const text = [
      '## `aep conformance [--corpus DIR] [--family NAME] [--live]`',
      '',
      '| flag | meaning |',
      '|---|---|',
      '| `--vendors` | real vendors |',
      '',
      'Run `aep tail --attention --nope`.',
      '```sh',
      'AEP_TOKEN=x aep respond s r --option allow   # --not-this',
      '```',
    ].join('\n');
    const uses = flagUses('x.md', text, new Set(['conformance', 'tail', 'respond']));
    expect(uses.map((u) => [u.line, u.verb, u.flags, u.heading])).toEqual([
      [1, 'conformance', ['--corpus', '--family', '--live'], true],
      [5, 'conformance', ['--vendors'], false],
      [7, 'tail', ['--attention', '--nope'], false],
      [9, 'respond', ['--option'], false],
    ]);
  });
});
