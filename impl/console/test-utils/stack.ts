/**
 * Test-only: a real stack for the console's browser tests. Relays (impl/relay), the demo agent
 * (impl/demo-agent) and the Claude Code adapter daemon (impl/adapter-kit) in this process, the
 * console in front of them, and the page bundle built into a temporary directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAdapter, type RunningAdapter } from '../../adapter-kit/daemon.js';
import { postHook, tempHome } from '../../adapter-kit/test-utils/daemon-harness.js';
import { adapter } from '../../adapters/claude-code/adapter.js';
import { runDemoAgent } from '../../demo-agent/agent.js';
import { startRelay, type RelayOptions, type RunningRelay } from '../../relay/server.js';
import { loadAssets, type Assets } from '../assets.js';
import { bundleConsole } from '../bundle.js';
import { parseConsoleConfig } from '../config.js';
import { startConsole, type RunningConsole } from '../server.js';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export async function builtAssets(): Promise<{ assets: Assets; cleanup: () => void }> {
  const out = mkdtempSync(join(tmpdir(), 'aep-console-assets-'));
  await bundleConsole(undefined, out);
  return { assets: loadAssets(out), cleanup: () => rmSync(out, { recursive: true, force: true }) };
}

export class Stack {
  readonly #cleanups: Array<() => Promise<unknown> | unknown> = [];

  defer(fn: () => Promise<unknown> | unknown): void {
    this.#cleanups.push(fn);
  }

  async close(): Promise<void> {
    for (const fn of this.#cleanups.splice(0).reverse()) await Promise.resolve(fn()).catch(() => undefined);
  }

  /** A relay on `port` (0: a free one); `restart()` stops it and starts the same one again, empty. */
  async relay(options: RelayOptions): Promise<{ current: () => RunningRelay; url: string; restart: () => Promise<void> }> {
    let running = await startRelay({ drainMs: 100, ...options });
    const port = running.port;
    this.defer(() => running.close());
    return {
      current: () => running,
      url: running.url,
      restart: async () => {
        await running.close();
        running = await startRelay({ drainMs: 100, ...options, port });
      },
    };
  }

  demoAgent(relay: string, token: string | undefined, session: string, run = 'demo-run'): void {
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const io = { stdout: () => {}, stderr: () => {} };
    const done = runDemoAgent({ relay, ...(token ? { token } : {}), session, run, backoffMs: { min: 100, max: 400 } }, stopped, io);
    this.defer(async () => (stop(), await done));
  }

  async claudeCode(relay: string, token: string | undefined, session: string): Promise<RunningAdapter> {
    const daemon = await startAdapter(adapter, { port: 0, relay, ...(token ? { token } : {}), home: tempHome(), attentionTimeoutMs: 60_000 });
    this.defer(() => daemon.close());
    for (let i = 0; i < 250 && !daemon.relayReady(); i++) await new Promise((r) => setTimeout(r, 20));
    await postHook(daemon.url, 'SessionStart', { hook_event_name: 'SessionStart', session_id: session, source: 'startup' });
    return daemon;
  }

  /** A console in front of `relays`; each token is read from a file, as `--token-file` does. */
  async console(assets: Assets, port: number, relays: ReadonlyArray<{ url: string; token?: string }>, capture?: string, log?: (line: string) => void): Promise<RunningConsole> {
    const byFile = new Map(relays.map((r, i) => [`token-${i}`, r.token]));
    const config = parseConsoleConfig({ relay: relays.map((r) => r.url), tokenFile: relays.every((r) => r.token !== undefined) ? [...byFile.keys()] : undefined, port: String(port), capture }, {}, (f) => byFile.get(f) ?? '');
    const withoutFiles = relays.some((r) => r.token !== undefined) && !relays.every((r) => r.token !== undefined);
    const running = await startConsole({ config: withoutFiles ? { ...config, relays: config.relays.map((r, i) => ({ ...r, token: relays[i]!.token })) } : config, assets, ...(log ? { log } : {}) });
    this.defer(() => running.close());
    return running;
  }
}
