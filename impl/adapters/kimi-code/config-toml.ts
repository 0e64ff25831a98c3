/**
 * The Kimi Code hook registration, pure: a marker-fenced block of `[[hooks]]` tables for
 * `~/.kimi-code/config.toml` (or `$KIMI_CODE_HOME/config.toml`), the only place Kimi Code reads
 * hooks from. Each table uses only fields of the vendor's strict four-field schema (`event`,
 * `command`, `timeout`; `matcher` is omitted, which matches everything); an unknown field fails
 * the vendor's config load, so none is ever added. Only the sixteen events of the pinned surface
 * are registered: an event name an older Kimi Code does not list would fail its config load too.
 *
 * `writeHooksBlock(existing, options)`:
 * - no fence and no AEP hook yet: the block is APPENDED at the end of the file. TOML ordering is
 *   load-bearing: a top-level key below a `[[hooks]]` table would parse as a member of that table,
 *   so the block only ever goes last;
 * - a fence already there: its content is replaced in place (a stale block is refreshed, an
 *   identical one leaves the text byte-identical: idempotent);
 * - no fence but `aep hook kimi-code` commands present (Kimi's web UI re-serializes config.toml
 *   and strips comments, fences included): nothing is changed, so no hook is ever duplicated.
 * Backups and file I/O are `install.ts`'s.
 */
import { HOOKS } from './adapter.js';
import { descriptor } from './descriptor.js';

export const FENCE_BEGIN = '# >>> aep kimi-code hooks (managed by the AEP adapter; edits inside are replaced) >>>';
export const FENCE_END = '# <<< aep kimi-code hooks <<<';

export interface BlockOptions {
  /** The daemon port when it is not the default (its descriptor's; the four-field schema has no env, so it rides the command). */
  port?: number;
  /** Seconds for every hook but PreToolUse (default 10). */
  timeout?: number;
  /** Seconds for PreToolUse, which the opt-in gate holds (default 60: the 50 s hold fits inside). */
  gateTimeout?: number;
}

export type WriteOutcome = 'appended' | 'refreshed' | 'unchanged' | 'present-unfenced';

/** The fenced block itself, ending with a newline. */
export function hooksBlock(options: BlockOptions = {}): string {
  const port = options.port !== undefined && options.port !== descriptor.port ? ` --port ${options.port}` : '';
  const tables = HOOKS.map((event) => [
    '[[hooks]]',
    `event = "${event}"`,
    `command = "aep hook kimi-code ${event}${port}"`,
    `timeout = ${event === 'PreToolUse' ? (options.gateTimeout ?? 60) : (options.timeout ?? 10)}`,
  ].join('\n'));
  return `${FENCE_BEGIN}\n${tables.join('\n\n')}\n${FENCE_END}\n`;
}

/** The new config text and what was done. Never throws. */
export function writeHooksBlock(existing: string, options: BlockOptions = {}): { text: string; outcome: WriteOutcome } {
  const block = hooksBlock(options);
  const begin = existing.indexOf(FENCE_BEGIN);
  const end = begin < 0 ? -1 : existing.indexOf(FENCE_END, begin);
  if (begin >= 0 && end >= 0) {
    const after = existing.slice(end + FENCE_END.length).replace(/^\r?\n/, '');
    const text = `${existing.slice(0, begin)}${block}${after}`;
    return { text, outcome: text === existing ? 'unchanged' : 'refreshed' };
  }
  if (/command\s*=\s*["']aep hook kimi-code /.test(existing)) return { text: existing, outcome: 'present-unfenced' };
  const sep = existing === '' ? '' : existing.endsWith('\n\n') ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
  return { text: `${existing}${sep}${block}`, outcome: 'appended' };
}
