import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aep } from '../operator/test-utils/stack.js';
import { hookVendors, type HookVendor } from '../operator/hook-wiring/vendors.js';

const VENDORS = hookVendors();
const scratch = (): string => mkdtempSync(join(tmpdir(), 'aep-hooks-'));

/** A user's own configuration in the vendor's format, written unusually (no final newline, compact) on purpose. */
function userContent(v: HookVendor): string {
  if (v.format === 'yaml') return 'display:\n  skin: dark\nmodel: local # mine';
  if (v.format === 'toml') return 'model = "k2"\n\n[[hooks]]\nevent = "Stop"\ncommand = "notify-send done"\ntimeout = 5\n';
  const example = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', v.example), 'utf8')) as Record<string, unknown>;
  if (example.hooks === undefined) return '{"mine":{"enabled":true,"Stop":[{"hooks":[{"type":"command","command":"notify-send done"}]}]}}';
  const first = Object.values(example.hooks as Record<string, unknown[]>)[0]![0] as Record<string, unknown>;
  const handler = { type: 'command', command: 'notify-send done', timeout: 5 };
  const stop = Array.isArray(first.hooks) ? [{ hooks: [handler] }] : [handler];
  return JSON.stringify({ theme: 'dark', hooks: { Stop: stop, [Object.keys(example.hooks as object)[0]!]: stop } });
}

/** The file (or, for a folder, every file in it) as one string; undefined when absent. */
function snapshot(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  if (!statSync(path).isDirectory()) return readFileSync(path, 'utf8');
  return readdirSync(path).sort().map((n) => `${n}\n${readFileSync(join(path, n), 'utf8')}`).join('\n---\n');
}

