/**
 * OpenCode and its fork Kilo Code, headless (I/O): `<bin> serve --port 0` in the project folder,
 * with the adapter's plugin file copied where a user copies it and a project config naming the
 * scripted model (an `@ai-sdk/openai-compatible` provider at `<model>/v1`, `bash: ask`), then the
 * user's prompt over the server's own REST API (`POST /session`, `POST /session/{id}/message`,
 * which returns when the run is over). The user ends the session with `DELETE /session/{id}`,
 * then the server is stopped (SIGTERM) and must exit cleanly.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { LaunchContext, VendorSession } from './driver.js';
import { ensureDir } from '../../impl/adapter-kit/ensure-dir.js';

export interface ServeHostSpec {
  /** The plugin file a user copies (project-relative), and the folder it goes into (work-relative). */
  pluginFile: string;
  pluginDir: string;
  /** The project config file name (`opencode.json`, `kilo.json`). */
  configFile: string;
}

/** The project config: the scripted model as the only provider, bash asks, questions allowed. */
export function serveConfig(modelUrl: string): Record<string, unknown> {
  return {
    $schema: 'https://opencode.ai/config.json',
    provider: { scripted: { npm: '@ai-sdk/openai-compatible', name: 'Scripted', options: { baseURL: `${modelUrl}/v1`, apiKey: 'aep-vendor-lane-dummy' }, models: { 'scripted-1': { name: 'Scripted 1', tool_call: true } } } },
    model: 'scripted/scripted-1',
    small_model: 'scripted/scripted-1',
    permission: { bash: 'ask', edit: 'ask', question: 'allow' },
    autoupdate: false,
    share: 'disabled',
  };
}

