/**
 * Cline CLI, headless: `cline --json <prompt>` (act mode, auto-approve on: Cline's CLI default)
 * against the scripted OpenAI Chat Completions API. The provider is configured as a user does it,
 * `cline auth -p openai -k <key> -m <model> -b <model server>/v1` (stored as the
 * `openai-compatible` provider under the throwaway `$HOME/.cline/data`). The hooks are the
 * adapter's example directory (`impl/adapters/cline/hooks/`, one executable per hook, each
 * `exec aep hook cline <Name>`), copied into `$HOME/.cline/hooks/` as the wiring steps say.
 * The adapter is read-only by default: no scenario answers anything.
 * The CLI leaves a detached hub daemon (`cline --cline-hub-daemon`) behind after the task; it
 * inherits the run's AEP_VENDOR_RUN marker, so the ProcessJar's marker sweep kills it.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LaunchContext, VendorDriver } from './driver.js';
import { PrintProcess } from './qwen-code.js';
import type { Wiring } from './wiring.js';
import { ensureDir } from '../../impl/adapter-kit/ensure-dir.js';

export const CLINE_MODEL = 'scripted-model';

/** The example hooks directory, checked (pure but for the reads): every file forwards to `aep hook <adapter> <its own name>`. */
export function wireHooksDir(dir: string, adapter: string): Wiring {
  const problems: string[] = [];
  const hooks: Wiring['hooks'] = [];
  let names: string[] = [];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return { config: {}, hooks, problems: [`${dir} is not a readable directory`] };
  }
  for (const name of names) {
    const line = readFileSync(join(dir, name), 'utf8').split('\n').find((l) => /^\s*(exec\s+)?aep\s/.test(l));
    const want = `aep hook ${adapter} ${name}`;
    if (!line || !line.includes(want)) problems.push(`${name}: expected the script to run "${want}", found ${JSON.stringify(line ?? 'no aep line')}`);
    else hooks.push({ event: name, type: 'command', target: line.trim() });
  }
  if (names.length === 0) problems.push(`${dir} holds no hook`);
  return { config: { hooksDir: dir, hooks: names }, hooks, problems };
}

export function clineEnv(ctx: Pick<LaunchContext, 'dirs' | 'hookEnv'>): Record<string, string> {
  return { PATH: `${ctx.dirs.bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, HOME: ctx.dirs.home, TERM: 'xterm-256color', LANG: 'C.UTF-8', ...ctx.hookEnv };
}

export const clineDriver: VendorDriver = {
  vendor: 'cline',
  adapter: 'cline',
  mode: 'CLI (--json, act mode, auto-approve)',
  exampleFile: 'impl/adapters/cline/hooks',
  wire: (path, adapter) => wireHooksDir(path, adapter),
  toolCall(kind, proof) {
    if (kind === 'write-proof') return { name: 'run_commands', input: { commands: [`echo hi > ${proof}`] } };
    if (kind === 'failing-command') return { name: 'run_commands', input: { commands: [`echo hi > ${proof}.missing-dir/proof.txt`] } };
    return null;
  },
  async launch(ctx) {
    const env = ctx.jar.marked(clineEnv(ctx));
    const hooksDir = join(ctx.dirs.home, '.cline', 'hooks');
    ensureDir(hooksDir);
    const from = String(ctx.hookConfig.hooksDir);
    for (const name of ctx.hookConfig.hooks as string[]) {
      copyFileSync(join(from, name), join(hooksDir, name));
      chmodSync(join(hooksDir, name), 0o755);
    }
    execFileSync(ctx.binary, ['auth', '-p', 'openai', '-k', 'aep-vendor-lane-dummy', '-m', CLINE_MODEL, '-b', `${ctx.modelUrl}/v1`], { cwd: ctx.dirs.work, env, stdio: 'ignore', timeout: 30_000 });
    const child = ctx.jar.spawn(ctx.binary, ['--json', ctx.prompt], { cwd: ctx.dirs.work, env, stdio: ['ignore', 'pipe', 'pipe'] });
    return new PrintProcess(child);
  },
};
