/**
 * Writes the AEP hooks block into Kimi Code's config (`$KIMI_CODE_HOME/config.toml`, default
 * `~/.kimi-code/config.toml`), I/O around the pure `writeHooksBlock`: a timestamped backup
 * (`config.toml.aep-backup-<UTC stamp>`) is taken before any change, the new text is written through
 * a temporary file and a rename, and nothing at all is written when the outcome is unchanged.
 */
import { copyFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { writeHooksBlock, type BlockOptions, type WriteOutcome } from './config-toml.js';
import { ensureDir } from '../../adapter-kit/ensure-dir.js';

/** The config file Kimi Code reads hooks from. */
export function kimiConfigPath(env: Record<string, string | undefined>): string {
  return join(env.KIMI_CODE_HOME && env.KIMI_CODE_HOME !== '' ? env.KIMI_CODE_HOME : join(homedir(), '.kimi-code'), 'config.toml');
}

export function installHooks(file: string, options: BlockOptions = {}, now: Date = new Date()): { outcome: WriteOutcome; backup?: string } {
  const existing = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const { text, outcome } = writeHooksBlock(existing, options);
  if (outcome === 'unchanged' || outcome === 'present-unfenced') return { outcome };
  ensureDir(dirname(file));
  let backup: string | undefined;
  if (existsSync(file)) {
    backup = `${file}.aep-backup-${now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}`;
    copyFileSync(file, backup);
  }
  writeFileSync(`${file}.aep-tmp`, text);
  renameSync(`${file}.aep-tmp`, file);
  return backup ? { outcome, backup } : { outcome };
}
