/**
 * Test helpers for adapter daemons: a minimal relay stub (hello + frame capture + command
 * injection) and a hook poster. Test-only; never imported by runtime code.
 */
import { createServer, request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { startAdapter, type AdapterOptions, type RunningAdapter } from '../daemon.js';
import type { AdapterDef } from '../types.js';
import { configureDef } from '../configure.js';
import { buildHello } from '../../relay-client/hello.js';

export interface StubRelay {
  url: string;
  /** Every text frame the adapter sent, in order (the hello first). */
  frames: string[];
  /** The Authorization header of the last connection. */
  authorization(): string | undefined;
  /** Parsed event frames (everything after the hello that has an `aep` member). */
  events(): Record<string, any>[];
  /** Resolve when `predicate` holds over the parsed events (polls; rejects after `ms`). */
  waitFor(predicate: (events: Record<string, any>[]) => boolean, ms?: number): Promise<Record<string, any>[]>;
  /** Send a frame (a command) to the connected adapter. */
  send(frame: unknown): void;
  /** Drop the current connection (the adapter should reconnect). */
  drop(): void;
  close(): Promise<void>;
}

export async function startStubRelay(): Promise<StubRelay> {
  const http = createServer();
  const wss = new WebSocketServer({ server: http, path: '/socket' });
  const frames: string[] = [];
  let current: WebSocket | null = null;
  let auth: string | undefined;
  wss.on('connection', (ws, req) => {
    current = ws;
    auth = req.headers.authorization;
    ws.on('message', (data) => {
      const text = data.toString();
      frames.push(text);
      const frame = JSON.parse(text) as Record<string, unknown>;
      if (frame.type === 'hello') ws.send(JSON.stringify(buildHello({ role: 'both', identity: { agent: 'stub-relay' }, capabilities: {} })));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  const events = (): Record<string, any>[] =>
    frames.map((f) => JSON.parse(f) as Record<string, any>).filter((f) => typeof f.aep === 'string');
  return {
    url: `http://127.0.0.1:${port}`,
    frames,
    authorization: () => auth,
    events,
    async waitFor(predicate, ms = 3000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const list = events();
        if (predicate(list)) return list;
        if (Date.now() > deadline) throw new Error(`stub relay: condition not met in ${ms} ms; saw ${list.map((e) => e.type).join(', ')}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    send(frame) {
      current?.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
    },
    drop() {
      current?.terminate();
    },
    async close() {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** POST one hook to a daemon; resolves with the status and the exact body text. */
export function postHook(base: string, hookEvent: string, body: unknown): Promise<{ status: number; body: string }> {
  const payload = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const url = new URL(`/hook/${hookEvent}`, base);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': payload.length } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** A fresh temporary AEP home. */
export function tempHome(): string {
  return mkdtempSync(join(tmpdir(), 'aep-adapter-test-'));
}

/** A control command as a consumer would send it (no seq; agent = the sender; capture redacted so text answers are legal). */
export function command(type: string, session: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    aep: '0.1',
    id: extra.id ?? `cmd-${Math.random().toString(36).slice(2, 10)}`,
    type,
    time: '2026-11-30T05:00:00.000Z',
    source: 'aep://test/agent/operator',
    agent: 'operator',
    session,
    capture: 'redacted',
    ...extra,
    data,
  };
}

/** A started daemon, the stub relay it is linked to (hello exchanged), and its home. */
export interface Linked {
  a: RunningAdapter;
  r: StubRelay;
  home: string;
}

/**
 * One test file's daemon and stub relay: `start` starts a stub relay and the adapter daemon linked
 * to it (port 0, a fresh home unless given) and waits up to 3 s for the relay link; `close`, for
 * `afterEach`, stops whatever was started.
 */
export function daemonHarness(): { start(def: AdapterDef, opts?: Partial<AdapterOptions>): Promise<Linked>; close(): Promise<void> } {
  let running: RunningAdapter | null = null;
  let relay: StubRelay | null = null;
  return {
    async start(def, opts = {}) {
      relay = await startStubRelay();
      const home = opts.home ?? tempHome();
      running = await startAdapter(def, { port: 0, relay: relay.url, ...opts, home });
      const deadline = Date.now() + 3000;
      while (!running.relayReady() && Date.now() < deadline) await new Promise((res) => setTimeout(res, 10));
      return { a: running, r: relay, home };
    },
    async close() {
      await running?.close();
      await relay?.close();
      running = null;
      relay = null;
    },
  };
}

/** `def` configured from `env` (its `configure`), for a test: a refused env throws its message. */
export function configuredForTest(def: AdapterDef, env: Record<string, string | undefined>): AdapterDef {
  const out = configureDef(def, env);
  if (typeof out === 'string') throw new Error(out);
  return out;
}
