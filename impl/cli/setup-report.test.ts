/**
 * What `aep setup up/down` and `aep doctor` say about daemons nobody set up: one line counts them,
 * `--all` lists them; `setup up` says it is starting a daemon only when it starts one.
 */
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CATALOG } from '../operator/catalog.js';
import { judge, type DaemonProbe, type Probes } from '../operator/doctor-findings.js';
import { deadPorts } from '../test-utils/dead-port.js';
import { aep } from '../operator/test-utils/stack.js';

async function isolatedEnv(): Promise<Record<string, string>> {
  const env: Record<string, string> = { AEP_HOME: mkdtempSync(join(tmpdir(), 'aep-setup-report-')), HOME: mkdtempSync(join(tmpdir(), 'aep-setup-report-home-')), PATH: process.env.PATH ?? '' };
  // Distinct ports: picked one after another, a closed port can come back from the next pick.
  const ports = await deadPorts(CATALOG.length);
  CATALOG.forEach((d, i) => (env[d.portEnv] = String(ports[i])));
  return env;
}

describe('aep setup down: what was set up, the rest in one line', () => {
  it('nothing set up: one line that counts the known daemons and names --all; --all lists each', async () => {
    const env = await isolatedEnv();
    const r = await aep(['setup', 'down'], env);
    expect(r.code).toBe(0);
    expect(r.out).toBe(`nothing to stop: none of the ${CATALOG.length} known daemons was started by 'aep setup up' (no pid file); 'aep setup down --all' lists them\n`);
    const all = await aep(['setup', 'down', '--all'], env);
    expect(all.code).toBe(0);
    expect(all.out.trim().split('\n')).toEqual(CATALOG.map((d) => `${d.id}: not started by 'aep setup up' (no pid file)`));
    const json = await aep(['setup', 'down', '--json'], env);
    expect((JSON.parse(json.out) as unknown[]).length).toBe(CATALOG.length);
  });
  it('a daemon with a pid file is reported by name, the others counted', async () => {
    const env = await isolatedEnv();
    mkdirSync(join(env.AEP_HOME!, 'run'));
    writeFileSync(join(env.AEP_HOME!, 'run', 'codex.pid'), '999999\n');
    const r = await aep(['setup', 'down'], env);
    expect(r.out).toBe(`codex: the pid file was stale; removed it\n${CATALOG.length - 1} other known daemons were not started by 'aep setup up' (no pid file); 'aep setup down --all' lists them\n`);
  });
  it('a daemon named on the command line is reported even without a pid file', async () => {
    const r = await aep(['setup', 'down', 'relay'], await isolatedEnv());
    expect(r.out).toBe("relay: not started by 'aep setup up' (no pid file)\n");
  });
});

describe('aep setup up: "starting" only when something starts', () => {
  const servers: Server[] = [];
  afterAll(() => servers.forEach((s) => s.close()));
  it('a relay already answering is left alone without a "starting" line', async () => {
    const http = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    servers.push(http);
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    const env = { ...(await isolatedEnv()), AEP_PORT: String((http.address() as AddressInfo).port) };
    const r = await aep(['setup', 'up', 'relay'], env);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('left alone');
    expect(r.err).not.toContain('starting relay');
  });
  it('an AEP_HOME that cannot hold the pid file fails without a "starting" line', async () => {
    const env = await isolatedEnv();
    const file = join(env.AEP_HOME!, 'a-file');
    writeFileSync(file, 'not a folder');
    const r = await aep(['setup', 'up', 'relay'], { ...env, AEP_HOME: file });
    expect(r.code).toBe(1);
    expect(r.err).toContain(`AEP_HOME ${file}`);
    expect(r.err).not.toContain('starting relay');
  });
});

describe('aep doctor: the daemons lane', () => {
  const daemon = (id: string, health: DaemonProbe['health'], pid?: number): DaemonProbe => ({ id, kind: 'adapter', describe: `the ${id} adapter daemon`, port: 1, health, ...(pid ? { pid, pidAlive: false } : {}) });
  const probes: Probes = {
    relay: 'http://127.0.0.1:8787',
    family: 'ipv4',
    v4: { error: 'ECONNREFUSED' },
    v6: { error: 'ECONNREFUSED' },
    health: { error: 'ECONNREFUSED' },
    tokenGiven: false,
    streamNoToken: { error: 'ECONNREFUSED' },
    preflight: { error: 'ECONNREFUSED' },
    daemons: [daemon('a', { status: 200, json: { adapter: 'a' } }), daemon('b', { error: 'ECONNREFUSED' }, 4242), daemon('c', { error: 'ECONNREFUSED' }), daemon('d', { error: 'ECONNREFUSED' })],
    envHint: '',
  };
  it('reports the running and the set-up ones, and counts the others in one line', () => {
    const lines = judge(probes).filter((l) => l.lane === 'daemons');
    expect(lines.map((l) => l.message)).toEqual([
      'a (the a adapter daemon, port 1) is up',
      'b (the b adapter daemon, port 1) is down and its pid file names pid 4242, which is gone (stale pid file)',
      "2 known integration daemons are not running (none started by 'aep setup up'); 'aep doctor --all' lists them",
    ]);
  });
  it('--all lists each one', () => {
    const lines = judge(probes, { all: true }).filter((l) => l.lane === 'daemons' && l.level === 'info');
    expect(lines.map((l) => l.message)).toEqual(['c (the c adapter daemon, port 1) is not running', 'd (the d adapter daemon, port 1) is not running']);
  });
  it('none running: said as such', () => {
    const idle = { ...probes, daemons: [daemon('c', { error: 'ECONNREFUSED' })] };
    expect(judge(idle).filter((l) => l.lane === 'daemons').map((l) => l.message)).toEqual(["none of the 1 known integration daemons is running (none started by 'aep setup up'); 'aep doctor --all' lists them"]);
  });
});
