/**
 * Qwen Code, headless: `qwen -p <prompt> --approval-mode default` against the scripted OpenAI
 * Chat Completions API (Qwen Code is a Gemini CLI fork speaking OpenAI-compatible chat
 * completions: `OPENAI_BASE_URL` = `<model server>/v1`, a dummy `OPENAI_API_KEY`, `OPENAI_MODEL`,
 * and `security.auth.selectedType = "openai"` in `$HOME/.qwen/settings.json`). The hooks are the
 * adapter's example file (`impl/adapters/qwen-code/settings.example.json`, native http hooks to the
 * daemon), written into that same settings file. Print mode ends by itself after the turn; the
 * user "ends the session" with Ctrl-C (SIGINT to the process group).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { SdkSession } from './claude-code.js';
import type { LaunchContext, VendorDriver, VendorSession } from './driver.js';
import { ensureDir } from '../../impl/adapter-kit/ensure-dir.js';

export const QWEN_MODEL = 'scripted-model';

/** SDK mode: the only headless mode in which Qwen Code fires PermissionRequest (plain `-p` declines the tool first). */
export const QWEN_SDK_ARGS = ['--input-format', 'stream-json', '--output-format', 'stream-json', '--approval-mode', 'default'];

export function qwenEnv(ctx: Pick<LaunchContext, 'dirs' | 'modelUrl' | 'hookEnv'>): Record<string, string> {
  return {
    PATH: `${ctx.dirs.bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: ctx.dirs.home,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    OPENAI_BASE_URL: `${ctx.modelUrl}/v1`,
    OPENAI_API_KEY: 'aep-vendor-lane-dummy',
    OPENAI_MODEL: QWEN_MODEL,
    QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
    ...ctx.hookEnv,
  };
}

/** `$HOME/.qwen/settings.json`: the OpenAI-compatible auth, no telemetry or update checks, and the hooks. */
export function qwenSettings(hookConfig: Record<string, unknown>): Record<string, unknown> {
  return { security: { auth: { selectedType: 'openai' } }, telemetry: { enabled: false }, general: { disableAutoUpdate: true, disableUpdateNag: true }, ...hookConfig };
}

/** A print-mode vendor process: its output, and Ctrl-C when the user ends it early. */
export class PrintProcess implements VendorSession {
  private out = '';
  private exited = false;
  constructor(private readonly child: ChildProcess) {
    child.stdout?.on('data', (c: Buffer) => (this.out += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (this.out += c.toString()));
    child.on('exit', () => (this.exited = true));
  }
  answerLocally(): Promise<boolean> {
    return Promise.resolve(false);
  }
  private async waitExit(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!this.exited && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    return this.exited;
  }
  /** A finished print run exits by itself; otherwise Ctrl-C (SIGINT to the group), then wait. */
  async end(ms: number): Promise<void> {
    if (await this.waitExit(Math.min(ms, 2000))) return;
    try {
      process.kill(-this.child.pid!, 'SIGINT');
    } catch {
      // already gone
    }
    await this.waitExit(Math.max(0, ms - 2000));
  }
  transcript(): Promise<string> {
    return Promise.resolve(this.out);
  }
}

/** SDK mode, ended by the user: input closed; a turn still waiting on a held hook ignores that, so then Ctrl-C. */
class QwenSdkSession extends SdkSession {
  override async end(ms: number): Promise<void> {
    this.child.stdin!.end();
    const wait = async (span: number): Promise<void> => {
      const deadline = Date.now() + span;
      while (!this.exited && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    };
    await wait(Math.min(ms, 2000));
    if (this.exited) return;
    try {
      process.kill(-this.child.pid!, 'SIGINT');
    } catch {
      // already gone
    }
    await wait(Math.max(0, ms - 2000));
  }
}

export const qwenCodeDriver: VendorDriver = {
  vendor: 'qwen-code',
  adapter: 'qwen-code',
  mode: 'SDK mode (stream-json in and out, --approval-mode default)',
  exampleFile: 'impl/adapters/qwen-code/settings.example.json',
  toolCall(kind, proof) {
    if (kind === 'write-proof') return { name: 'run_shell_command', input: { command: `echo hi > ${proof}`, description: 'Write the proof file', is_background: false } };
    if (kind === 'failing-command') return { name: 'run_shell_command', input: { command: `echo hi > ${proof}.missing-dir/proof.txt`, description: 'Write into a folder that does not exist', is_background: false } };
    return null;
  },
  async launch(ctx) {
    const dir = join(ctx.dirs.home, '.qwen');
    ensureDir(dir);
    writeFileSync(join(dir, 'settings.json'), JSON.stringify(qwenSettings(ctx.hookConfig), null, 2));
    const child = ctx.jar.spawn(ctx.binary, QWEN_SDK_ARGS, { cwd: ctx.dirs.work, env: ctx.jar.marked(qwenEnv(ctx)), stdio: ['pipe', 'pipe', 'pipe'] });
    const session = new QwenSdkSession(child);
    // As the Qwen SDK does: initialize first (the host answers can_use_tool), then the prompt.
    session.send({ type: 'control_request', request_id: 'aep-lane-init', request: { subtype: 'initialize', hooks: null } });
    session.send({ type: 'user', session_id: '', message: { role: 'user', content: ctx.prompt }, parent_tool_use_id: null });
    return session;
  },
};
