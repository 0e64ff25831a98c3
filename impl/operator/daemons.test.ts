import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer as createHttp, type Server } from 'node:http';
import { createServer as createTcp, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deadPort } from '../test-utils/dead-port.js';
import { logFile, pidFile, runDir, type DaemonSpec } from './catalog.js';
import { down, healthy, heldByOther, up } from './daemons.js';
import { judge, type Probes } from './doctor-findings.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BUILT = existsSync(join(ROOT, 'dist', 'impl', 'cli', 'main.js'));
const SKIP = BUILT ? '' : ' (skipped: dist/ is not built; run npx tsc -p tsconfig.build.json)';

/** Every AEP_HOME a test used: afterAll stops what 'up' may have started detached there (its pid file). */
const homes: string[] = [];
afterAll(async () => {
  for (const h of homes) await down(relaySpec(), h);
});

const home = (): string => {
  const h = mkdtempSync(join(tmpdir(), 'aep-daemons-'));
  homes.push(h);
  mkdirSync(runDir(h), { recursive: true });
  writeFileSync(logFile(h, 'relay'), 'OLD LINE from an earlier run\n');
  return h;
};
const relaySpec = (portEnv = 'AEP_PORT'): DaemonSpec => ({ id: 'relay', kind: 'relay', port: 1, portEnv, describe: 'the collector/relay', args: (port) => ['relay', '--port', String(port)] });

const listen = (s: Server | ReturnType<typeof createTcp>): Promise<number> => new Promise((r) => s.listen(0, '127.0.0.1', () => r((s.address() as AddressInfo).port)));

describe('heldByOther', () => {
  it('refused is free; any answer but 200, or an accepted silent connection, is held', () => {
    expect(heldByOther({ error: 'ECONNREFUSED' })).toBe(false);
    expect(heldByOther({ status: 200 })).toBe(false);
    expect(heldByOther({ status: 404 })).toBe(true);
    expect(heldByOther({ error: 'ETIMEDOUT' })).toBe(true);
    expect(heldByOther({ error: 'HPE_INVALID_CONSTANT' })).toBe(true);
  });
});

describe('aep setup up: a port held by another program', () => {
  const servers: Array<{ close(): void }> = [];
  afterAll(() => servers.forEach((s) => s.close()));
  it('an HTTP program: said at once, with the port variable to change; no pid file, no old log lines', async () => {
    const http = createHttp((_req, res) => res.writeHead(404).end('not here'));
    servers.push(http);
    const port = await listen(http);
    const h = home();
    const started = Date.now();
    const r = await up(relaySpec(), h, { AEP_PORT: String(port) }, 'http://127.0.0.1:8787');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(r.ok).toBe(false);
    const error = r.ok ? '' : r.error;
    expect(error).toContain(`port ${port} is held by a program that is not the collector/relay`);
    expect(error).toContain(`AEP_PORT=${port + 1} aep setup up relay`);
    expect(error).not.toContain('OLD LINE');
    expect(error).not.toContain('within 10 s');
    expect(existsSync(pidFile(h, 'relay'))).toBe(false);
  });
  it('a program that accepts and says nothing: held too', async () => {
    const tcp = createTcp(() => undefined);
    servers.push(tcp);
    const port = await listen(tcp);
    const r = await up(relaySpec(), home(), { AEP_PORT: String(port) }, 'http://127.0.0.1:8787');
    expect(r.ok ? '' : r.error).toContain('did not answer HTTP');
  });
  it.skipIf(!BUILT)(`a daemon that exits at once: its own words only, no stale pid file${SKIP}`, async () => {
    const h = home();
    const port = await deadPort();
    const broken: DaemonSpec = { ...relaySpec(), args: () => ['relay', '--port', 'not-a-port'] };
    const started = Date.now();
    const r = await up(broken, h, { AEP_PORT: String(port) }, 'http://127.0.0.1:8787');
    expect(Date.now() - started).toBeLessThan(9000);
    const error = r.ok ? '' : r.error;
    expect(error).toContain('exited before answering');
    expect(error).toContain('not-a-port');
    expect(error).not.toContain('OLD LINE');
    expect(existsSync(pidFile(h, 'relay'))).toBe(false);
  }, 20000);
});

describe.skipIf(!BUILT)(`aep setup up: a relay already running with another token${SKIP}`, () => {
  let relay: ChildProcess | undefined;
  afterAll(() => relay?.kill('SIGKILL'));
  it('refuses (exit 1 in the verb) and says how to fix it; the same token is left alone', async () => {
    const port = await deadPort();
    relay = spawn(process.execPath, [join(ROOT, 'bin', 'aep.js'), 'relay', '--port', String(port)], { stdio: 'ignore', env: { ...process.env, AEP_TOKEN: 'token-a' } });
    const h = home();
    // Wait for the spawned relay itself: calling up() before it answers would start a detached relay of its own.
    for (let i = 0; i < 80 && !(await healthy(port)); i++) await new Promise((ok) => setTimeout(ok, 250));
    const r = await up(relaySpec(), h, { AEP_PORT: String(port), AEP_TOKEN: 'token-a' }, '', () => {
      throw new Error('up() started a relay of its own: the spawned one did not answer in time');
    });
    expect(r).toMatchObject({ ok: true, already: true });
    const other = await up(relaySpec(), h, { AEP_PORT: String(port), AEP_TOKEN: 'token-b' }, '');
    expect(other.ok).toBe(false);
    expect(other.ok ? '' : other.error).toContain("refuses this shell's AEP_TOKEN");
  }, 30000);
});

describe('aep doctor: a relay port held by another program', () => {
  const base: Probes = {
    relay: 'http://127.0.0.1:8787',
    family: 'ipv4',
    v4: { status: 404 },
    v6: { error: 'ECONNREFUSED' },
    health: { status: 404 },
    tokenGiven: true,
    streamNoToken: { status: 404 },
    preflight: { status: 404 },
    daemons: [],
    envHint: '',
  };
  it('advises another port, not starting a relay there', () => {
    const line = judge(base).find((l) => l.lane === 'reachability' && l.level === 'finding')!;
    expect(line.message).toContain('port 8787 is held by a program that is not an aep relay');
    expect(line.remedy).toContain('AEP_PORT=8788 aep setup up relay');
    expect(line.remedy).not.toContain("start it: 'aep relay'");
  });
  it('a refused port still advises starting the relay', () => {
    const line = judge({ ...base, v4: { error: 'ECONNREFUSED' }, health: { error: 'ECONNREFUSED' } }).find((l) => l.lane === 'reachability' && l.level === 'finding')!;
    expect(line.remedy).toContain("start it: 'aep relay'");
  });
});
