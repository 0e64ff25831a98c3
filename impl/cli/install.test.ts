/**
 * The example configurations' exact commands work once the clone is installed: `npm install -g
 * --prefix <tmp> <clone>` (offline: a folder install is a symlink), then every `command` string in
 * impl/adapters/claude-code/settings*.json and impl/adapters/codex/hooks.example.json runs through
 * `sh -c` with PATH = <tmp>/bin and node's folder only, against live daemons: exit 0, no stderr
 * (no misconfiguration), the daemon's reply on stdout. The clone form `node <clone>/bin/aep.js hook`
 * works from any folder.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdapter, type RunningAdapter } from '../adapter-kit/daemon.js';
import { tempHome } from '../adapter-kit/test-utils/daemon-harness.js';
import { adapter as claudeCode } from '../adapters/claude-code/adapter.js';
import { adapter as codex } from '../adapters/codex/adapter.js';
import { skipped, WHY } from '../test-utils/skip.js';

const root = resolve('.');
const npm = spawnSync('npm', ['--version'], { encoding: 'utf8' }).status === 0;
const ready = existsSync(join(root, 'dist/impl/cli/hook.cjs')) && npm && process.platform !== 'win32';

/** Every `{type: "command", command}` in a hook configuration file. */
function commands(file: string): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) {
      const o = v as Record<string, unknown>;
      if (o.type === 'command' && typeof o.command === 'string') out.push(o.command);
      Object.values(o).forEach(walk);
    }
  };
  walk(JSON.parse(readFileSync(file, 'utf8')));
  return out;
}

/** An async spawn: the daemons answering the shims live in this process, so it must not block. */
function run(cmd: string, args: string[], opts: { env: Record<string, string>; input: string; cwd?: string }): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: opts.env, ...(opts.cwd ? { cwd: opts.cwd } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(opts.input);
  });
}

const files = [
  ...readdirSync(join(root, 'impl/adapters/claude-code'))
    .filter((f) => /^settings.*\.json$/.test(f))
    .map((f) => `impl/adapters/claude-code/${f}`),
  'impl/adapters/codex/hooks.example.json',
];

describe.skipIf(!ready)(`the example configurations, installed from the clone${skipped(!ready, WHY.build)}`, () => {
  let prefix = '';
  const daemons: RunningAdapter[] = [];
  let env: Record<string, string> = {};

  beforeAll(async () => {
    prefix = mkdtempSync(join(tmpdir(), 'aep-prefix-'));
    const install = spawnSync('npm', ['install', '-g', '--prefix', prefix, '--offline', '--ignore-scripts', '--no-audit', '--no-fund', root], { encoding: 'utf8', timeout: 60_000 });
    if (install.status !== 0) throw new Error(`npm install -g --prefix failed: ${install.stderr}`);
    // A short hold: held hooks (PermissionRequest, Elicitation) time out to the neutral reply at once.
    daemons.push(await startAdapter(claudeCode, { port: 0, home: tempHome(), attentionTimeoutMs: 100 }), await startAdapter(codex, { port: 0, home: tempHome(), attentionTimeoutMs: 100 }));
    env = {
      PATH: `${join(prefix, 'bin')}:${dirname(process.execPath)}`,
      HOME: process.env.HOME ?? tmpdir(),
      AEP_CLAUDE_CODE_PORT: String(daemons[0]!.port),
      AEP_CODEX_PORT: String(daemons[1]!.port),
    };
  }, 90_000);
  afterAll(async () => {
    await Promise.all(daemons.map((d) => d.close()));
    if (prefix) rmSync(prefix, { recursive: true, force: true }); // the symlinks only, never the clone
  });

  it('puts aep on PATH under the prefix', () => {
    const which = spawnSync('/bin/sh', ['-c', 'command -v aep'], { env, encoding: 'utf8' });
    expect(which.status).toBe(0);
    expect(which.stdout.trim()).toBe(join(prefix, 'bin', 'aep'));
  });

  it.each(files)('%s: every command runs as written, exit 0, no stderr', async (file) => {
    const list = commands(join(root, file));
    expect(list.length).toBeGreaterThan(0);
    for (const command of list) {
      const [, , name, event] = command.split(/\s+/);
      const input = JSON.stringify({ hook_event_name: event, session_id: `install-${name}`, cwd: '/tmp', ...(name === 'codex' ? { turn_id: 't1' } : {}) });
      const r = await run('/bin/sh', ['-c', command], { env, input });
      expect({ command, status: r.status, stderr: r.stderr }).toEqual({ command, status: 0, stderr: '' });
      expect(command).toMatch(/^aep hook (claude-code|codex) [A-Za-z]+$/);
    }
  }, 60_000);

  it('the clone form works from any folder: node <clone>/bin/aep.js hook ...', async () => {
    const r = await run(process.execPath, [join(root, 'bin', 'aep.js'), 'hook', 'claude-code', 'SessionStart'], {
      cwd: tmpdir(),
      env: { ...env, PATH: dirname(process.execPath) },
      input: '{"hook_event_name":"SessionStart","session_id":"clone-form","source":"startup"}',
    });
    expect(r).toMatchObject({ status: 0, stdout: '{}', stderr: '' });
  });

  it('without the install, a bare aep is exit 127 (what a vendor sees when PATH lacks it)', () => {
    const r = spawnSync('/bin/sh', ['-c', 'aep hook claude-code Stop'], { env: { PATH: dirname(process.execPath) }, input: '{}', encoding: 'utf8' });
    expect(r.status).toBe(127);
  });
});
