import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deadPort } from '../test-utils/dead-port.js';
import { mergeHooks } from '../operator/hook-config.js';
import { readPid, isAlive } from '../operator/daemons.js';
import { aep } from '../operator/test-utils/stack.js';

const BUILT = existsSync(new URL('../../dist/impl/cli/setup.js', import.meta.url));

describe('hook wiring merge (pure)', () => {
  const example = { hooks: { Stop: [{ hooks: [{ type: 'http', url: 'http://127.0.0.1:8377/hook/Stop' }] }], PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'aep hook x PreToolUse' }] }] } };
  it('adds what is missing, keeps everything else, and is idempotent', () => {
    const mine = { model: 'opus', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }] } };
    const once = mergeHooks(mine, example);
    if (!once.ok) throw new Error(once.error);
    expect(once.added).toEqual(['Stop', 'PreToolUse']);
    expect(once.config).toEqual({ model: 'opus', hooks: { Stop: [mine.hooks.Stop[0], example.hooks.Stop[0]], PreToolUse: example.hooks.PreToolUse } });
    const twice = mergeHooks(once.config, example);
    expect(twice).toEqual({ ok: true, config: once.config, added: [], present: ['Stop', 'PreToolUse'] });
    expect(mergeHooks([], example)).toEqual({ ok: false, error: 'the file is not a JSON object' });
    expect(mergeHooks({ hooks: { Stop: {} } }, example)).toEqual({ ok: false, error: '"hooks.Stop" is not an array' });
  });
});

describe('aep setup hooks', () => {
  it('claude-code: backs up, merges, a second run writes nothing; --dry-run writes nothing; the port follows AEP_CLAUDE_CODE_PORT', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aep-setup-'));
    const file = join(dir, 'settings.json');
    writeFileSync(file, JSON.stringify({ theme: 'dark' }));
    const dry = await aep(['setup', 'hooks', 'claude-code', '--file', file, '--dry-run'], { AEP_CLAUDE_CODE_PORT: '9377' });
    expect(dry.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('{"theme":"dark"}');
    expect(JSON.parse(dry.out).hooks.Stop[0].hooks[0].url).toBe('http://127.0.0.1:9377/hook/Stop');
    const first = await aep(['setup', 'hooks', 'claude-code', '--file', file, '--json'], { AEP_CLAUDE_CODE_PORT: '9377' });
    expect(first.code).toBe(0);
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written.theme).toBe('dark');
    expect(Object.keys(written.hooks).length).toBeGreaterThan(10);
    const backups = readdirSync(dir).filter((f) => f.startsWith('settings.json.aep-backup-'));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(dir, backups[0]!), 'utf8')).toBe('{"theme":"dark"}');
    const second = await aep(['setup', 'hooks', 'claude-code', '--file', file], { AEP_CLAUDE_CODE_PORT: '9377' });
    expect(second.out).toContain('every hook is already wired');
    expect(readdirSync(dir).filter((f) => f.includes('aep-backup'))).toHaveLength(1);
  });
  it('codex: writes $CODEX_HOME/hooks.json with the shim commands; refuses a broken file without touching it', async () => {
    const codexHome = mkdtempSync(join(tmpdir(), 'aep-codex-'));
    const r = await aep(['setup', 'hooks', 'codex'], { CODEX_HOME: codexHome });
    expect(r.code).toBe(0);
    expect(r.out).toContain('trust them');
    const cfg = JSON.parse(readFileSync(join(codexHome, 'hooks.json'), 'utf8'));
    expect(cfg.hooks.SessionStart[0].hooks[0].command).toBe('aep hook codex SessionStart');
    writeFileSync(join(codexHome, 'hooks.json'), '{broken');
    const bad = await aep(['setup', 'hooks', 'codex'], { CODEX_HOME: codexHome });
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('is not valid JSON');
    expect(readFileSync(join(codexHome, 'hooks.json'), 'utf8')).toBe('{broken');
    expect((await aep(['setup', 'hooks', 'cursor'])).code).toBe(2);
  });
});

describe.skipIf(!BUILT)('aep setup up/down (built dist/)', () => {
  it('starts the relay detached with a pid file, status and doctor see it, down stops it', async () => {
    const home = mkdtempSync(join(tmpdir(), 'aep-setup-home-'));
    const env = { AEP_HOME: home, AEP_PORT: String(await deadPort()), AEP_TOKEN: 'setup-test-token', AEP_CLAUDE_CODE_PORT: String(await deadPort()), AEP_CODEX_PORT: String(await deadPort()), PATH: process.env.PATH ?? '' };
    try {
      const upR = await aep(['setup', 'up', 'relay'], env);
      expect(upR.code, upR.err).toBe(0);
      expect(upR.out).toMatch(new RegExp(`relay up on 127\\.0\\.0\\.1:${env.AEP_PORT} \\(pid \\d+`));
      const pid = readPid(home, 'relay')!;
      expect(isAlive(pid)).toBe(true);
      expect((await aep(['setup', 'up', 'relay'], env)).out).toContain('already answers');
      expect((await aep(['setup', 'status'], env)).out).toMatch(new RegExp(`relay +127\\.0\\.0\\.1:${env.AEP_PORT}  up  pid ${pid}`));
      const doc = await aep(['doctor', '--relay', `http://127.0.0.1:${env.AEP_PORT}`], env);
      expect(doc.code, doc.out).toBe(0);
      const downR = await aep(['setup', 'down', 'relay'], env);
      expect(downR.out).toContain('relay stopped');
      expect(isAlive(pid)).toBe(false);
      expect(existsSync(join(home, 'run', 'relay.pid'))).toBe(false);
    } finally {
      const pid = readPid(home, 'relay');
      if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
  }, 20_000);
});