export function serveEnv(ctx: Pick<LaunchContext, 'dirs' | 'hookEnv'>): Record<string, string> {
  const h = ctx.dirs.home;
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: h,
    XDG_CONFIG_HOME: join(h, '.config'),
    XDG_DATA_HOME: join(h, '.local', 'share'),
    XDG_CACHE_HOME: join(h, '.cache'),
    XDG_STATE_HOME: join(h, '.local', 'state'),
    LANG: 'C.UTF-8',
    OPENCODE_DISABLE_AUTOUPDATE: 'true',
    OPENCODE_DISABLE_LSP_DOWNLOAD: 'true',
    OPENCODE_DISABLE_MODELS_FETCH: 'true',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: 'true',
    KILO_DISABLE_AUTOUPDATE: 'true',
    KILO_DISABLE_MODELS_FETCH: 'true',
    KILO_DISABLE_LSP_DOWNLOAD: 'true',
    KILO_DISABLE_DEFAULT_PLUGINS: 'true',
    KILO_TELEMETRY_DISABLED: 'true',
    ...ctx.hookEnv,
  };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class ServeSession implements VendorSession {
  /**
   * The host's verdict once ended: 0 when the run's message POST returned 200 and the server then
   * stopped cleanly (its exit code 0, or our SIGTERM); else the failing HTTP status or exit code.
   */
  exitCode = (): number | null | undefined => (this.exitCodeValue === undefined ? undefined : this.runStatus !== 200 ? (this.runStatus ?? -1) : this.exitCodeValue);
  private runStatus: number | undefined;
  private out = '';
  private exitCodeValue: number | null | undefined;
  private sessionId: string | undefined;
  private run: Promise<void> = Promise.resolve();
  private url: string | undefined;

  constructor(private readonly child: ChildProcess) {
    child.stdout!.on('data', (c: Buffer) => (this.out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (this.out += c.toString()));
    child.on('exit', (code, signal) => (this.exitCodeValue = code ?? (signal === 'SIGTERM' ? 0 : -1)));
  }

  /** Wait for the server's URL, open a session and send the prompt (the run goes on in the background). */
  async start(prompt: string, ms = 30_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!this.url) {
      if (this.exitCodeValue !== undefined) throw new Error(`the server exited ${String(this.exitCodeValue)} before listening: ${this.out.slice(-800)}`);
      if (Date.now() > deadline) throw new Error(`the server printed no URL within ${ms} ms: ${this.out.slice(-800)}`);
      this.url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(this.out)?.[1] ?? /(http:\/\/127\.0\.0\.1:\d+)/.exec(this.out)?.[1];
      if (!this.url) await sleep(50);
    }
    const res = await fetch(`${this.url}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const session = (await res.json()) as { id?: string };
    if (typeof session.id !== 'string') throw new Error(`POST /session gave no id (${res.status})`);
    this.sessionId = session.id;
    this.run = fetch(`${this.url}/session/${session.id}/message`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ parts: [{ type: 'text', text: prompt }] }), signal: AbortSignal.timeout(120_000) })
      .then(async (r) => void ((this.runStatus = r.status), (this.out += `\n[lane] POST /session/${session.id}/message -> ${r.status} ${(await r.text()).slice(0, 300)}\n`)))
      .catch((err: Error) => void (this.out += `\n[lane] POST /session/${session.id}/message failed: ${err.message}\n`));
  }

  /** The local user answers the host's own pending permission prompt (`GET /permission`, then its reply route). */
  async answerLocally(allow: boolean, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (this.url && Date.now() < deadline) {
      try {
        const pending = (await (await fetch(`${this.url}/permission`, { signal: AbortSignal.timeout(3000) })).json()) as Array<{ id?: string }>;
        const id = Array.isArray(pending) ? pending.find((p) => typeof p.id === 'string')?.id : undefined;
        if (id) {
          const res = await fetch(`${this.url}/permission/${id}/reply`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reply: allow ? 'once' : 'reject' }) });
          this.out += `\n[lane] local user: POST /permission/${id}/reply -> ${res.status}\n`;
          return res.ok;
        }
      } catch {
        // not up yet
      }
      await sleep(200);
    }
    return false;
  }

  /** Whether the run (the message POST) has returned. */
  async settled(ms: number): Promise<boolean> {
    let done = false;
    await Promise.race([this.run.then(() => void (done = true)), sleep(ms)]);
    return done;
  }

  async end(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    if (this.url && this.sessionId && this.exitCodeValue === undefined) {
      try {
        const res = await fetch(`${this.url}/session/${this.sessionId}`, { method: 'DELETE', signal: AbortSignal.timeout(5000) });
        this.out += `\n[lane] DELETE /session/${this.sessionId} -> ${res.status}\n`;
      } catch (err) {
        this.out += `\n[lane] DELETE /session failed: ${(err as Error).message}\n`;
      }
      await this.settled(Math.max(0, Math.min(5000, deadline - Date.now())));
      await sleep(700); // the plugin's queue drains to the daemon
    }
    if (this.exitCodeValue === undefined && this.child.pid !== undefined) {
      try {
        process.kill(-this.child.pid, 'SIGTERM');
      } catch {
        // gone already
      }
    }
    while (this.exitCodeValue === undefined && Date.now() < deadline) await sleep(50);
    this.out += `\n[lane] server exit: ${String(this.exitCodeValue)}\n`;
  }

  transcript(): Promise<string> {
    return Promise.resolve(this.out);
  }
}

/** Install the plugin and config, start the server, send the prompt. */
export async function launchServeHost(spec: ServeHostSpec, ctx: LaunchContext): Promise<ServeSession> {
  const dir = join(ctx.dirs.work, spec.pluginDir);
  ensureDir(dir);
  copyFileSync(join(ctx.projectRoot ?? process.cwd(), spec.pluginFile), join(dir, spec.pluginFile.split('/').pop()!));
  writeFileSync(join(ctx.dirs.work, spec.configFile), JSON.stringify(serveConfig(ctx.modelUrl), null, 2));
  const child = ctx.jar.spawn(ctx.binary, ['serve', '--port', '0', '--hostname', '127.0.0.1', '--print-logs'], { cwd: ctx.dirs.work, env: ctx.jar.marked(serveEnv(ctx)), stdio: ['ignore', 'pipe', 'pipe'] });
  const session = new ServeSession(child);
  await session.start(ctx.prompt);
  return session;
}
