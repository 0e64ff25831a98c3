/**
 * Every integration (a folder under impl/ whose descriptor.ts exports `descriptor`) has a README.md beside its code,
 * linked from docs/integrations.md, that ends with the deviations heading and the two marker
 * lines of its generated block.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const impl = new URL('../../impl/', import.meta.url);
const ENDING = '## Deviations from the design record\n\n<!-- BEGIN GENERATED: deviations -->\n';
const END_MARKER = '<!-- END GENERATED: deviations -->';

/** What is wrong with one integration README's text (empty when nothing is). */
function readmeProblems(dir: string, text: string | undefined, index: string): string[] {
  if (text === undefined) return [`impl/${dir}/README.md is missing`];
  const problems: string[] = [];
  const at = text.lastIndexOf(ENDING);
  if (at < 0) problems.push(`impl/${dir}/README.md lacks the heading "Deviations from the design record" followed by the BEGIN marker line`);
  else {
    const rest = text.slice(at + ENDING.length);
    const end = rest.indexOf(END_MARKER);
    if (end < 0 || rest.slice(end + END_MARKER.length).trim() !== '') problems.push(`impl/${dir}/README.md must end with the END marker line of the deviations block`);
  }
  if (!index.includes(`../impl/${dir}/README.md`)) problems.push(`docs/integrations.md does not link impl/${dir}/README.md`);
  return problems;
}

describe('integration READMEs', () => {
  it('every adapter and bridge has one, linked from docs/integrations.md, ending with its deviations block', () => {
    const index = readFileSync(new URL('../../docs/integrations.md', import.meta.url), 'utf8');
    const isIntegration = (d: string): boolean => {
      const file = new URL(`${d}/descriptor.ts`, impl);
      return existsSync(file) && readFileSync(file, 'utf8').includes('export const descriptor');
    };
    const dirs = ['adapters', 'bridges'].flatMap((p) => (existsSync(new URL(`${p}/`, impl)) ? readdirSync(new URL(`${p}/`, impl)).map((n) => `${p}/${n}`) : [])).filter(isIntegration);
    expect(dirs.length).toBeGreaterThanOrEqual(21);
    const problems = dirs.flatMap((d) => {
      const file = new URL(`${d}/README.md`, impl);
      return readmeProblems(d, existsSync(file) ? readFileSync(file, 'utf8') : undefined, index);
    });
    expect(problems).toEqual([]);
  });

  it('finds a missing README, a missing block, text after the block and a missing link', () => {
    const ok = `# X\n\n${ENDING}${END_MARKER}\n`;
    expect(readmeProblems('adapter-x', ok, '(../impl/adapter-x/README.md)')).toEqual([]);
    expect(readmeProblems('adapter-x', undefined, '')).toHaveLength(1);
    expect(readmeProblems('adapter-x', '# X\n', '(../impl/adapter-x/README.md)')).toHaveLength(1);
    expect(readmeProblems('adapter-x', `${ok}more\n`, '(../impl/adapter-x/README.md)')).toHaveLength(1);
    expect(readmeProblems('adapter-x', ok, '')).toHaveLength(1);
  });
});
