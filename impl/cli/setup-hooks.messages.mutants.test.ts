/**
 * What `aep setup hooks` / `unhooks` say and report, in whole (issue 37): the lines a user reads,
 * the `--json` report, the dry run, the refusals, the folder vendor, and `setup down`'s warning.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aep } from '../operator/test-utils/stack.js';
import { HOOKS_HELP, backupOf, wiredHooksWarning } from './setup-hooks.js';

const scratch = (): string => mkdtempSync(join(tmpdir(), 'aep-hooks-say-'));
const BIN = join(dirname(dirname(import.meta.dirname)), 'bin', 'aep.js');

describe('setup hooks: the lines and the report', () => {
  it('wire, wire again, wire on another port: each line and report in full', async () => {
    const file = join(scratch(), 'settings.json');
    writeFileSync(file, '{"theme": "dark"}\n');
    const note = 'Claude Code reads it at start; an interactive session runs no settings-file hooks until the folder is trusted';
    const first = await aep(['setup', 'hooks', 'claude-code', '--file', file]);
    expect(first).toMatchObject({ code: 0, err: '' });
    expect(first.out).toBe(`${file}: wired the claude-code hooks to 127.0.0.1:8377 (backup: ${file}.aep-backup). ${note}. 'aep setup unhooks claude-code' takes them out again.\n`);
    const same = await aep(['setup', 'hooks', 'claude-code', '--file', file, '--json']);
    expect(JSON.parse(same.out)).toEqual([{ vendor: 'claude-code', file, action: 'hooks', added: expect.any(Number), removed: expect.any(Number) }]);
    const moved = await aep(['setup', 'hooks', 'claude-code', '--file', file, '--json'], { AEP_CLAUDE_CODE_PORT: '9123' });
    const report = JSON.parse(moved.out) as Array<Record<string, unknown>>;
    expect(report).toEqual([{ vendor: 'claude-code', file, action: 'hooks', added: report[0]!.removed, removed: report[0]!.added, backup: `${file}.aep-backup` }]);
    expect(report[0]!.added).toBeGreaterThan(0);
    const again = await aep(['setup', 'hooks', 'claude-code', '--file', file], { AEP_CLAUDE_CODE_PORT: '9124' });
    expect(again.out).toBe(`${file}: wired the claude-code hooks to 127.0.0.1:9124, replacing the earlier ones (backup: ${file}.aep-backup). ${note}. 'aep setup unhooks claude-code' takes them out again.\n`);
    expect(readFileSync(backupOf(file), 'utf8')).toBe('{"theme": "dark"}\n');
    const same2 = await aep(['setup', 'hooks', 'claude-code', '--file', file], { AEP_CLAUDE_CODE_PORT: '9124' });
    expect(same2.out).toBe(`${file}: the claude-code hooks are already wired this way; nothing written\n`);
    const un = await aep(['setup', 'unhooks', 'claude-code', '--file', file, '--json']);
    expect(JSON.parse(un.out)).toEqual([{ vendor: 'claude-code', file, action: 'unhooks', added: 0, removed: report[0]!.added, deleted: false }]);
    expect(readFileSync(file, 'utf8')).toBe('{"theme": "dark"}\n');
    expect(existsSync(backupOf(file))).toBe(false);
    const none = await aep(['setup', 'unhooks', 'claude-code', '--file', file]);
    expect(none.out).toBe(`${file}: no hooks of the claude-code adapter there; nothing to remove\n`);
  });

  it('a file that held only our wiring is deleted, with its backup, and the line says so', async () => {
    const dir = scratch();
    const file = join(dir, 'hooks.json');
    expect((await aep(['setup', 'hooks', 'codex', '--file', file])).code).toBe(0);
    expect(readdirSync(dir)).toEqual(['hooks.json']);
    const un = await aep(['setup', 'unhooks', 'codex', '--file', file, '--json']);
    expect(JSON.parse(un.out)).toEqual([{ vendor: 'codex', file, action: 'unhooks', added: 0, removed: expect.any(Number), deleted: true }]);
    expect(readdirSync(dir)).toEqual([]);
    expect((await aep(['setup', 'hooks', 'codex', '--file', file])).code).toBe(0);
    expect((await aep(['setup', 'hooks', '--remove', 'codex', '--file', file])).out).toBe(`${file}: removed the codex hooks; the file held nothing else, so it is deleted\n`);
  });

  it('YAML: wire and unwire report one block each, and a re-wire replaces it', async () => {
    const file = join(scratch(), 'config.yaml');
    writeFileSync(file, 'model: x\n');
    expect(JSON.parse((await aep(['setup', 'hooks', 'hermes', '--file', file, '--json'])).out)).toEqual([{ vendor: 'hermes', file, action: 'hooks', added: 1, removed: 0, backup: `${file}.aep-backup` }]);
    expect(JSON.parse((await aep(['setup', 'hooks', 'hermes', '--file', file, '--json'], { AEP_HERMES_PORT: '9001' })).out)).toEqual([{ vendor: 'hermes', file, action: 'hooks', added: 1, removed: 1, backup: `${file}.aep-backup` }]);
    expect(readFileSync(file, 'utf8')).toContain('--port 9001');
    const un = await aep(['setup', 'unhooks', 'hermes', '--file', file]);
    expect(un.out).toBe(`${file}: removed the hermes hooks; the file is back to its bytes from before they were wired\n`);
    expect(readFileSync(file, 'utf8')).toBe('model: x\n');
    expect(existsSync(backupOf(file))).toBe(false);
    expect((await aep(['setup', 'unhooks', 'hermes', '--file', file])).out).toBe(`${file}: no hooks of the hermes adapter there; nothing to remove\n`);
  });

  it('the dry run prints the result and writes nothing', async () => {
    const dir = scratch();
    const file = join(dir, 'settings.json');
    writeFileSync(file, '{"a": 1}\n');
    const dry = await aep(['setup', 'hooks', 'claude-code', '--file', file, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.out)).toMatchObject({ a: 1, hooks: expect.any(Object) });
    expect(dry.err).toBe(`aep setup: dry run, nothing written: ${file} would change\n`);
    expect(readdirSync(dir)).toEqual(['settings.json']);
    const nothing = await aep(['setup', 'unhooks', 'claude-code', '--file', file, '--dry-run']);
    expect(nothing).toEqual({ code: 0, out: '{"a": 1}\n', err: 'aep setup: dry run, nothing written: the file would stay as it is\n' });
    const missing = await aep(['setup', 'unhooks', 'claude-code', '--file', join(dir, 'none.json'), '--dry-run']);
    expect(missing).toEqual({ code: 0, out: '', err: 'aep setup: dry run, nothing written: the file would stay as it is\n' });
    const only = join(dir, 'only.json');
    expect((await aep(['setup', 'hooks', 'codex', '--file', only])).code).toBe(0);
    const del = await aep(['setup', 'unhooks', 'codex', '--file', only, '--dry-run']);
    expect(del).toEqual({ code: 0, out: '', err: `aep setup: dry run, nothing written: ${only} would be deleted (it held only our wiring)\n` });
    expect(existsSync(only)).toBe(true);
  });
});

describe('setup hooks: refusals', () => {
  it('a port variable that is not a port', async () => {
    for (const bad of ['0', '65536', '1.5', 'x', '-1']) {
      const r = await aep(['setup', 'hooks', 'claude-code', '--file', join(scratch(), 's.json')], { AEP_CLAUDE_CODE_PORT: bad });
      expect(r.code).toBe(2);
      expect(r.err).toContain(`AEP_CLAUDE_CODE_PORT must be a port number 1-65535, got '${bad}'`);
    }
    const edge = join(scratch(), 's.json');
    expect((await aep(['setup', 'hooks', 'claude-code', '--file', edge], { AEP_CLAUDE_CODE_PORT: '65535' })).out).toContain('127.0.0.1:65535');
    expect((await aep(['setup', 'hooks', 'claude-code', '--file', edge], { AEP_CLAUDE_CODE_PORT: '1' })).out).toContain('127.0.0.1:1');
    expect((await aep(['setup', 'hooks', 'claude-code', '--file', join(scratch(), 's.json')], { AEP_CLAUDE_CODE_PORT: '' })).out).toContain('127.0.0.1:8377');
  });

  it('two vendors, no vendor, an unknown one: usage errors that name the known vendors', async () => {
    const known = 'claude-code, codex, gemini-cli, qwen-code, vscode, antigravity, cline, hermes, kimi-code';
    const two = await aep(['setup', 'hooks', 'codex', 'hermes']);
    expect(two.code).toBe(2);
    expect(two.err).toContain(`name one vendor: ${known}`);
    expect((await aep(['setup', 'hooks'])).err).toContain(`name one vendor: ${known}`);
    expect((await aep(['setup', 'unhooks', 'nobody'])).err).toContain(`no hook wiring for 'nobody'; the vendors 'setup hooks' knows: ${known}`);
  });

  it('paths: a directory for a file, a file for a folder, a missing or file parent', async () => {
    const dir = scratch();
    const asDir = await aep(['setup', 'hooks', 'claude-code', '--file', dir]);
    expect(asDir).toMatchObject({ code: 1, out: '' });
    expect(asDir.err).toBe(`aep setup hooks: --file ${dir}: it is a directory; name the settings file itself (for example ${join(dir, 'settings.json')})\n`);
    const f = join(dir, 'plain');
    writeFileSync(f, 'x');
    expect((await aep(['setup', 'hooks', 'cline', '--file', f])).err).toBe(`aep setup hooks: --file ${f}: it is a file; cline reads a folder of hook scripts, so name a folder\n`);
    const deep = join(dir, 'no', 'such.json');
    expect((await aep(['setup', 'unhooks', 'claude-code', '--file', deep])).err).toBe(`aep setup unhooks: --file ${deep}: the folder ${join(dir, 'no')} does not exist; create it first, or name a file in an existing folder. Nothing was written.\n`);
    const under = join(f, 'x.json');
    expect((await aep(['setup', 'hooks', 'claude-code', '--file', under])).err).toBe(`aep setup hooks: ${under}: a part of the path is not a directory; check the path\n`);
    const home = scratch();
    writeFileSync(join(home, '.claude'), 'not a folder');
    const r = await aep(['setup', 'hooks', 'claude-code'], { HOME: home });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(new RegExp(`^aep setup hooks: (cannot create the folder ${join(home, '.claude')}: .+\\. Nothing was written\\.|${join(home, '.claude', 'settings.json')}: .+)\\n$`));
    expect(readFileSync(join(home, '.claude'), 'utf8')).toBe('not a folder');
  });

  it('a broken file: the error and nothing written', async () => {
    const file = join(scratch(), 's.json');
    writeFileSync(file, '{"hooks": 3}');
    expect(await aep(['setup', 'unhooks', 'claude-code', '--file', file])).toEqual({ code: 1, out: '', err: `aep setup unhooks: ${file}: "hooks" is not an object; fix it and run again. Nothing was written.\n` });
    const y = join(scratch(), 'c.yaml');
    writeFileSync(y, '# >>> aep hermes hooks (written by \'aep setup hooks hermes\'; \'aep setup unhooks hermes\' removes it) >>>\nx\n');
    expect((await aep(['setup', 'unhooks', 'hermes', '--file', y])).err).toBe(`aep setup unhooks: ${y}: it has the line '# >>> aep hermes hooks (written by 'aep setup hooks hermes'; 'aep setup unhooks hermes' removes it) >>>' but not the closing '# <<< aep hermes hooks <<<'; restore or delete the block by hand and run again. Nothing was written.\n`);
  });
});

describe('setup hooks: a folder of scripts (Cline)', () => {
  it('wrote, already there, the user\'s own, removed: each line, and the scripts executable', async () => {
    const dir = join(scratch(), 'hooks');
    const note = "Cline runs the scripts of that folder (a workspace's .cline/hooks/ works too: pass --file)";
    const w = await aep(['setup', 'hooks', 'cline', '--file', dir, '--json']);
    const [report] = JSON.parse(w.out) as Array<{ added: number }>;
    const n = report!.added;
    expect(n).toBeGreaterThan(1);
    expect(report).toEqual({ vendor: 'cline', file: dir, action: 'hooks', added: n });
    const names = readdirSync(dir).sort();
    expect(names).toHaveLength(n);
    for (const name of names) {
      expect(statSync(join(dir, name)).mode & 0o777).toBe(0o755);
      expect(readFileSync(join(dir, name), 'utf8')).toContain(`exec ${process.execPath} ${BIN} hook cline ${name}`);
    }
    expect((await aep(['setup', 'hooks', 'cline', '--file', dir])).out).toBe(`${dir}: the cline hook scripts are already there; nothing written\n`);
    const moved = await aep(['setup', 'hooks', 'cline', '--file', dir], { AEP_CLINE_PORT: '9009' });
    expect(moved.out).toBe(`${dir}: wrote ${n} hook scripts for the cline adapter (127.0.0.1:9009). ${note}. 'aep setup unhooks cline' takes them out again.\n`);
    const dry = await aep(['setup', 'hooks', 'cline', '--file', dir, '--dry-run'], { AEP_CLINE_PORT: '9009' });
    expect(dry).toEqual({ code: 0, out: '', err: `aep setup: dry run, nothing written: 0 scripts would be written to ${dir}\n` });
    writeFileSync(join(dir, names[0]!), '#!/bin/sh\necho mine\n');
    const dry1 = await aep(['setup', 'hooks', 'cline', '--file', dir, '--dry-run'], { AEP_CLINE_PORT: '9009' });
    expect(dry1.err).toBe(`aep setup: dry run, nothing written: ${dir}: ${names[0]} is your own; move it away and run again. Nothing was written.\n`.replace(`aep setup: dry run, nothing written: `, 'aep setup hooks: '));
    const dryUn = await aep(['setup', 'unhooks', 'cline', '--file', dir, '--dry-run']);
    expect(dryUn).toEqual({ code: 0, out: '', err: `aep setup: dry run, nothing written: would delete ${n - 1} scripts from ${dir}\n` });
    const un = await aep(['setup', 'unhooks', 'cline', '--file', dir]);
    expect(un.out).toBe(`${dir}: removed ${n - 1} hook scripts of the cline adapter; other files are kept\n`);
    expect(readdirSync(dir)).toEqual([names[0]]);
    expect((await aep(['setup', 'unhooks', 'cline', '--file', dir, '--json'])).out).toBe(`${JSON.stringify([{ vendor: 'cline', file: dir, action: 'unhooks', removed: 0 }])}\n`);
    writeFileSync(join(dir, names[1]!), '#!/bin/sh\necho mine too\n');
    const both = await aep(['setup', 'hooks', 'cline', '--file', dir]);
    expect(both.err).toBe(`aep setup hooks: ${dir}: ${[names[0], names[1]].sort().join(', ')} are your own; move them away and run again. Nothing was written.\n`);
  });

  it('one script of ours: singular words; the folder goes when it held only ours', async () => {
    const dir = join(scratch(), 'hooks');
    expect((await aep(['setup', 'hooks', 'cline', '--file', dir])).code).toBe(0);
    const names = readdirSync(dir).sort();
    for (const name of names.slice(1)) writeFileSync(join(dir, name), `#!/bin/sh\necho ${name}\n`);
    expect((await aep(['setup', 'unhooks', 'cline', '--file', dir, '--dry-run'])).err).toBe(`aep setup: dry run, nothing written: would delete 1 script from ${dir}\n`);
    expect((await aep(['setup', 'unhooks', 'cline', '--file', dir])).out).toBe(`${dir}: removed 1 hook script of the cline adapter; other files are kept\n`);
    const d2 = join(scratch(), 'hooks');
    expect((await aep(['setup', 'hooks', 'cline', '--file', d2])).code).toBe(0);
    expect((await aep(['setup', 'unhooks', 'cline', '--file', d2])).code).toBe(0);
    expect(existsSync(d2)).toBe(false);
  });
});

describe('the help and setup down\'s warning', () => {
  it('the help lists each vendor: name, format, default file and port variable', () => {
    const help = HOOKS_HELP();
    expect(help).toContain('\n  claude-code  JSON   ~/.claude/settings.json (AEP_CLAUDE_CODE_PORT)\n');
    expect(help).toContain('\n  codex        JSON   ~/.codex/hooks.json (AEP_CODEX_PORT)\n');
    expect(help).toContain('\n  vscode       JSON   .github/hooks/aep.json (AEP_VSCODE_PORT)\n');
    expect(help).toContain('\n  cline        folder ~/.cline/hooks (AEP_CLINE_PORT)\n');
    expect(help).toContain('\n  hermes       YAML   ~/.hermes/config.yaml (AEP_HERMES_PORT)\n');
    expect(help).toContain('\n  kimi-code    TOML   ~/.kimi-code/config.toml (AEP_KIMI_CODE_PORT)\n');
  });

  it('warns when the default file still holds our wiring, never otherwise', async () => {
    const home = scratch();
    const io = { env: { HOME: home }, cwd: home };
    expect(wiredHooksWarning('relay', io)).toBeUndefined();
    expect(wiredHooksWarning('claude-code', io)).toBeUndefined();
    mkdirSync(join(home, '.claude'));
    writeFileSync(join(home, '.claude', 'settings.json'), '{"theme": "dark"}');
    expect(wiredHooksWarning('claude-code', io)).toBeUndefined();
    expect((await aep(['setup', 'hooks', 'claude-code'], { HOME: home })).code).toBe(0);
    const file = join(home, '.claude', 'settings.json');
    expect(wiredHooksWarning('claude-code', io)).toBe(`the claude-code hooks in ${file} still point at the adapter that is now stopped: each Claude Code session will report hook errors; 'aep setup unhooks claude-code' removes them ('aep setup up claude-code' brings the adapter back)`);
    expect(wiredHooksWarning('cline', io)).toBeUndefined();
    expect((await aep(['setup', 'hooks', 'cline'], { HOME: home })).code).toBe(0);
    expect(wiredHooksWarning('cline', io)).toMatch(/^the cline hooks in .*\.cline\/hooks still point at the adapter/);
    writeFileSync(file, '{');
    expect(wiredHooksWarning('claude-code', io)).toBeUndefined();
  });
});

describe('setup hooks: what is written, and the older backups', () => {
  it('claude-code: every http hook on the port, every command absolute, a user url hook kept as it is', async () => {
    const file = join(scratch(), 'settings.json');
    const mine = { type: 'http', url: 'http://127.0.0.1:9/elsewhere' };
    writeFileSync(file, JSON.stringify({ hooks: { Stop: [{ hooks: [mine] }] } }));
    expect((await aep(['setup', 'hooks', 'claude-code', '--file', file], { AEP_CLAUDE_CODE_PORT: '9555' })).code).toBe(0);
    const wired = JSON.parse(readFileSync(file, 'utf8')) as { hooks: Record<string, Array<{ hooks: Array<Record<string, unknown>> }>> };
    const handlers = Object.values(wired.hooks).flatMap((groups) => groups.flatMap((g) => g.hooks));
    expect(handlers).toContainEqual(mine);
    const ours = handlers.filter((h) => h !== handlers.find((x) => x.url === mine.url));
    expect(ours.length).toBeGreaterThan(2);
    for (const h of ours) {
      if (h.type === 'http') expect(h.url).toMatch(/^http:\/\/127\.0\.0\.1:9555\/hook\/[A-Za-z]+$/);
      else expect(h.command).toMatch(new RegExp(`^${process.execPath} ${BIN} hook claude-code [A-Za-z]+ --port 9555$`));
      expect(typeof h.timeout).toBe('number');
    }
    const un = await aep(['setup', 'unhooks', 'claude-code', '--file', file]);
    expect(un.code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ hooks: { Stop: [{ hooks: [mine] }] } });
  });

  it('unhooks restores the bytes of the newest older backup (<file>.aep-backup-<ms>) with the same settings', async () => {
    const dir = scratch();
    const file = join(dir, 'settings.json');
    const original = '{ "theme" : "dark" }';
    writeFileSync(file, original);
    expect((await aep(['setup', 'hooks', 'claude-code', '--file', file])).code).toBe(0);
    // As an older version left them: numbered copies, no <file>.aep-backup.
    const { renameSync } = await import('node:fs');
    renameSync(backupOf(file), `${file}.aep-backup-2000`);
    writeFileSync(`${file}.aep-backup-1000`, '{"theme":"dark"}');
    writeFileSync(`${file}.aep-backup-3000`, '{"theme": "light"}');
    writeFileSync(`${file}.aep-backup-x1`, '{"theme":"dark"}  ');
    writeFileSync(`${file}.aep-backup-900`, '');
    const un = await aep(['setup', 'unhooks', 'claude-code', '--file', file]);
    expect(un.out).toBe(`${file}: removed the claude-code hooks; the file is back to its bytes from before they were wired\n`);
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it('an empty backup is never restored: a file with only our wiring is deleted', async () => {
    const dir = scratch();
    const file = join(dir, 'settings.json');
    writeFileSync(file, '');
    expect((await aep(['setup', 'hooks', 'claude-code', '--file', file])).code).toBe(0);
    expect(readFileSync(backupOf(file), 'utf8')).toBe('');
    expect((await aep(['setup', 'unhooks', 'claude-code', '--file', file])).out).toBe(`${file}: removed the claude-code hooks; the file held nothing else, so it is deleted\n`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a re-wire keeps the backup from before our wiring; a wire over a user edit refreshes it', async () => {
    const dir = scratch();
    const file = join(dir, 'settings.json');
    writeFileSync(file, '{"a": 1}');
    expect((await aep(['setup', 'hooks', 'claude-code', '--file', file])).code).toBe(0);
    const wired = readFileSync(file, 'utf8');
    expect((await aep(['setup', 'hooks', 'claude-code', '--file', file], { AEP_CLAUDE_CODE_PORT: '9444' })).code).toBe(0);
    expect(readFileSync(backupOf(file), 'utf8')).toBe('{"a": 1}');
    const { rmSync } = await import('node:fs');
    rmSync(backupOf(file));
    const r = await aep(['setup', 'hooks', 'claude-code', '--file', file]);
    expect(r.out).toContain(`, replacing the earlier ones (backup: ${file}.aep-backup). `);
    expect(readFileSync(backupOf(file), 'utf8')).not.toBe(wired);
    expect(readFileSync(backupOf(file), 'utf8')).toContain('9444');
  });
});
