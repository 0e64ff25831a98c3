/**
 * Codex, headless as its TUI under tmux: `codex --no-alt-screen -a on-request --no-daemon
 * --dangerously-bypass-hook-trust <prompt>`. PermissionRequest fires only in the TUI (`codex exec`
 * runs with approval policy never), and only when the model asks for escalation
 * (`sandbox_permissions: "require_escalated"` with a justification). Hooks go in
 * `$CODEX_HOME/hooks.json`; untrusted hooks are skipped silently, hence the bypass flag (a user
 * trusts them once in /hooks instead). `--no-daemon` keeps Codex from starting, or attaching to,
 * a shared detached app-server; the ProcessJar's marker sweep kills one that appears anyway.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LaunchContext, VendorDriver, VendorSession } from './driver.js';
import { TmuxPane } from './tmux.js';
import { ensureDir } from '../../impl/adapter-kit/ensure-dir.js';

export const CODEX_MODEL = 'scripted-model';

/** `$CODEX_HOME/config.toml`: the scripted provider, on-request approvals, the project trusted. */
export function codexConfig(modelUrl: string, work: string): string {
  return [
    `model = "${CODEX_MODEL}"`,
    'model_provider = "aep-scripted"',
    'approval_policy = "on-request"',
    'sandbox_mode = "workspace-write"',
    'check_for_update_on_startup = false',
    '',
    '[model_providers.aep-scripted]',
    'name = "aep scripted model"',
    `base_url = "${modelUrl}/v1"`,
    'wire_api = "responses"',
    'env_key = "AEP_SCRIPTED_API_KEY"',
    '',
    `[projects.${JSON.stringify(work)}]`,
    'trust_level = "trusted"',
    '',
  ].join('\n');
}

export function codexEnv(ctx: Pick<LaunchContext, 'dirs' | 'hookEnv'>, codexHome: string): Record<string, string> {
  return {
    PATH: `${ctx.dirs.bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: ctx.dirs.home,
    CODEX_HOME: codexHome,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    AEP_SCRIPTED_API_KEY: 'aep-vendor-lane-dummy',
    ...ctx.hookEnv,
  };
}

const APPROVAL = /Would you like to run the following command\?/;

class TuiSession implements VendorSession {
  private last = '';
  constructor(private readonly pane: TmuxPane) {}

  async answerLocally(allow: boolean, ms: number): Promise<boolean> {
    if ((await this.pane.waitFor(APPROVAL, ms)) === null) return false;
    await this.pane.keys(allow ? 'y' : 'Escape');
    return true;
  }

  /** `/exit` as a user types it; while a turn is busy (a hook held) Codex ignores it, so then Ctrl-C twice, then Ctrl-D. */
  async end(ms: number): Promise<void> {
    if (await this.pane.dead()) return;
    this.last = await this.pane.screen().catch(() => this.last);
    await this.pane.keys('/exit', true);
    await new Promise((r) => setTimeout(r, 200));
    await this.pane.keys('Enter');
    if (await this.pane.waitExit(Math.min(ms, 4000))) return;
    for (const key of ['C-c', 'C-c', 'C-d']) {
      await this.pane.keys(key);
      if (await this.pane.waitExit(1500)) return;
    }
    await this.pane.waitExit(Math.max(0, ms - 8500));
  }

  async transcript(): Promise<string> {
    const now = await this.pane.screen().catch(() => '');
    return now.replace(/Pane is dead.*$/m, '').trim() === '' ? this.last : now;
  }
}

export const codexDriver: VendorDriver = {
  vendor: 'codex',
  adapter: 'codex',
  mode: 'TUI under tmux (--no-alt-screen -a on-request)',
  exampleFile: 'impl/adapters/codex/hooks.example.json',
  toolCall(kind, proof) {
    if (kind === 'write-proof') return { name: 'exec_command', input: { cmd: `echo hi > ${proof}`, sandbox_permissions: 'require_escalated', justification: 'Write the proof file' } };
    if (kind === 'failing-command') return { name: 'exec_command', input: { cmd: `echo hi > ${proof}.missing-dir/proof.txt`, sandbox_permissions: 'require_escalated', justification: 'Write into a folder that does not exist' } };
    return null;
  },
  async launch(ctx) {
    const codexHome = join(ctx.dirs.root, 'codex-home');
    ensureDir(codexHome);
    writeFileSync(join(codexHome, 'config.toml'), codexConfig(ctx.modelUrl, ctx.dirs.work));
    writeFileSync(join(codexHome, 'hooks.json'), JSON.stringify(ctx.hookConfig, null, 2));
    const argv = [ctx.binary, '--no-alt-screen', '-a', 'on-request', '--no-daemon', '--dangerously-bypass-hook-trust', ctx.prompt];
    const pane = TmuxPane.start(ctx.jar, 'codex', ctx.dirs.work, ctx.jar.marked(codexEnv(ctx, codexHome)), argv);
    return new TuiSession(pane);
  },
};
