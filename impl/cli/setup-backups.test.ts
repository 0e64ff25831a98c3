/**
 * `aep setup hooks/unhooks` and the user's file: one backup per file, refreshed rather than piled
 * up; none left behind for a file the tool created and deleted; and a file the user edited after
 * the hooks were wired (no backup matches) ends without our hooks but with the user's edit.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aep } from '../operator/test-utils/stack.js';
import { hookVendors } from '../operator/hook-wiring/vendors.js';

const FILE_VENDORS = hookVendors().filter((v) => v.format !== 'dir');
const scratch = (): string => mkdtempSync(join(tmpdir(), 'aep-backups-'));
const backups = (dir: string): string[] => readdirSync(dir).filter((n) => n.includes('.aep-backup')).sort();
/** Anything of our wiring: the shim's command or a loopback hook URL, or a fence. */
const OURS = /bin\/aep\.js|127\.0\.0\.1:\d+\/hook|aep hook|>>> aep|<<< aep/;

/** The user's own settings, and the same with an edit made after the hooks were wired. */
const USER: Record<string, { text: string; edit(wired: string): string; edited: string | ((text: string) => unknown) }> = {
  json: {
    text: '{\n  "theme": "dark"\n}\n',
    edit: (wired) => JSON.stringify({ ...JSON.parse(wired), model: 'edited-after-wiring' }, null, 2),
    edited: (text) => JSON.parse(text),
  },
  yaml: { text: 'display:\n  skin: dark\n', edit: (wired) => `${wired}model: edited-after-wiring\n`, edited: 'display:\n  skin: dark\nmodel: edited-after-wiring\n' },
  toml: { text: 'model = "k2"\n', edit: (wired) => `${wired}theme = "edited-after-wiring"\n`, edited: 'model = "k2"\ntheme = "edited-after-wiring"\n' },
};

describe('aep setup hooks/unhooks: backups', () => {
  for (const v of FILE_VENDORS) {
    const user = USER[v.format]!;
    describe(v.name, () => {
      it('two hooks/unhooks cycles leave the file as it was and no backup; between them one backup at most', async () => {
        const dir = scratch();
        const file = join(dir, `settings.${v.format}`);
        writeFileSync(file, user.text);
        for (let cycle = 0; cycle < 2; cycle++) {
          expect((await aep(['setup', 'hooks', v.name, '--file', file])).code).toBe(0);
          expect((await aep(['setup', 'hooks', v.name, '--file', file], { [v.portEnv]: '9911' })).code).toBe(0);
          expect(backups(dir)).toEqual([`settings.${v.format}.aep-backup`]);
          expect(readFileSync(join(dir, backups(dir)[0]!), 'utf8')).toBe(user.text);
          const un = await aep(['setup', 'unhooks', v.name, '--file', file]);
          expect(un.code, un.err).toBe(0);
          expect(readFileSync(file, 'utf8')).toBe(user.text);
          expect(backups(dir)).toEqual([]);
        }
      });
      it('a file hooks created and unhooks deletes leaves no backup behind', async () => {
        const dir = scratch();
        const file = join(dir, `settings.${v.format}`);
        expect((await aep(['setup', 'hooks', v.name, '--file', file])).code).toBe(0);
        expect((await aep(['setup', 'hooks', v.name, '--file', file], { [v.portEnv]: '9912' })).code).toBe(0);
        expect(backups(dir).length).toBeLessThanOrEqual(1);
        const un = await aep(['setup', 'unhooks', v.name, '--file', file]);
        expect(un.code, un.err).toBe(0);
        expect(existsSync(file)).toBe(false);
        expect(readdirSync(dir)).toEqual([]);
      });
      it('a file the user edited after wiring: unhooks takes our hooks out and keeps the edit', async () => {
        const dir = scratch();
        const file = join(dir, `settings.${v.format}`);
        writeFileSync(file, user.text);
        expect((await aep(['setup', 'hooks', v.name, '--file', file])).code).toBe(0);
        const wired = readFileSync(file, 'utf8');
        expect(wired).toMatch(OURS);
        writeFileSync(file, user.edit(wired));
        const un = await aep(['setup', 'unhooks', v.name, '--file', file]);
        expect(un.code, un.err).toBe(0);
        expect(un.out).toContain(`removed the ${v.name} hooks; everything else is kept`);
        const after = readFileSync(file, 'utf8');
        expect(after).not.toMatch(OURS);
        if (typeof user.edited === 'function') expect(user.edited(after)).toEqual({ ...(user.edited(user.text) as object), model: 'edited-after-wiring' });
        else expect(after).toBe(user.edited);
        // The one backup now holds the file as it was before unhooks (the user's edit with our hooks), nothing older.
        expect(backups(dir)).toEqual([`settings.${v.format}.aep-backup`]);
        expect(readFileSync(join(dir, backups(dir)[0]!), 'utf8')).toBe(user.edit(wired));
      });
    });
  }
});
