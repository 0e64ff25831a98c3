/**
 * Test helpers for the relay and for anything that drives one over the wire (the relay's own
 * tests, check-live self-tests): valid events, a raw SSE reader and a WebSocket client that
 * keep the exact bytes received. Test-only: nothing in the relay imports this file.
 */
import { request } from 'node:http';
import WebSocket from 'ws';
import { buildHello } from '../../relay-client/hello.js';
import { RelayTransport, type RelaySocket } from '../../relay-client/transport.js';

let counter = 0;

/** A valid session-scoped `progress.status` event; override any member. */
export function makeEvent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  const n = String(counter).padStart(6, '0');
  return {
    aep: '0.1',
    id: `01KRELAYTEST00000000${n}`,
    type: 'progress.status',
    time: '2026-11-30T05:00:00.000Z',
    source: 'aep://test-host/relay-tests',
    agent: 'relay-test',
    session: 'rt-1',
    seq: 0,
    epoch: 0,
    data: { phase: 'working' },
    ...overrides,
  };
}

/** A seq of events `first..last` in one session, JSON-serialized, one per element. */
export function makeSeries(session: string, first: number, last: number, extra: Record<string, unknown> = {}): string[] {
  const out: string[] = [];
  for (let seq = first; seq <= last; seq++) out.push(JSON.stringify(makeEvent({ session, seq, ...extra })));
  return out;
}

export interface PostResult {
  readonly status: number;
  readonly body: any;
  readonly headers: Record<string, string | string[] | undefined>;
}

/** POST a body to `{base}/events`. Defaults: NDJSON when `body` is an array, AEP-Version 0.1. */
export async function post(
  base: string,
  body: string | string[],
  opts: { type?: string; version?: string | null; token?: string } = {},
): Promise<PostResult> {
  const text = Array.isArray(body) ? `${body.join('\n')}\n` : body;
  const headers: Record<string, string> = { 'content-type': opts.type ?? (Array.isArray(body) ? 'application/x-ndjson' : 'application/json') };
  if (opts.version !== null) headers['aep-version'] = opts.version ?? '0.1';
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await fetch(`${base}/events`, { method: 'POST', headers, body: text });
  const raw = await res.text();
  let parsed: unknown = raw;
  try {
    parsed = JSON.parse(raw);
  } catch {
    /* keep text */
  }
  return { status: res.status, body: parsed, headers: Object.fromEntries(res.headers.entries()) };
}

/** A raw SSE reader: keeps every byte of the body as text. */
export interface SseReader {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** Everything received so far. */
  text(): string;
  /** Resolves when the received text satisfies `predicate` (rejects after `ms`). */
  waitFor(predicate: (text: string) => boolean, ms?: number): Promise<string>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseReader> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      let text = '';
      const waiters = new Set<() => void>();
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        for (const w of [...waiters]) w();
      });
      const ended = new Promise<void>((r) => res.once('close', () => r()));
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        text: () => text,
        ended,
        waitFor(predicate, ms = 3000) {
          return new Promise((ok, fail) => {
            const check = (): void => {
              if (predicate(text)) {
                waiters.delete(check);
                clearTimeout(timer);
                ok(text);
              }
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`SSE wait timed out; received so far:\n${text}`));
            }, ms);
            waiters.add(check);
            check();
          });
        },
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** A WebSocket client that records every text frame as received. */
export interface WsClient {
  readonly ws: WebSocket;
  readonly frames: string[];
  send(value: unknown): void;
  sendRaw(text: string | Buffer, binary?: boolean): void;
  /** The first recorded frame (at or after index `from`) satisfying `predicate`. */
  waitFor(predicate: (frame: any, text: string) => boolean, ms?: number, from?: number): Promise<string>;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

/** Opens a socket through the relay client's transport, keeping the `ws` socket for tests that reach into it. */
export async function openWs(url: string, headers: Record<string, string> = {}): Promise<WsClient> {
  let ws: WebSocket | undefined;
  const transport = new RelayTransport({ url, headers, socket: (u, init) => (ws = new WebSocket(u, init)) as unknown as RelaySocket });
  const frames: string[] = [];
  const waiters = new Set<() => void>();
  transport.onmessage = (m) => {
    if (m.binary === undefined) frames.push(m.raw);
    for (const w of [...waiters]) w();
  };
  const closed = new Promise<{ code: number; reason: string }>((r) => (transport.onclose = r));
  await transport.start();
  const socket = ws!;
  return {
    ws: socket,
    frames,
    closed,
    send: (value) => void transport.send(typeof value === 'string' ? value : JSON.stringify(value)),
    sendRaw: (text, binary = false) => socket.send(text, { binary }),
    close: () => socket.close(),
    waitFor: (predicate, ms = 3000, from = 0) => waitForFrame(frames, waiters, predicate, ms, from),
  };
}

/** The first frame at or after `from` satisfying `predicate`, checked again on every new frame. */
function waitForFrame(frames: string[], waiters: Set<() => void>, predicate: (frame: any, text: string) => boolean, ms: number, from: number): Promise<string> {
  return new Promise((ok, fail) => {
    const check = (): void => {
      for (let i = from; i < frames.length; i++) {
        const text = frames[i]!;
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        if (predicate(parsed, text)) {
          waiters.delete(check);
          clearTimeout(timer);
          ok(text);
          return;
        }
      }
    };
    const timer = setTimeout(() => {
      waiters.delete(check);
      fail(new Error(`WS wait timed out; frames so far:\n${frames.join('\n')}`));
    }, ms);
    waiters.add(check);
    check();
  });
}

/** Open a socket and complete the hello; resolves with the client after the relay's hello. */
export async function helloWs(base: string, hello: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<WsClient> {
  const client = await openWs(`${base.replace(/^http/, 'ws')}/socket`, headers);
  client.send({ ...buildHello({ role: 'consumer' }), ...hello });
  await client.waitFor((f) => f?.type === 'hello');
  return client;
}

/** Resolve after `ms`. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
