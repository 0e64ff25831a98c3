/**
 * pi (`@mariozechner/pi-coding-agent`), headless: `pi --offline --no-extensions -e
 * <impl/adapters/pi/pi-extension.js> --provider scripted --model scripted-1 --mode json -p <prompt>`,
 * the extension loaded by explicit path as a user loads it, the scripted model declared in
 * `$PI_CODING_AGENT_DIR/models.json` (API `openai-completions`). pi exits when the prompt's
 * agent loop is over. The gate scenarios set `AEP_PI_CONTROL=1` for pi and the daemon; the
 * default posture registers notifications only.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adapter as piAdapter } from '../../impl/adapters/pi/adapter.js';
import { configured } from '../live/offline-target.js';
import type { ChildProcess } from 'node:child_process';
import type { LaunchContext, VendorDriver, VendorSession } from './driver.js';
import { ensureDir } from '../../impl/adapter-kit/ensure-dir.js';

export const PI_EXTENSION = 'impl/adapters/pi/pi-extension.js';

export function piEnv(ctx: Pick<LaunchContext, 'dirs' | 'hookEnv'>, agentDir: string): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: ctx.dirs.home, LANG: 'C.UTF-8', PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: '1', ...ctx.hookEnv };
}

class PiSession implements VendorSession {
  private out = '';
  private code: number | null | undefined;
  private readonly done: Promise<void>;
  constructor(child: ChildProcess) {
    child.stdout!.on('data', (c: Buffer) => (this.out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (this.out += c.toString()));
    this.done = new Promise((resolve) => child.on('exit', (code) => ((this.code = code), resolve())));
  }
  answerLocally(): Promise<boolean> {
    return Promise.resolve(false);
  }
  async settled(ms: number): Promise<boolean> {
    let ok = false;
    await Promise.race([this.done.then(() => void (ok = true)), new Promise((r) => setTimeout(r, ms))]);
    return ok;
  }
  async end(ms: number): Promise<void> {
    await this.settled(ms);
  }
  exitCode(): number | null | undefined {
    return this.code;
  }
  transcript(): Promise<string> {
    return Promise.resolve(this.out);
  }
}

export const piDriver: VendorDriver = {
  vendor: 'pi',
  adapter: 'pi',
  mode: 'print mode (--mode json -p), the extension by path (-e)',
  exampleFile: PI_EXTENSION,
  plugin: { adapter: (env) => configured(piAdapter, env) },
  toolCall(kind, proof) {
    if (kind === 'write-proof') return { name: 'bash', input: { command: `echo hi > ${proof}` } };
    if (kind === 'failing-command') return { name: 'bash', input: { command: `echo hi > ${proof}.missing-dir/proof.txt` } };
    return null;
  },
  async launch(ctx) {
    const agentDir = join(ctx.dirs.home, '.pi', 'agent');
    ensureDir(agentDir);
    writeFileSync(join(agentDir, 'models.json'), JSON.stringify({ providers: { scripted: { baseUrl: `${ctx.modelUrl}/v1`, api: 'openai-completions', apiKey: 'aep-vendor-lane-dummy', models: [{ id: 'scripted-1' }] } } }, null, 2));
    const extension = join(ctx.projectRoot ?? process.cwd(), PI_EXTENSION);
    const argv = ['--offline', '--no-extensions', '-e', extension, '--provider', 'scripted', '--model', 'scripted-1', '--mode', 'json', '-p', ctx.prompt];
    const child = ctx.jar.spawn(ctx.binary, argv, { cwd: ctx.dirs.work, env: ctx.jar.marked(piEnv(ctx, agentDir)), stdio: ['ignore', 'pipe', 'pipe'] });
    return new PiSession(child);
  },
};
