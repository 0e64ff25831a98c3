/**
 * What `aep setup hooks` / `unhooks` leave in the user's file, byte for byte (issue 37: a break
 * that made `unhooks` write the settings file back unchanged passed every test). Each case wires
 * our hooks into a user's file, edits another key the way the user would, unhooks, and asserts
 * the whole file: the user's file with the edit, without our hooks.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aep } from '../operator/test-utils/stack.js';

const scratch = (): string => mkdtempSync(join(tmpdir(), 'aep-unhooks-'));
const json = (v: unknown): string => `${JSON.stringify(v, null, 2)}\n`;
const OURS = /aep\.js hook |http:\/\/127\.0\.0\.1:\d+\/hook\/|aep-observer/;

const userGroup = { hooks: [{ type: 'command', command: 'notify-send done', timeout: 5 }] };
const userHandler = { type: 'command', command: 'notify-send done', timeout: 5 };

/** A user's file, and the same file after the user edits one key (never touching our hooks). */
const CASES: Array<{ vendor: string; ext: string; user: string; edit: (wired: string) => string; edited: string }> = [
  {
    vendor: 'claude-code',
    ext: 'json',
    user: json({ theme: 'dark', hooks: { Stop: [userGroup] } }),
    edit: (w) => json({ ...(JSON.parse(w) as object), model: 'opus' }),
    edited: json({ theme: 'dark', hooks: { Stop: [userGroup] }, model: 'opus' }),
  },
  {
    vendor: 'claude-code',
    ext: 'json',
    user: json({ theme: 'dark' }),
    edit: (w) => json({ ...(JSON.parse(w) as object), theme: 'light' }),
    edited: json({ theme: 'light' }),
  },
  {
    vendor: 'codex',
    ext: 'json',
    user: json({ hooks: { Stop: [userGroup] }, note: 'mine' }),
    edit: (w) => json({ ...(JSON.parse(w) as object), note: 'edited' }),
    edited: json({ hooks: { Stop: [userGroup] }, note: 'edited' }),
  },
  {
    vendor: 'vscode',
    ext: 'json',
    user: json({ hooks: { Stop: [userHandler] }, note: 'mine' }),
    edit: (w) => json({ ...(JSON.parse(w) as object), note: 'edited' }),
    edited: json({ hooks: { Stop: [userHandler] }, note: 'edited' }),
  },
  {
    vendor: 'antigravity',
    ext: 'json',
    user: json({ mine: { enabled: true } }),
    edit: (w) => json({ ...(JSON.parse(w) as object), mine: { enabled: false } }),
    edited: json({ mine: { enabled: false } }),
  },
  {
    vendor: 'hermes',
    ext: 'yaml',
    user: 'display:\n  skin: dark\nmodel: local # mine\n',
    edit: (w) => w.replace('model: local # mine', 'model: remote # edited'),
    edited: 'display:\n  skin: dark\nmodel: remote # edited\n',
  },
  {
    vendor: 'hermes',
    ext: 'yaml',
    user: 'model: local',
    edit: (w) => w.replace('model: local', 'model: remote'),
    edited: 'model: remote',
  },
  {
    vendor: 'kimi-code',
    ext: 'toml',
    user: 'model = "k2"\n\n[[hooks]]\nevent = "Stop"\ncommand = "notify-send done"\n',
    edit: (w) => w.replace('model = "k2"', 'model = "k3"'),
    edited: 'model = "k3"\n\n[[hooks]]\nevent = "Stop"\ncommand = "notify-send done"\n',
  },
];

describe('setup unhooks after the user edited the file: the user file with the edit, without our hooks', () => {
  for (const [i, k] of CASES.entries()) {
    it(`${k.vendor} (${k.ext}, case ${i})`, async () => {
      const dir = scratch();
      const file = join(dir, `settings.${k.ext}`);
      writeFileSync(file, k.user);
      const wiredRun = await aep(['setup', 'hooks', k.vendor, '--file', file]);
      expect(wiredRun.code, wiredRun.err).toBe(0);
      const wired = readFileSync(file, 'utf8');
      expect(wired).toMatch(OURS);
      expect(readFileSync(`${file}.aep-backup`, 'utf8')).toBe(k.user);
      const mine = k.edit(wired);
      expect(mine).not.toBe(wired);
      writeFileSync(file, mine);
      const un = await aep(['setup', 'unhooks', k.vendor, '--file', file]);
      expect(un.code, un.err).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(k.edited);
      expect(un.out).toBe(`${file}: removed the ${k.vendor} hooks; everything else is kept (backup: ${file}.aep-backup)\n`);
      // The one backup holds the file as it was before unhooks: the user's edit with our hooks.
      expect(readFileSync(`${file}.aep-backup`, 'utf8')).toBe(mine);
      expect(readdirSync(dir).sort()).toEqual([`settings.${k.ext}`, `settings.${k.ext}.aep-backup`]);
      // Unhooks again: nothing of ours is left, nothing is written.
      const again = await aep(['setup', 'unhooks', k.vendor, '--file', file]);
      expect(again.code, again.err).toBe(0);
      expect(again.out).toBe(`${file}: no hooks of the ${k.vendor} adapter there; nothing to remove\n`);
      expect(readFileSync(file, 'utf8')).toBe(k.edited);
    });
  }

  it('without an edit, unhooks gives the original bytes back and drops the backup', async () => {
    const dir = scratch();
    const file = join(dir, 'settings.json');
    const user = '{"theme":"dark",\n   "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]}}';
    writeFileSync(file, user);
    expect((await aep(['setup', 'hooks', 'claude-code', '--file', file])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).not.toBe(user);
    const un = await aep(['setup', 'unhooks', 'claude-code', '--file', file]);
    expect(un.out).toBe(`${file}: removed the claude-code hooks; the file is back to its bytes from before they were wired\n`);
    expect(readFileSync(file, 'utf8')).toBe(user);
    expect(existsSync(`${file}.aep-backup`)).toBe(false);
  });
});
