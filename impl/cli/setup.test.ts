import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deadPorts } from '../test-utils/dead-port.js';
import { readPid, isAlive } from '../operator/daemons.js';
import { aep } from '../operator/test-utils/stack.js';
import { skipped, WHY } from '../test-utils/skip.js';

const BUILT = existsSync(new URL('../../dist/impl/cli/setup.js', import.meta.url));

describe.skipIf(!BUILT)(`aep setup up/down (built dist/)${skipped(!BUILT, WHY.build)}`, () => {
  it('starts the relay detached with a pid file, status and doctor see it, down stops it', async () => {
    const home = mkdtempSync(join(tmpdir(), 'aep-setup-home-'));
    const [relay, claude, codex] = await deadPorts(3);
    const env = { AEP_HOME: home, AEP_PORT: String(relay), AEP_TOKEN: 'setup-test-token', AEP_CLAUDE_CODE_PORT: String(claude), AEP_CODEX_PORT: String(codex), PATH: process.env.PATH ?? '' };
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
