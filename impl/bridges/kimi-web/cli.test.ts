import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeIo } from '../../test-utils/cli-io.js';
import { kapToken, run } from './cli.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const kimiHome = (token?: string): string => {
  const d = mkdtempSync(join(tmpdir(), 'aep-kimi-home-'));
  dirs.push(d);
  if (token !== undefined) writeFileSync(join(d, 'server.token'), token);
  return d;
};

describe('kapToken', () => {
  it('prefers AEP_KIMI_WEB_TOKEN, else reads <KIMI_CODE_HOME>/server.token trimmed', () => {
    expect(kapToken({ AEP_KIMI_WEB_TOKEN: 'envtok', KIMI_CODE_HOME: kimiHome('filetok\n') })).toBe('envtok');
    expect(kapToken({ KIMI_CODE_HOME: kimiHome('filetok\n') })).toBe('filetok');
  });

  it('names the file and the fix when the token is missing or empty', () => {
    const none = kimiHome();
    expect(kapToken({ KIMI_CODE_HOME: none })).toEqual({ error: `cannot read ${join(none, 'server.token')}; start 'kimi web' first, point KIMI_CODE_HOME at its home, or set AEP_KIMI_WEB_TOKEN` });
    const empty = kimiHome('  \n');
    expect(kapToken({ KIMI_CODE_HOME: empty })).toEqual({ error: `${join(empty, 'server.token')} is empty; start 'kimi web' first or set AEP_KIMI_WEB_TOKEN` });
  });
});

describe('aep bridge kimi-web usage errors', () => {
  const attempt = (values: Record<string, unknown>, env: Record<string, string>) => run({ values, rest: [] }, fakeIo({ env }));
  it('requires --server', async () => {
    await expect(attempt({}, { AEP_KIMI_WEB_TOKEN: 't' })).rejects.toThrow(/--server is required/);
  });
  it('refuses a malformed server URL', async () => {
    await expect(attempt({ server: 'not a url' }, { AEP_KIMI_WEB_TOKEN: 't' })).rejects.toThrow("--server must be the kap-server URL, got 'not a url'");
  });
  it('refuses the control gate outside primary mode, and a malformed ack guard', async () => {
    await expect(attempt({ server: 'http://127.0.0.1:1' }, { AEP_KIMI_WEB_CONTROL: '1', AEP_KIMI_WEB_TOKEN: 't' })).rejects.toThrow('AEP_KIMI_WEB_CONTROL=1 is honored in primary mode only (companion mode leaves the answer surface to the hook adapter and the web UI); add --primary or unset it');
    await expect(attempt({ server: 'http://127.0.0.1:1', primary: true }, { AEP_KIMI_WEB_CONTROL: '1', AEP_KIMI_WEB_ACK_GUARD_MS: 'soon', AEP_KIMI_WEB_TOKEN: 't' })).rejects.toThrow("AEP_KIMI_WEB_ACK_GUARD_MS must be a number of milliseconds, got 'soon'");
  });
  it('refuses to start without a token', async () => {
    await expect(attempt({ server: 'http://127.0.0.1:1', relay: 'none' }, { KIMI_CODE_HOME: kimiHome() })).rejects.toThrow(/cannot read .*server.token/);
  });
});
