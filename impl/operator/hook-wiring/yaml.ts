/**
 * Hook wiring in a YAML config (Hermes's `~/.hermes/config.yaml`), pure: the example's `hooks:`
 * mapping as a fenced block at the end of the file (fenced.ts), its commands in the absolute form.
 * YAML allows one `hooks:` key per mapping, so a file that has its own top-level `hooks:` is
 * refused with the fix (merge by hand) rather than given a second key.
 */
import { rewriteQuotedCommands, type CommandTarget } from './command.js';
import { wireText, withoutBlock, type Fence } from './fenced.js';

export const yamlFence = (vendor: string): Fence => ({
  begin: `# >>> aep ${vendor} hooks (written by 'aep setup hooks ${vendor}'; 'aep setup unhooks ${vendor}' removes it) >>>`,
  end: `# <<< aep ${vendor} hooks <<<`,
});

/** The example's `hooks:` mapping (from its `hooks:` line to the end), commands absolute. */
export function yamlBody(example: string, t: CommandTarget): string | undefined {
  const at = example.search(/^hooks:/m);
  return at < 0 ? undefined : rewriteQuotedCommands(example.slice(at), t);
}

export function wireYaml(text: string, example: string, t: CommandTarget, exampleName: string) {
  const body = yamlBody(example, t);
  if (body === undefined) return { ok: false as const, error: `the example ${exampleName} has no top-level 'hooks:'` };
  return wireText(text, yamlFence(t.vendor), body, [
    { re: /^hooks\s*:/m, error: `it already has a top-level 'hooks:' key and YAML allows only one; add the entries of ${exampleName} under yours by hand (or move yours away) and run again` },
    { re: new RegExp(`aep hook ${t.vendor} `), error: `it already runs 'aep hook ${t.vendor}' outside a block written by 'aep setup hooks'; remove those lines (or keep them and skip this step)` },
  ]);
}

export const unwireYaml = (text: string, vendor: string) => withoutBlock(text, yamlFence(vendor));
