/**
 * Gemini CLI, headless: `gemini -p <prompt> --approval-mode yolo` against the scripted Gemini
 * API (GOOGLE_GEMINI_BASE_URL, a dummy GEMINI_API_KEY, `security.auth.selectedType =
 * "gemini-api-key"`, the workdir in trustedFolders.json). The hooks come from the adapter's
 * example file (`impl/adapters/gemini-cli/settings.example.json`, `aep hook gemini-cli <HookEvent>`),
 * the file under test. The adapter is observe-only: every scenario runs with `--approval-mode yolo`
 * (no remote answer can decide a Gemini tool call). `geminiRecordingConfig` stays for a clone
 * without that adapter: it records every hook with no adapter behind it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { LaunchContext, VendorDriver, VendorSession } from './driver.js';
import { ensureDir } from '../../impl/adapter-kit/ensure-dir.js';

/** The Gemini CLI adapter's example settings (the file a user pastes into ~/.gemini/settings.json). */
export const GEMINI_EXAMPLE = 'impl/adapters/gemini-cli/settings.example.json';

/** The hook events Gemini CLI 0.61 fires. */
export const GEMINI_HOOKS = ['SessionStart', 'SessionEnd', 'BeforeAgent', 'AfterAgent', 'BeforeModel', 'AfterModel', 'BeforeToolSelection', 'BeforeTool', 'AfterTool', 'PreCompress', 'Notification'];

/** The lane's recording configuration: every Gemini hook to `aep hook gemini-cli <HookEvent>`. */
export function geminiRecordingConfig(): Record<string, unknown> {
  return {
    hooks: Object.fromEntries(GEMINI_HOOKS.map((e) => [e, [{ matcher: '*', hooks: [{ type: 'command', command: `aep hook gemini-cli ${e}`, timeout: 10000 }] }]])),
  };
}

export function geminiEnv(ctx: Pick<LaunchContext, 'dirs' | 'modelUrl' | 'hookEnv'>): Record<string, string> {
  return {
    PATH: `${ctx.dirs.bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: ctx.dirs.home,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    GOOGLE_GEMINI_BASE_URL: ctx.modelUrl,
    GEMINI_API_KEY: 'aep-vendor-lane-dummy',
    GEMINI_CLI_NO_RELAUNCH: 'true',
    ...ctx.hookEnv,
  };
}

class PrintSession implements VendorSession {
  private out = '';
  private exited = false;
  constructor(child: ChildProcess) {
    child.stdout!.on('data', (c: Buffer) => (this.out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (this.out += c.toString()));
    child.on('exit', () => (this.exited = true));
  }
  answerLocally(): Promise<boolean> {
    return Promise.resolve(false);
  }
  async end(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (!this.exited && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  }
  transcript(): Promise<string> {
    return Promise.resolve(this.out);
  }
}

export const geminiDriver: VendorDriver = {
  vendor: 'gemini-cli',
  adapter: 'gemini-cli',
  mode: 'print mode (-p, --approval-mode yolo)',
  exampleFile: GEMINI_EXAMPLE,
  recordingConfig: geminiRecordingConfig,
  toolCall(kind, proof) {
    if (kind === 'write-proof') return { name: 'run_shell_command', input: { command: `echo hi > ${proof}`, description: 'Write the proof file' } };
    if (kind === 'failing-command') return { name: 'run_shell_command', input: { command: `echo hi > ${proof}.missing-dir/proof.txt`, description: 'Write into a folder that does not exist' } };
    return null;
  },
  async launch(ctx) {
    const dir = join(ctx.dirs.home, '.gemini');
    ensureDir(dir);
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, ...ctx.hookConfig }, null, 2));
    writeFileSync(join(dir, 'trustedFolders.json'), JSON.stringify({ [ctx.dirs.work]: 'TRUST_FOLDER' }, null, 2));
    const child = ctx.jar.spawn(ctx.binary, ['-p', ctx.prompt, '--approval-mode', 'yolo'], { cwd: ctx.dirs.work, env: ctx.jar.marked(geminiEnv(ctx)), stdio: ['ignore', 'pipe', 'pipe'] });
    return new PrintSession(child);
  },
};
