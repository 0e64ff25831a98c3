/**
 * `aep setup` for every daemon of the registry: status lists each one, `up <name>` starts each
 * one on a free port (its port variable) and its /healthz answers as that integration, `aep
 * doctor` sees it up, `down <name>` stops it; a bridge that needs a vendor server says which
 * flag and variable, before starting anything.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deadPort, deadPorts } from '../test-utils/dead-port.js';
import { probe } from '../operator/doctor-probe.js';
import { isAlive, readPid } from '../operator/daemons.js';
import { CATALOG } from '../operator/catalog.js';
import { DAEMON_INTEGRATIONS } from '../integrations/registry.js';
import { aep } from '../operator/test-utils/stack.js';
import { skipped, WHY } from '../test-utils/skip.js';

const BUILT = existsSync(new URL('../../dist/impl/cli/setup.js', import.meta.url));

/** Every catalog port variable moved to a free port, so nothing here meets a daemon someone else runs. */
async function isolatedEnv(): Promise<Record<string, string>> {
  const env: Record<string, string> = { AEP_HOME: mkdtempSync(join(tmpdir(), 'aep-setup-all-')), PATH: process.env.PATH ?? '', AEP_TOKEN: 'setup-all-token', AEP_KIMI_WEB_TOKEN: 'kimi-test-token' };
  // Distinct ports: picked one after another, a closed port can come back from the next pick.
  const ports = await deadPorts(CATALOG.length);
  CATALOG.forEach((d, i) => (env[d.portEnv] = String(ports[i])));
  return env;
}

describe('aep setup: every integration of the registry', () => {
  it('the catalog holds the relay, every adapter and every daemon bridge', () => {
    expect(CATALOG.map((d) => d.id)).toEqual(['relay', ...DAEMON_INTEGRATIONS.map((i) => i.command)]);
    expect(CATALOG.filter((d) => d.kind === 'adapter').length).toBeGreaterThanOrEqual(12);
    expect(CATALOG.filter((d) => d.kind === 'bridge').map((d) => d.id).sort()).toEqual(['agui', 'kilocode-sse', 'kimi-web', 'opencode-sse', 'openhands', 'otlp-in']);
  });

  it.skipIf(!BUILT)(`a bridge that needs a vendor server names the flag and the variable, and starts nothing${skipped(!BUILT, WHY.build)}`, async () => {
    const env = await isolatedEnv();
    const r = await aep(['setup', 'up', 'otlp-in', 'agui'], env);
    expect(r.code).toBe(2);
    expect(r.err).toBe("aep setup: agui needs the AG-UI agent URL: pass --server URL to 'aep setup up agui' or set AEP_AGUI_UPSTREAM\nRun 'aep setup --help' for usage.\n");
    expect(readPid(env.AEP_HOME!, 'otlp-in')).toBeUndefined();
    const server = await aep(['setup', 'up', 'codex', '--server', 'http://127.0.0.1:9'], env);
    expect(server.code).toBe(2);
    expect(server.err).toContain('--server is for a bridge that needs a vendor server (agui, kimi-web)');
  });

  it.skipIf(!BUILT)(`status lists every daemon; up <name> starts each one on its port variable, /healthz answers, doctor sees it, down stops it${skipped(!BUILT, WHY.build)}`, async () => {
    const env = await isolatedEnv();
    let dead = await deadPort();
    while (Object.values(env).includes(String(dead))) dead = await deadPort();
    const status = await aep(['setup', 'status', '--json'], env);
    expect(status.code).toBe(0);
    expect((JSON.parse(status.out) as Array<{ id: string; state: string }>).map((s) => [s.id, s.state])).toEqual(CATALOG.map((d) => [d.id, 'down']));
    const ids = DAEMON_INTEGRATIONS.map((i) => i.command);
    try {
      // Four at a time: two cores, and each start is a node process or two.
      for (let i = 0; i < ids.length; i += 4) {
        await Promise.all(
          ids.slice(i, i + 4).map(async (id) => {
            const d = CATALOG.find((c) => c.id === id)!;
            const argv = ['setup', 'up', id, '--relay', `http://127.0.0.1:${dead}`, ...(d.needs ? ['--server', `http://127.0.0.1:${dead}`] : [])];
            const r = await aep(argv, env);
            expect(r.code, `${id}: ${r.err}`).toBe(0);
            expect(r.out).toContain(`${id} up on 127.0.0.1:${env[d.portEnv]} (pid `);
            const health = await probe(`http://127.0.0.1:${env[d.portEnv]}/healthz`);
            expect(health.status, id).toBe(200);
            if (d.kind === 'adapter') expect(health.json?.adapter, id).toBe(id);
            else expect(health.json?.adapter, id).toBeUndefined();
          }),
        );
      }
      const doc = await aep(['doctor', '--relay', `http://127.0.0.1:${env.AEP_PORT}`, '--json'], env);
      const daemonLines = (JSON.parse(doc.out) as { lines: Array<{ level: string; lane: string; message: string }> }).lines.filter((l) => l.lane === 'daemons');
      for (const id of ids) expect(daemonLines.find((l) => l.message.startsWith(`${id} (`)), id).toMatchObject({ level: 'warning', message: expect.stringContaining('is up but not linked to a relay') });
      const after = JSON.parse((await aep(['setup', 'status', '--json'], env)).out) as Array<{ id: string; state: string }>;
      expect(after.filter((s) => s.state === 'up').map((s) => s.id)).toEqual(ids);
      for (const id of ids) {
        const pid = readPid(env.AEP_HOME!, id)!;
        const r = await aep(['setup', 'down', id], env);
        expect(r.out, id).toBe(`${id} stopped\n`);
        expect(isAlive(pid), id).toBe(false);
      }
    } finally {
      for (const id of ids) {
        const pid = readPid(env.AEP_HOME!, id);
        if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
      }
    }
  }, 120_000);
});
