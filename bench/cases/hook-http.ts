/**
 * `hook-http`: a non-held hook (Claude Code `PostToolUse`) POSTed to the adapter daemon
 * (`startAdapter`, linked to an in-process `startRelay` over its WebSocket), timed from the
 * request to the whole reply by a load generator in a separate process (`../hook-load.ts`), which
 * also checks that every hook reached the relay as its `tool.completed` without the planted tool
 * output. Baseline: an HTTP round-trip to a `node:http` server answering `{}`, same client. Value:
 * p99 over every hook; ratio baseline p99 / ours.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adapter } from '../../impl/adapters/claude-code/adapter.js';
import { startAdapter, type RunningAdapter } from '../../impl/adapter-kit/daemon.js';
import { startRelay, type RunningRelay } from '../../impl/relay/server.js';
import { LoadProcess } from '../load-process.js';
import type { SampleBenchmark } from '../samples.js';
import { closeServer } from './pair.js';

/** Hooks per trial. */
const HOOKS = 50;

function startEmpty(): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

export const hookHttpBench: SampleBenchmark = {
  kind: 'samples',
  name: 'hook-http',
  unit: 'ms',
  what: 'a non-held Claude Code PostToolUse hook POSTed to the adapter daemon linked to startRelay (reply {} checked, the event checked at the relay), load in a separate process, vs an HTTP round-trip to a server answering {}',
  budgetMs: 1000,
  metrics: ['latency'],
  primary: { metric: 'latency', quantile: 0.99 },
  async prepare({ quick }) {
    const home = mkdtempSync(join(tmpdir(), 'aep-bench-hook-'));
    let relay: RunningRelay | undefined;
    let daemon: RunningAdapter | undefined;
    let empty: Server | undefined;
    let load: LoadProcess | undefined;
    const close = async (): Promise<void> => {
      load?.stop();
      await daemon?.close();
      await relay?.close();
      if (empty) await closeServer(empty);
      rmSync(home, { recursive: true, force: true });
    };
    try {
      relay = await startRelay({ port: 0, drainMs: 1000 });
      daemon = await startAdapter(adapter, { port: 0, relay: relay.url, home, hostname: 'bench-host' });
      for (let i = 0; i < 100 && !daemon.relayReady(); i++) await new Promise((r) => setTimeout(r, 20));
      if (!daemon.relayReady()) throw new Error('hook-http: the adapter daemon did not link to the relay within 2 s');
      empty = await startEmpty();
      const l = (load = new LoadProcess('hook-load.js', 'hook-http'));
      await l.ask({ kind: 'connect', oursUrl: `${daemon.url}/hook/PostToolUse`, baseUrl: `http://127.0.0.1:${(empty.address() as AddressInfo).port}/`, streamUrl: `${relay.url}/stream` });
      const hooks = quick ? 10 : HOOKS;
      const side = (target: 'ours' | 'base') => ({
        async trial() {
          const reply = await l.ask({ kind: 'run', target, hooks });
          return { latency: reply.latencies as number[] };
        },
      });
      return { ours: side('ours'), baseline: side('base'), close };
    } catch (err) {
      await close();
      throw err;
    }
  },
};
