/**
 * The real ACP agent of the ACP bridge's peer test: Zed's `@zed-industries/codex-acp` (Codex
 * behind the Agent Client Protocol, a native binary per platform), pinned here and installed by
 * the real-vendors lane's installer into the same vendor cache (`cache.ts`). Pointed at the
 * scripted model server with the lane's Codex `config.toml` (`codex.ts`), it runs the model's
 * turns for real and asks the editor over `session/request_permission`.
 *
 * Install (once; later runs reuse the cache): `node dist/runners/vendors/acp-agent.js --install`.
 * The test (`acp-agent.test.ts`) never downloads: it skips, naming this command, when the cache
 * lacks the pin.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { binaryPath, cacheRoot, ensureVendor, installDir, type Installable } from './cache.js';

export const ACP_AGENT: Installable = { package: '@zed-industries/codex-acp', version: '0.16.0', bin: 'codex-acp' };
export const INSTALL_COMMAND = 'node dist/runners/vendors/acp-agent.js --install';

/**
 * The cached agent, or why there is none (never installs). `bin` is the platform's native binary
 * when the optional platform package is installed (the `.bin` launcher is a node script that
 * spawns it and does not forward signals, so stopping the launcher would orphan the agent).
 */
export function cachedAcpAgent(root = cacheRoot()): { bin: string } | { missing: string } {
  const launcher = binaryPath(ACP_AGENT, root);
  const native = join(installDir(ACP_AGENT, root), 'node_modules', '@zed-industries', `codex-acp-${process.platform}-${process.arch}`, 'bin', process.platform === 'win32' ? 'codex-acp.exe' : 'codex-acp');
  if (existsSync(join(installDir(ACP_AGENT, root), '.aep-installed')) && existsSync(launcher)) return { bin: existsSync(native) ? native : launcher };
  return { missing: `${ACP_AGENT.package}@${ACP_AGENT.version} is not in the vendor cache (${installDir(ACP_AGENT, root)}); install it with \`${INSTALL_COMMAND}\` (or set AEP_VENDORS_CACHE)` };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv[2] !== '--install') {
    process.stderr.write(`usage: ${INSTALL_COMMAND}\n`);
    process.exit(2);
  }
  try {
    const bin = await ensureVendor(ACP_AGENT, cacheRoot(), (line) => process.stderr.write(`${line}\n`));
    process.stdout.write(`${bin}\n`);
  } catch (err) {
    process.stderr.write(`acp-agent: ${(err as Error).message}\n`);
    process.exit(1);
  }
}
