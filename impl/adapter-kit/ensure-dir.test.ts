/** Bounded directory creation and the before-the-work path checks. */
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_DIR_DEPTH, PathError, checkOutputFile, ensureDir, prepareDir } from './ensure-dir.js';
import { skipped, WHY } from '../test-utils/skip.js';

const temp = (): string => mkdtempSync(join(tmpdir(), 'aep-dirs-'));
const onLinux = process.platform === 'linux' && existsSync('/proc/1');

describe('ensureDir', () => {
  it('creates missing levels one at a time, and is idempotent', () => {
    const base = temp();
    const deep = join(base, 'a', 'b', 'c');
    ensureDir(deep);
    ensureDir(deep);
    expect(readdirSync(join(base, 'a', 'b'))).toEqual(['c']);
  });

  it('a file in the way is an error naming it', () => {
    const base = temp();
    writeFileSync(join(base, 'f'), '');
    expect(() => ensureDir(join(base, 'f', 'x'))).toThrow(new PathError(join(base, 'f'), 'it is a file, not a directory'));
  });

  it(`more than ${MAX_DIR_DEPTH} missing levels is refused`, () => {
    const base = temp();
    expect(() => ensureDir(join(base, ...Array.from({ length: MAX_DIR_DEPTH + 1 }, () => 'd')))).toThrow(/missing directory levels/);
    expect(readdirSync(base)).toEqual([]);
  });

  it.skipIf(!onLinux)(`a parent that refuses entries (/proc/1/nope) fails at once instead of spinning${skipped(!onLinux, WHY.linux)}`, () => {
    const started = Date.now();
    expect(() => ensureDir('/proc/1/nope/deeper')).toThrow(PathError);
    expect(Date.now() - started).toBeLessThan(500);
  });
});

describe('prepareDir / checkOutputFile', () => {
  it.skipIf(!onLinux)(`name the flag or variable and the reason${skipped(!onLinux, WHY.linux)}`, () => {
    expect(prepareDir('/proc/nope', '--report')).toMatch(/^--report \/proc\/nope: cannot create it: /);
    expect(prepareDir('/proc/1/nope', 'AEP_HOME')).toMatch(/^AEP_HOME \/proc\/1\/nope: cannot create it: /);
    expect(checkOutputFile('/proc/nope.json', '--json')).toMatch(/^--json \/proc\/nope\.json: not writable \(/);
  });

  it('accept a writable place and leave nothing behind', () => {
    const base = temp();
    expect(prepareDir(join(base, 'r'), '--report')).toBe(true);
    expect(readdirSync(join(base, 'r'))).toEqual([]);
    expect(checkOutputFile(join(base, 'out.json'), '--json')).toBe(true);
    expect(readdirSync(base)).toEqual(['r']);
  });

  it('refuse a directory as the file, and a missing directory', () => {
    const base = temp();
    mkdirSync(join(base, 'd'));
    expect(checkOutputFile(join(base, 'd'), '--json')).toBe(`--json ${join(base, 'd')}: it is a directory; name a file`);
    expect(checkOutputFile(join(base, 'no', 'x.json'), '--json')).toBe(`--json ${join(base, 'no', 'x.json')}: the directory ${join(base, 'no')} does not exist`);
  });
});
