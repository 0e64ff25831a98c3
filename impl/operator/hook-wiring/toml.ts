/**
 * Hook wiring in a TOML config (Kimi Code's `config.toml`), pure: the example's `[[hooks]]` tables
 * as a fenced block at the end of the file (fenced.ts), its commands in the absolute form. The
 * fence lines are the ones the Kimi adapter's own writer uses (impl/adapters/kimi-code/config-toml.ts),
 * so a block written by `installHooks()` is found, replaced and removed too.
 */
import { FENCE_BEGIN, FENCE_END } from '../../adapters/kimi-code/config-toml.js';
import { rewriteQuotedCommands, type CommandTarget } from './command.js';
import { wireText, withoutBlock, type Fence } from './fenced.js';

/** The fence of `vendor`'s block: Kimi Code's own, else one of the same form. */
export function tomlFence(vendor: string): Fence {
  if (vendor === 'kimi-code') return { begin: FENCE_BEGIN, end: FENCE_END };
  return { begin: `# >>> aep ${vendor} hooks (managed by the AEP adapter; edits inside are replaced) >>>`, end: `# <<< aep ${vendor} hooks <<<` };
}

/** The tables inside the example's own fence (or the whole example without comment lines), commands absolute. */
export function tomlBody(example: string, t: CommandTarget): string {
  const f = tomlFence(t.vendor);
  const b = example.indexOf(f.begin);
  const e = b < 0 ? -1 : example.indexOf(f.end, b);
  const inner = b >= 0 && e >= 0 ? example.slice(example.indexOf('\n', b) + 1, e) : example.split('\n').filter((l) => !l.startsWith('#')).join('\n').trim() + '\n';
  return rewriteQuotedCommands(inner, t);
}

export function wireToml(text: string, example: string, t: CommandTarget) {
  return wireText(text, tomlFence(t.vendor), tomlBody(example, t), [
    { re: new RegExp(`aep hook ${t.vendor} `), error: `it already runs 'aep hook ${t.vendor}' outside a block written by 'aep setup hooks'; remove those [[hooks]] tables (or keep them and skip this step)` },
  ]);
}

export const unwireToml = (text: string, vendor: string) => withoutBlock(text, tomlFence(vendor));
