/** Test-only: a tokened relay, an in-process demo agent, a silent target, and a verb driver. */
import { afterEach } from 'vitest';
import WebSocket from 'ws';
import { runDemoAgent } from '../../demo-agent/agent.js';
import { startRelay, type RunningRelay } from '../../relay/server.js';
import { main } from '../../cli/main.js';
import { fakeIo } from '../../test-utils/cli-io.js';
import { fetchReplay } from '../stream.js';

type Json = Record<string, unknown>;

export const TOKEN = 'test-operator-token-5d1c';

export interface Stack {
  relay(opts?: { token?: string | null; buffer?: number }): Promise<string>;
  demo(url: string, session: string, run: string): Promise<void>;
  silent(url: string, session: string): Promise<{ received: Json[] }>;
  readonly running: RunningRelay | undefined;
}

/** Registers the afterEach that stops everything the test started. */
export function useStack(): Stack {
  const stops: Array<() => Promise<void> | void> = [];
  let current: RunningRelay | undefined;
  afterEach(async () => {
    for (const s of stops.splice(0).reverse()) await s();
    current = undefined;
  });
  return {
    get running() {
      return current;
    },
    async relay(opts = {}) {
      const token = opts.token === null ? undefined : (opts.token ?? TOKEN);
      const r = await startRelay({ port: 0, host: '127.0.0.1', ...(token ? { token } : {}), ...(opts.buffer ? { buffer: opts.buffer } : {}) });
      current = r;
      stops.push(() => r.close());
      return r.url;
    },
    async demo(url, session, run) {
      let stop: (v: unknown) => void = () => {};
      const stopped = new Promise((r) => (stop = r));
      let ready: () => void = () => {};
      const isReady = new Promise<void>((r) => (ready = r));
      const done = runDemoAgent({ relay: url, token: TOKEN, session, run }, stopped, { stdout: () => ready(), stderr: () => {} });
      stops.push(async () => {
        stop('test');
        await done;
      });
      await isReady;
      await waitUntil(async () => {
        const r = await fetchReplay({ relay: url, token: TOKEN }, { session });
        return r.ok && r.events.some((e) => e.type === 'attention.requested');
      });
    },
    async silent(url, session) {
      const received: Json[] = [];
      const ws = new WebSocket(`${url.replace('http', 'ws')}/socket`, { headers: { authorization: `Bearer ${TOKEN}` } });
      stops.push(() => ws.terminate());
      await new Promise<void>((resolve, reject) => {
        ws.once('error', reject);
        ws.once('open', () =>
          ws.send(JSON.stringify({ type: 'hello', versions: ['0.1'], role: 'emitter', identity: { agent: 'silent', instance: 'silent/1' }, capabilities: { control: { accepts: ['control.cancel', 'control.attention.respond'], ack_window_ms: 1000 } } })),
        );
        ws.on('message', (d) => {
          const f = JSON.parse(d.toString()) as Json;
          if (f.type === 'hello') {
            ws.send(JSON.stringify({ aep: '0.1', id: `silent-${Date.now()}`, type: 'session.started', time: new Date().toISOString(), source: 'aep://test/silent', agent: 'silent', session, epoch: 1, seq: 0, capture: 'metadata', data: {} }));
            resolve();
          } else if (typeof f.type === 'string' && f.type.startsWith('control.')) received.push(f);
        });
      });
      await waitUntil(async () => {
        const r = await fetchReplay({ relay: url, token: TOKEN }, { session });
        return r.ok && r.events.length > 0;
      });
      return { received };
    },
  };
}

export async function waitUntil(pred: () => Promise<boolean> | boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await pred()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('condition not reached in time');
}

/** Runs `aep <argv>` in process; returns the exit code and the output. */
export async function aep(argv: string[], env: Record<string, string> = {}, cwd?: string): Promise<{ code: number; out: string; err: string }> {
  const io = fakeIo({ env, ...(cwd ? { cwd } : {}) });
  const code = await main(argv, io);
  return { code, out: io.out, err: io.err };
}
