/**
 * The vendor cache: each pinned release is installed once with npm into
 * `<cache>/<package>@<version>` (default cache `~/.cache/aep-vendors`, or `AEP_VENDORS_CACHE`),
 * outside node_modules and outside the clone, and reused by every later run.
 * An install is complete when its `.aep-installed` marker exists.
 */
import { spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Pin } from './versions.js';
import { ensureDir } from '../../impl/adapter-kit/ensure-dir.js';

export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.AEP_VENDORS_CACHE && env.AEP_VENDORS_CACHE.trim() !== '' ? env.AEP_VENDORS_CACHE : join(homedir(), '.cache', 'aep-vendors');
}

/** What the cache needs of a pin: the package, its exact version, the binary it installs. */
export type Installable = Pick<Pin, 'package' | 'version' | 'bin'>;

export function installDir(pin: Installable, root: string): string {
  return join(root, `${pin.package}@${pin.version}`);
}

export function binaryPath(pin: Installable, root: string): string {
  return join(installDir(pin, root), 'node_modules', '.bin', pin.bin);
}

const MARKER = '.aep-installed';

/**
 * The pinned binary, installing it first when the cache lacks it. Rejects with the npm output's
 * tail when the install fails (no registry, a version that does not exist).
 */
export async function ensureVendor(pin: Installable, root: string, log: (line: string) => void = () => {}): Promise<string> {
  const dir = installDir(pin, root);
  const bin = binaryPath(pin, root);
  if (existsSync(join(dir, MARKER)) && existsSync(bin)) return bin;
  log(`installing ${pin.package}@${pin.version} into ${dir} (once; later runs reuse it)`);
  rmSync(dir, { recursive: true, force: true });
  ensureDir(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, description: 'aep real-vendors lane cache' }));
  const output = await new Promise<{ code: number | null; text: string }>((resolve) => {
    const child = spawn('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--loglevel=error', `${pin.package}@${pin.version}`], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (c: Buffer) => (text += c.toString()));
    child.stderr.on('data', (c: Buffer) => (text += c.toString()));
    child.on('error', (err) => resolve({ code: -1, text: err.message }));
    child.on('close', (code) => resolve({ code, text }));
  });
  if (output.code !== 0 || !existsSync(bin)) {
    throw new Error(`npm could not install ${pin.package}@${pin.version} into ${dir} (exit ${String(output.code)}): ${output.text.trim().split('\n').slice(-5).join(' | ')}`);
  }
  writeFileSync(join(dir, MARKER), `${new Date().toISOString()}\n`);
  return bin;
}
