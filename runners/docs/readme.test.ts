/**
 * The README's walk-through, in order: `aep` is put on PATH before the first bare `aep` command,
 * and every terminal block that talks to a tokened relay sets AEP_TOKEN itself.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The fenced code blocks of a Markdown text, with the line each starts on. */
function codeBlocks(text: string): { line: number; body: string[] }[] {
  const blocks: { line: number; body: string[] }[] = [];
  let open: { line: number; body: string[] } | undefined;
  text.split('\n').forEach((l, i) => {
    if (/^\s*```/.test(l)) {
      if (open) {
        blocks.push(open);
        open = undefined;
      } else open = { line: i + 1, body: [] };
    } else open?.body.push(l);
  });
  return blocks;
}

/** Walk-through problems of a README text. */
function walkThroughProblems(text: string): string[] {
  const problems: string[] = [];
  const lines = text.split('\n');
  const pathHeading = lines.findIndex((l) => /^(?:#+ |\*\*)Putting `aep` on PATH/.test(l)) + 1;
  if (pathHeading === 0) problems.push('no "Putting `aep` on PATH" section');
  const bare = (l: string): boolean => /^(?:[A-Z_]+=\S+\s+)*aep\s/.test(l.trim());
  for (const b of codeBlocks(text)) {
    if (b.body.some(bare) && b.line < pathHeading) problems.push(`line ${b.line}: a bare 'aep' command before the section that puts aep on PATH`);
    const talks = b.body.some((l) => bare(l) && /^(?:[A-Z_]+=\S+\s+)*aep (respond|cancel|tail|doctor|setup up|sink|timeline)\b/.test(l.trim()));
    if (talks && !b.body.some((l) => /^\s*export AEP_TOKEN=/.test(l))) problems.push(`line ${b.line}: a terminal that talks to the relay without setting AEP_TOKEN`);
  }
  return problems;
}

describe('the README walk-through', () => {
  it('puts aep on PATH before the first bare aep command, and sets AEP_TOKEN in every terminal that talks to the relay', () => {
    expect(walkThroughProblems(readFileSync(new URL('../../README.md', import.meta.url), 'utf8'))).toEqual([]);
  });

  it('finds a bare aep before the PATH section and a terminal without the token', () => {
    const text = '# R\n\n```sh\naep setup up relay\n```\n\n## Putting `aep` on PATH\n\n```sh\nexport AEP_TOKEN=x\naep doctor\n```\n\n```sh\naep respond s r --option allow\n```\n';
    expect(walkThroughProblems(text)).toEqual([
      "line 3: a bare 'aep' command before the section that puts aep on PATH",
      'line 3: a terminal that talks to the relay without setting AEP_TOKEN',
      'line 14: a terminal that talks to the relay without setting AEP_TOKEN',
    ]);
  });
});
