/**
 * A real `nats-server -js` on a free loopback port with a temporary store, started and stopped
 * by pid, for the fleet tests and the `fleet-fanout` benchmark (no mock of NATS anywhere). `natsServerBinary()` is undefined when the
 * binary is absent (`apt-get install -y nats-server`; ci.sh installs it), so suites can skip
 * with that message.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** The nats-server binary: `AEP_NATS_SERVER`, else the first on PATH, else /usr/sbin/nats-server. */
export function natsServerBinary(): string | undefined {
  const named = process.env.AEP_NATS_SERVER;
  if (named) return existsSync(named) ? named : undefined;
  for (const dir of [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin']) {
    const candidate = join(dir, 'nats-server');
    if (dir !== '' && existsSync(candidate)) return candidate;
  }
  return undefined;
}

export const NATS_MISSING = 'nats-server is not installed (apt-get install -y nats-server; ci.sh installs it): the fleet tests are skipped';

/** A free loopback TCP port (bound, read, released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface NatsServer {
  readonly url: string;
  readonly port: number;
  readonly storeDir: string;
  /** Stop it (SIGTERM, then SIGKILL after 3 s); the store stays until `dispose`. */
  stop(): Promise<void>;
  /** Start it again on the same port and store. */
  restart(): Promise<void>;
  /** Stop it and remove its store. */
  dispose(): Promise<void>;
}

function waitListening(port: number, child: ChildProcess, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const attempt = (): void => {
      if (child.exitCode !== null) return reject(new Error(`nats-server exited with ${child.exitCode} before listening on ${port}`));
      const sock = tcpConnect(port, '127.0.0.1');
      sock.once('connect', () => {
        sock.destroy();
        resolve();
      });
      sock.once('error', () => {
        sock.destroy();
        if (Date.now() > deadline) reject(new Error(`nats-server did not listen on ${port} within ${ms} ms`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Start `nats-server -js -a 127.0.0.1 -p PORT -sd TMPDIR`; resolves once it accepts connections. */
export async function startNats(): Promise<NatsServer> {
  const binary = natsServerBinary();
  if (!binary) throw new Error(NATS_MISSING);
  const storeDir = mkdtempSync(join(tmpdir(), 'aep-nats-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  let log = '';
  const launch = async (): Promise<void> => {
    child = spawn(binary, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => (log = (log + chunk).slice(-4000)));
    try {
      await waitListening(port, child, 10_000);
    } catch (err) {
      await stopChild(child);
      throw new Error(`${(err as Error).message}\n${log}`);
    }
  };
  await launch();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    stop: () => stopChild(child),
    restart: async () => {
      await stopChild(child);
      await launch();
    },
    dispose: async () => {
      await stopChild(child);
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
