/**
 * Test-only: fleet nodes for the 3-node tests. `spawnNode` runs `node bin/aep.js relay --nats URL`
 * as a child process (so a test can kill -9 it); `startNode` runs one in this process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { FLEET_DEFAULTS } from '../fleet/config.js';
import { startRelay, type RelayOptions, type RunningRelay } from '../server.js';

const BIN = new URL('../../../bin/aep.js', import.meta.url).pathname;

export interface ChildNode {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the node wrote to stderr. */
  stderr(): string;
  /** SIGKILL, resolves once the process is gone. */
  kill9(): Promise<void>;
  /** SIGTERM (drain), resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** A fresh stream name for one test's fleet. */
export const fleetStream = (): string => `F${randomBytes(6).toString('hex')}`;

export function spawnNode(nats: string, stream: string, node: string, env: Record<string, string> = {}): Promise<ChildNode> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'relay', '--port', '0', '--nats', nats], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, AEP_TOKEN: '', AEP_NATS_STREAM: stream, AEP_NATS_NODE: node, ...env },
    });
    let out = '';
    let err = '';
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`node ${node} did not start within 15 s; stderr:\n${err}`));
    }, 15_000);
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.stdout!.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const m = /aep relay listening on (\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        url: m[1]!,
        child,
        stderr: () => err,
        kill9: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited;
        },
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`node ${node} exited with ${code} before listening; stderr:\n${err}`));
    });
  });
}

export function startNode(nats: string, stream: string, node: string, opts: RelayOptions = {}): Promise<RunningRelay> {
  return startRelay({ port: 0, ...opts, fleet: { ...FLEET_DEFAULTS, url: nats, stream, node, ...opts.fleet } });
}
