/**
 * Claude Code, headless in SDK mode (or, for the `tui-*` scenarios, its interactive TUI under tmux
 * with `$HOME/.claude.json` pre-seeded, where the fallback is the TUI's own permission dialog): `claude -p --input-format stream-json --output-format
 * stream-json --verbose --permission-prompt-tool stdio --permission-mode default`. Plain `-p`
 * never fires PermissionRequest (the tool is denied silently); in SDK mode the hook fires and
 * races the host's own `can_use_tool` control request, which the lane, as host, leaves
 * unanswered unless the scenario's local user answers it (the fallback prompt).
 * Hooks go in `<work>/.claude/settings.json`; the model endpoint in ANTHROPIC_BASE_URL.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { LaunchContext, VendorDriver, VendorSession } from './driver.js';
import { TmuxPane } from './tmux.js';
import { ensureDir } from '../../impl/adapter-kit/ensure-dir.js';

/** The environment Claude Code needs to run offline against the scripted server. */
export function claudeEnv(ctx: Pick<LaunchContext, 'dirs' | 'modelUrl' | 'hookEnv'>): Record<string, string> {
  return {
    PATH: `${ctx.dirs.bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: ctx.dirs.home,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: ctx.modelUrl,
    ANTHROPIC_API_KEY: 'sk-ant-aep-vendor-lane-dummy',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_ERROR_REPORTING: '1',
    ...ctx.hookEnv,
  };
}

export const CLAUDE_SDK_ARGS = ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--permission-prompt-tool', 'stdio', '--permission-mode', 'default'];

/** A stream-json SDK session (Claude Code, and Qwen Code which speaks the same control protocol). */
export class SdkSession implements VendorSession {
  private out = '';
  private readonly lines: Record<string, unknown>[] = [];
  protected exited = false;

  constructor(protected readonly child: ChildProcess) {
    child.stdout!.on('data', (c: Buffer) => {
      this.out += c.toString();
      let nl: number;
      while ((nl = this.out.indexOf('\n')) >= 0) {
        const line = this.out.slice(0, nl);
        this.out = this.out.slice(nl + 1);
        try {
          this.lines.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          // not a JSON line
        }
      }
    });
    child.stderr!.resume();
    child.on('exit', () => (this.exited = true));
  }

  send(message: unknown): void {
    if (!this.child.stdin!.destroyed) this.child.stdin!.write(`${JSON.stringify(message)}\n`);
  }

  /** can_use_tool requests the CLI has not cancelled. */
  private pendingPrompts(): Record<string, unknown>[] {
    const cancelled = new Set(this.lines.filter((l) => l.type === 'control_cancel_request').map((l) => l.request_id));
    const answered = new Set(this.lines.filter((l) => l.type === 'aep_local_answer').map((l) => l.request_id));
    return this.lines.filter((l) => l.type === 'control_request' && (l.request as Record<string, unknown> | undefined)?.subtype === 'can_use_tool' && !cancelled.has(l.request_id) && !answered.has(l.request_id));
  }

  async answerLocally(allow: boolean, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline && !this.exited) {
      const [pending] = this.pendingPrompts();
      if (pending) {
        const request = pending.request as { input?: unknown };
        const response = allow ? { behavior: 'allow', updatedInput: request.input ?? {} } : { behavior: 'deny', message: 'Denied by the local user' };
        this.send({ type: 'control_response', response: { subtype: 'success', request_id: pending.request_id, response } });
        this.lines.push({ type: 'aep_local_answer', request_id: pending.request_id });
        return true;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    return false;
  }

  promptPending(): boolean {
    return this.pendingPrompts().length > 0;
  }

  async end(ms: number): Promise<void> {
    this.child.stdin!.end();
    const deadline = Date.now() + ms;
    while (!this.exited && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  }

  transcript(): Promise<string> {
    return Promise.resolve(this.lines.map((l) => JSON.stringify(l)).join('\n'));
  }
}

const DIALOG = /Do you want to proceed\?/;

/**
 * `$HOME/.claude.json` for the TUI: onboarding done, the dummy API key approved, the project's
 * trust dialog accepted (else the TUI stops at each of those screens).
 */
export function claudeState(work: string, apiKey: string): Record<string, unknown> {
  return {
    hasCompletedOnboarding: true,
    lastOnboardingVersion: '2.1.197',
    theme: 'dark',
    customApiKeyResponses: { approved: [apiKey.slice(-20)], rejected: [] },
    projects: { [work]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
  };
}

/** The interactive TUI in a tmux pane: the prompt is typed, the permission dialog answered with keys. */
class ClaudeTuiSession implements VendorSession {
  private last = '';
  constructor(private readonly pane: TmuxPane) {}

  async answerLocally(allow: boolean, ms: number): Promise<boolean> {
    if ((await this.pane.waitFor(DIALOG, ms)) === null) return false;
    await this.pane.keys(allow ? '1' : 'Escape');
    return true;
  }

  async end(ms: number): Promise<void> {
    if (await this.pane.dead()) return;
    this.last = await this.pane.screen().catch(() => this.last);
    await this.pane.keys('/exit', true);
    await new Promise((r) => setTimeout(r, 300));
    await this.pane.keys('Enter');
    if (await this.pane.waitExit(Math.min(ms, 5000))) return;
    for (const key of ['Escape', 'C-c', 'C-c']) {
      await this.pane.keys(key);
      if (await this.pane.waitExit(1500)) return;
    }
  }

  async transcript(): Promise<string> {
    const now = await this.pane.screen().catch(() => '');
    return now.replace(/Pane is dead.*$/m, '').trim() === '' ? this.last : now;
  }
}

export const claudeCodeDriver: VendorDriver = {
  vendor: 'claude-code',
  adapter: 'claude-code',
  mode: 'SDK mode (-p, stream-json, --permission-prompt-tool stdio)',
  tuiMode: 'TUI under tmux ($HOME/.claude.json pre-seeded)',
  exampleFile: 'impl/adapters/claude-code/settings.example.json',
  toolCall(kind, proof) {
    if (kind === 'write-proof') return { name: 'Bash', input: { command: `echo hi > ${proof}`, description: 'Write the proof file' } };
    if (kind === 'failing-command') return { name: 'Bash', input: { command: `echo hi > ${proof}.missing-dir/proof.txt`, description: 'Write into a folder that does not exist' } };
    return {
      name: 'AskUserQuestion',
      input: {
        questions: [
          {
            question: 'Which colour should the proof file name?',
            header: 'Colour',
            multiSelect: false,
            options: [
              { label: 'Red', description: 'The warm one' },
              { label: 'Blue', description: 'The cool one' },
            ],
          },
        ],
      },
    };
  },
  async launch(ctx) {
    ensureDir(join(ctx.dirs.work, '.claude'));
    writeFileSync(join(ctx.dirs.work, '.claude', 'settings.json'), JSON.stringify(ctx.hookConfig, null, 2));
    const env = ctx.jar.marked(claudeEnv(ctx));
    if (ctx.tui) {
      writeFileSync(join(ctx.dirs.home, '.claude.json'), JSON.stringify(claudeState(ctx.dirs.work, env.ANTHROPIC_API_KEY!)));
      const pane = TmuxPane.start(ctx.jar, 'claude', ctx.dirs.work, env, [ctx.binary]);
      // The prompt box is ready once the TUI shows its footer.
      await pane.waitFor(/for shortcuts/, 15_000);
      await pane.keys(ctx.prompt, true);
      await new Promise((r) => setTimeout(r, 300));
      await pane.keys('Enter');
      return new ClaudeTuiSession(pane);
    }
    const child = ctx.jar.spawn(ctx.binary, CLAUDE_SDK_ARGS, { cwd: ctx.dirs.work, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const session = new SdkSession(child);
    session.send({ type: 'user', message: { role: 'user', content: ctx.prompt } });
    return session;
  },
};
