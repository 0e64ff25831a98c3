import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOOKS } from './adapter.js';
import { FENCE_BEGIN, FENCE_END, hooksBlock, writeHooksBlock } from './config-toml.js';
import { installHooks, kimiConfigPath } from './install.js';

const USER = 'default_model = "kimi-k3"\n\n[ui]\ntheme = "dark"\n';

describe('the Kimi Code hooks block', () => {
  it('registers the sixteen events, four-field-schema fields only, PreToolUse with room for the 50 s gate', () => {
    const block = hooksBlock();
    expect(block.startsWith(`${FENCE_BEGIN}\n`) && block.endsWith(`${FENCE_END}\n`)).toBe(true);
    const tables = block.split('[[hooks]]').slice(1);
    expect(tables.map((t) => /event = "([^"]+)"/.exec(t)![1])).toEqual([...HOOKS]);
    for (const t of tables) {
      const keys = t.trim().split('\n').filter((l) => !l.startsWith('#')).map((l) => l.split(' = ')[0]);
      expect(keys).toEqual(['event', 'command', 'timeout']);
    }
    expect(block).toContain('event = "PreToolUse"\ncommand = "aep hook kimi-code PreToolUse"\ntimeout = 60');
    expect(hooksBlock({ port: 9001 })).toContain('command = "aep hook kimi-code Stop --port 9001"');
  });

  it('appends at the end (never above user keys), then is idempotent byte for byte', () => {
    const first = writeHooksBlock(USER);
    expect(first.outcome).toBe('appended');
    expect(first.text).toBe(`${USER}\n${hooksBlock()}`);
    expect(writeHooksBlock(first.text)).toEqual({ text: first.text, outcome: 'unchanged' });
    expect(writeHooksBlock('').text).toBe(hooksBlock());
    expect(writeHooksBlock('a = 1').text).toBe(`a = 1\n\n${hooksBlock()}`);
  });

  it('refreshes a stale fence in place, keeping what surrounds it', () => {
    const stale = `${USER}\n${FENCE_BEGIN}\n[[hooks]]\nevent = "Stop"\ncommand = "old"\n${FENCE_END}\n# trailing note\n`;
    const { text, outcome } = writeHooksBlock(stale);
    expect(outcome).toBe('refreshed');
    expect(text).toBe(`${USER}\n${hooksBlock()}# trailing note\n`);
  });

  it('a fence stripped by the vendor (hooks present, comments gone) is left alone: no duplicates', () => {
    const stripped = hooksBlock().split('\n').filter((l) => !l.startsWith('#')).join('\n');
    expect(writeHooksBlock(stripped)).toEqual({ text: stripped, outcome: 'present-unfenced' });
  });

  it('config.example.toml is the block the writer produces', () => {
    const example = readFileSync(new URL('./config.example.toml', import.meta.url), 'utf8');
    expect(example.slice(example.indexOf(FENCE_BEGIN))).toBe(hooksBlock());
  });

  it('installHooks: a timestamped backup before a change, no write at all when unchanged', () => {
    const home = mkdtempSync(join(tmpdir(), 'aep-kimi-'));
    const file = kimiConfigPath({ KIMI_CODE_HOME: home });
    expect(file).toBe(join(home, 'config.toml'));
    expect(installHooks(file)).toEqual({ outcome: 'appended' });
    writeFileSync(file, USER);
    const now = new Date('2026-11-05T08:09:10.123Z');
    expect(installHooks(file, {}, now)).toEqual({ outcome: 'appended', backup: `${file}.aep-backup-20261105T080910Z` });
    expect(readFileSync(`${file}.aep-backup-20261105T080910Z`, 'utf8')).toBe(USER);
    expect(readFileSync(file, 'utf8')).toBe(`${USER}\n${hooksBlock()}`);
    expect(installHooks(file, {}, new Date('2026-11-05T09:00:00Z'))).toEqual({ outcome: 'unchanged' });
    expect(readdirSync(home).sort()).toEqual(['config.toml', 'config.toml.aep-backup-20261105T080910Z']);
  });
});
