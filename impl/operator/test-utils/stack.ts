/** Test-only: a tokened relay, an in-process demo agent, a silent target, and a verb driver. */
import { afterEach } from 'vitest';
import WebSocket from 'ws';
import { runDemoAgent } from '../../demo-agent/agent.js';
import { startRelay, type RunningRelay } from '../../relay/server.js';
import { main } from '../../cli/main.js';
import { fakeIo } from '../../test-utils/cli-io.js';
import { fetchReplay } from '../stream.js';
import { buildHello } from '../../relay-client/hello.js';

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
    for (const s of stops.splice(0).reverse()) { const t = Date.now(); await s(); if (process.env.STACK_DEBUG) console.log("stop", Date.now() - t); }
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
          ws.send(JSON.stringify(buildHello({ role: 'emitter', identity: { agent: 'silent', instance: 'silent/1' }, capabilities: { control: { accepts: ['control.cancel', 'control.attention.respond'], ack_window_ms: 1000 } } }))),
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

/** A recording io whose stop signal the test fires. */
export function liveIo(env: Record<string, string> = {}, cwd?: string) {
  let stop: (s: string) => void = () => {};
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  const io = {
    out: '',
    err: '',
    stdout: (t: string) => {
      io.out += t;
      lines.push(...t.split('\n').filter((l) => l !== ''));
      for (const w of waiters.splice(0)) w();
    },
    stderr: (t: string) => void (io.err += t),
    readStdin: async () => Buffer.alloc(0),
    env,
    cwd: cwd ?? process.cwd(),
    stopSignal: new Promise<string>((r) => (stop = r)),
    lines,
    stop: (s = 'SIGTERM') => stop(s),
    /** Resolves once stdout holds at least n lines. */
    async waitLines(n: number, ms = 5000) {
      const deadline = Date.now() + ms;
      while (lines.length < n) {
        if (Date.now() > deadline) throw new Error(`only ${lines.length} of ${n} lines: ${io.out}${io.err}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 50);
        });
      }
    },
  };
  return io;
}

let counter = 0;
/** A sequenced event of `session` (valid per the project's validator). */
export function ev(session: string, seq: number, type = 'session.started', extra: Json = {}): Json {
  return {
    aep: '0.1',
    id: `ev-${process.pid}-${++counter}-${seq}`,
    type,
    time: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
    source: `aep://test/agent/${session}`,
    agent: 'test-agent',
    session,
    epoch: 1,
    seq,
    capture: 'metadata',
    data: type === 'session.started' ? {} : {},
    ...extra,
  };
}

/** POSTs events as NDJSON with the token. */
export async function post(url: string, events: Json[], token: string = TOKEN): Promise<void> {
  const res = await fetch(`${url}/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', 'aep-version': '0.1', authorization: `Bearer ${token}` },
    body: events.map((e) => JSON.stringify(e)).join('\n') + '\n',
  });
  if (res.status !== 202) throw new Error(`POST /events: ${res.status} ${await res.text()}`);
}

/** Event `i` of a valid synthetic session: session.started, run.started, then tool call pairs. */
export function flowEvent(session: string, i: number, epoch = 1): Json {
  const base = { aep: '0.1', id: `${session}-e${epoch}-${i}`, time: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(), source: `aep://test/agent/${session}`, agent: 'test-agent', session, epoch, seq: i, capture: 'metadata' };
  if (i === 0) return { ...base, type: 'session.started', data: {} };
  if (i === 1) return { ...base, type: 'run.started', run: 'r1', data: { trigger: 'user' } };
  const call = Math.floor((i - 2) / 2);
  return { ...base, type: (i - 2) % 2 === 0 ? 'tool.requested' : 'tool.completed', run: 'r1', data: { tool: { name: 'Bash', call_id: `c${call}` } } };
}
