/**
 * The docs hold together: every relative link (and #anchor) in every Markdown file of the
 * repository resolves, and README.md stays a front door of at most 300 lines.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { markdownFiles } from './files.js';
import { anchors, checkFile, extractLinks, slug, tableProblems, type LinkWorld } from './links.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const disk: LinkWorld = {
  exists: (p) => existsSync(join(root, p)),
  markdown: (p) => (p.endsWith('.md') && existsSync(join(root, p)) && statSync(join(root, p)).isFile() ? readFileSync(join(root, p), 'utf8') : undefined),
};

describe('the Markdown files', () => {
  it('every relative link and #anchor in every Markdown file resolves', () => {
    const files = markdownFiles(root);
    expect(files).toContain('README.md');
    const problems = files.flatMap((f) => checkFile(f, readFileSync(join(root, f), 'utf8'), disk));
    expect(problems.map((p) => `${p.file}:${p.line}: (${p.target}) ${p.message}`)).toEqual([]);
  });

  it('no table row renders as literal text (glued under a paragraph, or a table without its delimiter row)', () => {
    const problems = markdownFiles(root).flatMap((f) => tableProblems(readFileSync(join(root, f), 'utf8')).map((p) => `${f}:${p.line}: ${p.message}`));
    expect(problems).toEqual([]);
  });

  it('README.md is a front door of at most 300 lines', () => {
    const lines = readFileSync(join(root, 'README.md'), 'utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    expect(lines.length, 'README.md lines: move detail to docs/*.md or an integration README').toBeLessThanOrEqual(300);
  });
});

describe('the link checker', () => {
  const world = (files: Record<string, string>): LinkWorld => ({
    exists: (p) => p in files || Object.keys(files).some((f) => f.startsWith(`${p}/`)),
    markdown: (p) => (p.endsWith('.md') ? files[p] : undefined),
  });

  it('finds a link to a missing file, a missing anchor, a climb above the root, and a missing anchor in the same file', () => {
    const files = {
      'docs/a.md': '# A\n\n## The `aep tail` verb\n\nsee [b](b.md), [c](c.md), [tail](#the-aep-tail-verb), [nope](#nope)\n[up](../../x.md) [b2](b.md#there) [b3](./b.md#here)\n',
      'docs/b.md': '# B\n\n## Here\n',
    };
    const problems = checkFile('docs/a.md', files['docs/a.md'], world(files));
    expect(problems.map((p) => [p.line, p.target])).toEqual([
      [5, 'c.md'],
      [5, '#nope'],
      [6, '../../x.md'],
      [6, 'b.md#there'],
    ]);
    expect(problems[0]!.message).toContain("'c.md' does not exist");
  });

  it('ignores links in code, external links, and reads <targets> and titles', () => {
    const text = '```\n[x](missing.md)\n```\n`[y](missing.md)` [w](https://example.com/x) [m](mailto:a@b)\n[z](<b.md> "title") ![img](b.md)\n';
    expect(extractLinks(text).map((l) => l.target)).toEqual(['https://example.com/x', 'mailto:a@b', 'b.md', 'b.md']);
    expect(checkFile('a.md', text, world({ 'a.md': text, 'b.md': '' }))).toEqual([]);
  });

  it('finds a table row glued under a paragraph and a header without its delimiter', () => {
    const text = '| a | b |\n|---|---|\n| 1 | 2 |\n\nText above.\n| `--vendors` | off |\n\n| x | y |\n| 1 | 2 |\n\n```\ntext\n| in code |\n```\n<!-- BEGIN -->\n| a |\n|---|\n';
    expect(tableProblems(text).map((p) => p.line)).toEqual([6, 8]);
  });

  it('slugs headings the way GitHub does, numbering duplicates', () => {
    expect(slug('`aep validate [--json] FILE|-`')).toBe('aep-validate---json-file-');
    expect(slug('Scale-out: a relay fleet on NATS JetStream')).toBe('scale-out-a-relay-fleet-on-nats-jetstream');
    expect(slug('Putting `aep` on PATH')).toBe('putting-aep-on-path');
    expect(slug('`aep hook <name> <HookEvent> [--port N]`')).toBe('aep-hook-name-hookevent---port-n');
    expect(slug('A <em>b</em> [link](x.md)')).toBe('a-b-link');
    expect([...anchors('# X\n## Setup\n## Setup\n```\n# not a heading\n```\n')]).toEqual(['x', 'setup', 'setup-1']);
  });
});