describe('aep setup hooks / unhooks, every hook vendor', () => {
  it('knows every adapter with a hook example (and not the plugin ones)', () => {
    expect(VENDORS.map((v) => v.name).sort()).toEqual(['antigravity', 'claude-code', 'cline', 'codex', 'gemini-cli', 'hermes', 'kimi-code', 'qwen-code', 'vscode']);
  });
  for (const v of VENDORS) {
    describe(v.name, () => {
      const fileIn = (dir: string): string => join(dir, v.format === 'dir' ? 'hooks' : `settings.${v.format}`);
      it('hooks, hooks again on another port, unhooks: the user file is byte-identical; the re-run replaced ours', async () => {
        const dir = scratch();
        const file = fileIn(dir);
        if (v.format === 'dir') {
          mkdirSync(file);
          writeFileSync(join(file, 'Notification'), '#!/bin/sh\necho mine\n');
        } else writeFileSync(file, userContent(v));
        const before = snapshot(file);
        const first = await aep(['setup', 'hooks', v.name, '--file', file]);
        expect(first.code, first.err).toBe(0);
        expect(snapshot(file)).not.toBe(before);
        const wired = snapshot(file)!;
        expect(wired).toMatch(/bin\/aep\.js hook |http:\/\/127\.0\.0\.1:\d+\/hook\//);
        expect(wired).not.toMatch(/"aep hook /);
        const again = await aep(['setup', 'hooks', v.name, '--file', file], { [v.portEnv]: '9999' });
        expect(again.code, again.err).toBe(0);
        // The same as wiring the original once on 9999: replaced, not a second set.
        const fresh = fileIn(scratch());
        if (v.format === 'dir') {
          mkdirSync(fresh);
          writeFileSync(join(fresh, 'Notification'), '#!/bin/sh\necho mine\n');
        } else writeFileSync(fresh, userContent(v));
        expect((await aep(['setup', 'hooks', v.name, '--file', fresh], { [v.portEnv]: '9999' })).code).toBe(0);
        expect(snapshot(file)).toBe(snapshot(fresh));
        expect(snapshot(file)).toContain('9999');
        expect(snapshot(file)).not.toContain(`:${v.port}/`);
        const un = await aep(['setup', 'unhooks', v.name, '--file', file]);
        expect(un.code, un.err).toBe(0);
        expect(snapshot(file)).toBe(before);
        const twice = await aep(['setup', 'unhooks', v.name, '--file', file]);
        expect(twice.code).toBe(0);
        expect(twice.out).toContain('nothing to remove');
        expect(snapshot(file)).toBe(before);
      });
      it('absent file: hooks, hooks again, hooks --remove leaves no file', async () => {
        const file = fileIn(scratch());
        expect((await aep(['setup', 'hooks', v.name, '--file', file])).code).toBe(0);
        expect(existsSync(file)).toBe(true);
        expect((await aep(['setup', 'hooks', v.name, '--file', file], { [v.portEnv]: '9998' })).code).toBe(0);
        const r = await aep(['setup', 'hooks', v.name, '--remove', '--file', file]);
        expect(r.code, r.err).toBe(0);
        expect(existsSync(file)).toBe(false);
      });
      it('the default path: HOME (or the vendor home variable) decides, and a missing folder is created', async () => {
        const home = scratch();
        const env = { HOME: home, CODEX_HOME: '', KIMI_CODE_HOME: '' };
        const r = await aep(['setup', 'hooks', v.name], env, home);
        expect(r.code, r.err).toBe(0);
        const target = v.target(env, home);
        expect(target.startsWith(home)).toBe(true);
        expect(existsSync(target)).toBe(true);
        expect((await aep(['setup', 'unhooks', v.name], env, home)).code).toBe(0);
        expect(existsSync(target)).toBe(false);
      });
      it('--file in a folder that does not exist: exit 1, a clear message, nothing created', async () => {
        const root = scratch();
        const dir = join(root, 'nonexistent', 'dir');
        const r = await aep(['setup', 'hooks', v.name, '--file', join(dir, 'settings')]);
        expect(r.code).toBe(1);
        expect(r.err).toContain('does not exist');
        // No raw errno code (ENOENT): the random temporary folder's name is taken out first, since it may spell one.
        expect(r.err.replaceAll(root, '<tmp>')).not.toMatch(/\bE[A-Z]{3,}\b/);
        expect(existsSync(join(dir, '..'))).toBe(false);
      });
      it('--dry-run writes nothing', async () => {
        const file = fileIn(scratch());
        const r = await aep(['setup', 'hooks', v.name, '--file', file, '--dry-run']);
        expect(r.code, r.err).toBe(0);
        expect(r.err).toContain('dry run');
        expect(existsSync(file)).toBe(false);
      });
    });
  }
  it('a settings path that is a directory: exit 1 and words, no EISDIR', async () => {
    for (const v of VENDORS.filter((x) => x.format !== 'dir')) {
      const r = await aep(['setup', 'hooks', v.name, '--file', scratch()]);
      expect(r.code, v.name).toBe(1);
      expect(r.err).toContain('it is a directory; name the settings file');
      expect(r.err).not.toContain('EISDIR');
      expect(r.err).not.toContain('internal error');
    }
  });
  it('a folder vendor given a file: exit 1 and words', async () => {
    const file = join(scratch(), 'f');
    writeFileSync(file, 'x');
    const r = await aep(['setup', 'hooks', 'cline', '--file', file]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('it is a file');
  });
  it('a broken JSON file is refused untouched; a YAML file with its own hooks: key is refused untouched', async () => {
    const file = join(scratch(), 'hooks.json');
    writeFileSync(file, '{broken');
    const bad = await aep(['setup', 'hooks', 'codex', '--file', file]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('is not valid JSON');
    expect(readFileSync(file, 'utf8')).toBe('{broken');
    const yaml = join(scratch(), 'config.yaml');
    writeFileSync(yaml, 'hooks:\n  on_session_start:\n    - command: "mine"\n');
    const y = await aep(['setup', 'hooks', 'hermes', '--file', yaml]);
    expect(y.code).toBe(1);
    expect(y.err).toContain("already has a top-level 'hooks:' key");
    expect(readFileSync(yaml, 'utf8')).toBe('hooks:\n  on_session_start:\n    - command: "mine"\n');
  });
  it('unknown vendors and plugin vendors are usage errors that name the known ones', async () => {
    const r = await aep(['setup', 'hooks', 'cursor']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('claude-code');
    const p = await aep(['setup', 'hooks', 'opencode']);
    expect(p.code).toBe(2);
    expect(p.err).toContain('plugin');
    // The plugin file by absolute path, one that exists: the user may run this from any folder.
    const path = /install (\S+) as/.exec(p.err)?.[1] ?? '';
    expect(path.startsWith('/'), p.err).toBe(true);
    expect(existsSync(path), path).toBe(true);
    expect((await aep(['setup', 'unhooks'])).code).toBe(2);
  });
  it('claude-code: the http hooks follow AEP_CLAUDE_CODE_PORT, SessionStart runs bin/aep.js by absolute path', async () => {
    const file = join(scratch(), 'settings.json');
    expect((await aep(['setup', 'hooks', 'claude-code', '--file', file], { AEP_CLAUDE_CODE_PORT: '9377' })).code).toBe(0);
    const cfg = JSON.parse(readFileSync(file, 'utf8'));
    expect(cfg.hooks.Stop[0].hooks[0].url).toBe('http://127.0.0.1:9377/hook/Stop');
    const cmd: string = cfg.hooks.SessionStart[0].hooks[0].command;
    expect(cmd).toMatch(/^\S*node\S* \S*\/bin\/aep\.js hook claude-code SessionStart --port 9377$/);
    expect(existsSync(cmd.split(' ')[1]!)).toBe(true);
  });
  it('setup down warns when the stopped adapter still has hooks wired', async () => {
    const home = scratch();
    const env = { HOME: home, AEP_HOME: join(home, '.aep') };
    expect((await aep(['setup', 'hooks', 'claude-code'], env)).code).toBe(0);
    const down = await aep(['setup', 'down', 'claude-code'], env);
    expect(down.code).toBe(0);
    expect(down.err).toContain("warning: the claude-code hooks in");
    expect(down.err).toContain("'aep setup unhooks claude-code'");
    expect((await aep(['setup', 'unhooks', 'claude-code'], env)).code).toBe(0);
    expect((await aep(['setup', 'down', 'claude-code'], env)).err).not.toContain('warning');
  });
});
