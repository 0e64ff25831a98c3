/**
 * The SSE writer as a consumer sees it (issue 37, mutation testing where the I/O is): the exact
 * response headers, a replay larger than the socket takes at once arriving whole and in order
 * (chunks written after each drain), `: replay-complete` ending a non-live replay, a consumer
 * gone is a subscriber gone. `SseStreams` forgets a stream that ended. (A stalled consumer's
 * `: slow-consumer` is backpressure.test.ts's.)
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULTS } from './config.js';
import type { HubLike } from './hub.js';
import { startRelay, type RunningRelay } from './server.js';
import { handleStream, SseStreams } from './sse.js';
import type { SubscriptionWriter } from './subscription.js';
import { makeEvent, openSse, post, sleep } from './test-utils/testing.js';

let relay: RunningRelay | undefined;
const sockets: Socket[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  await relay?.close();
  relay = undefined;
});

const subscribers = async (base: string): Promise<number> => ((await (await fetch(`${base}/healthz`)).json()) as { subscribers: number }).subscribers;

async function until(pred: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(20);
  }
}

/** A raw HTTP/1.1 SSE request; `read` false leaves the socket paused after the headers. */
function rawSse(port: number, path: string, read = true): Promise<{ socket: Socket; text: () => string; closed: Promise<void> }> {
  return new Promise((resolve) => {
    let text = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: relay\r\nAccept: text/event-stream\r\n\r\n`));
    sockets.push(socket);
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.setEncoding('latin1');
    socket.on('error', () => {});
    socket.once('data', (first: string) => {
      text += first;
      if (!read) socket.pause();
      else socket.on('data', (c: string) => (text += c));
      resolve({ socket, text: () => text, closed });
    });
  });
}

describe('SseStreams', () => {
  it('counts open streams, forgets one unregistered, and says goodbye to each open one once', () => {
    const streams = new SseStreams();
    const said: string[] = [];
    const a = streams.add(() => said.push('a'));
    streams.add(() => said.push('b'));
    expect(streams.size).toBe(2);
    a();
    expect(streams.size).toBe(1);
    streams.shutdownAll();
    expect(said).toEqual(['b']);
  });
});

describe('the SSE writer', () => {
  it('answers with exactly the event-stream headers, flushed before any event', async () => {
    relay = await startRelay({ port: 0 });
    const s = await rawSse(relay.port, '/stream');
    const head = s.text().split('\r\n\r\n')[0]!.toLowerCase().split('\r\n');
    expect(head[0]).toBe('http/1.1 200 ok');
    expect(head).toEqual(expect.arrayContaining(['content-type: text/event-stream', 'cache-control: no-cache', 'connection: keep-alive', 'x-accel-buffering: no']));
  });

  it('a replay of several MB, more than the socket takes at once, arrives whole and in order, then : replay-complete', async () => {
    relay = await startRelay({ port: 0 });
    const lines = Array.from({ length: 400 }, (_, seq) => JSON.stringify(makeEvent({ session: 'big', seq, capture: 'redacted', data: { message: `${seq}:${'y'.repeat(16 * 1024)}` } })));
    for (let i = 0; i < lines.length; i += 50) expect((await post(relay.url, lines.slice(i, i + 50))).status).toBe(202);
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.name);
    process.on('warning', onWarning);
    const s = await rawSse(relay.port, '/stream?from=all&live=0', false);
    await sleep(300); // the relay fills the socket and waits for it to drain
    let collected = '';
    s.socket.on('data', (c: string) => (collected += c));
    s.socket.resume();
    await until(() => collected.includes(': replay-complete\n\n'), 15_000);
    const all = s.text() + collected;
    const seqs = [...all.matchAll(/^id: big:0:(\d+)$/gm)].map((m) => Number(m[1]));
    expect(seqs).toEqual(lines.map((_, i) => i));
    expect(all.indexOf(': replay-complete')).toBeGreaterThan(all.lastIndexOf('id: big:0:399'));
    // Each wait for a drain leaves no listener behind (dozens of waits: no MaxListenersExceededWarning).
    await sleep(50);
    process.off('warning', onWarning);
    expect(warnings).toEqual([]);
  }, 20_000);

  it('a consumer that goes away is no subscriber any more', async () => {
    relay = await startRelay({ port: 0 });
    const sse = await openSse(`${relay.url}/stream`);
    await until(async () => (await subscribers(relay!.url)) === 1);
    sse.close();
    await until(async () => (await subscribers(relay!.url)) === 0);
  });

});

/**
 * The writer driven directly: `GET /stream` served by `handleStream` over a hub whose `subscribe`
 * hands the test the writer, so each ending is asserted on the bytes a consumer reads.
 */
async function driven(): Promise<{ writer: () => SubscriptionWriter; res: () => ServerResponse; streams: SseStreams; client: Awaited<ReturnType<typeof rawSse>>; closedSubs: () => number }> {
  let writer: SubscriptionWriter | undefined;
  let response: ServerResponse | undefined;
  let closedSubs = 0;
  const hub = { subscribe: (_spec: unknown, w: SubscriptionWriter) => ((writer = w), { close: () => void closedSubs++ }) } as unknown as HubLike;
  const streams = new SseStreams();
  const server = createServer((req, res) => {
    response = res;
    handleStream(req, res, new URL(req.url ?? '/', 'http://x'), DEFAULTS, hub, streams);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const client = await rawSse((server.address() as AddressInfo).port, '/stream');
  await until(() => writer !== undefined);
  return { writer: () => writer!, res: () => response!, streams, client, closedSubs: () => closedSubs };
}
const body = (text: string): string => text.slice(text.indexOf('\r\n\r\n') + 4);
const live = (seq: number) => {
  const event = makeEvent({ session: 'w', seq });
  return { event, raw: JSON.stringify(event) } as never;
};
/** One HTTP/1.1 chunk of `text` as it appears on the wire (size in hex, CRLF, the bytes, CRLF). */
const chunk = (text: string): string => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
/** The SSE message of a record made by `live` (no ceiling: the received bytes). */
const message = (rec: { event: { session?: string; seq?: number; type: string }; raw: string }): string =>
  `${typeof rec.event.session === 'string' ? `id: ${rec.event.session}:0:${rec.event.seq}\n` : ''}event: ${rec.event.type}\ndata: ${rec.raw}\n\n`;

describe('how a stream ends, on the wire', () => {
  it('slow-consumer: what was held goes first, then the goodbye naming how to resume, then the end; nothing after it', async () => {
    const d = await driven();
    d.writer().live(live(0), undefined);
    d.writer().end('slow-consumer');
    d.writer().end('replay-complete');
    d.writer().live(live(1), undefined);
    d.writer().flush?.();
    d.streams.shutdownAll();
    await until(() => body(d.client.text()).includes('0\r\n\r\n'));
    const text = body(d.client.text());
    expect(text).toContain('id: w:0:0');
    expect(text).toContain(': slow-consumer: resume from your Last-Event-ID\n\n');
    expect(text.indexOf(': slow-consumer')).toBeGreaterThan(text.indexOf('id: w:0:0'));
    for (const absent of ['replay-complete', 'id: w:0:1', 'shutting-down']) expect(text).not.toContain(absent);
    expect(d.closedSubs()).toBe(1);
    expect(d.streams.size).toBe(0);
  });

  it('replay-complete: the marker, then the end; failed: the end with no marker at all', async () => {
    const a = await driven();
    a.writer().end('replay-complete');
    await until(() => body(a.client.text()).includes('0\r\n\r\n'));
    expect(body(a.client.text())).toMatch(/^[0-9a-f]+\r\n: replay-complete\n\n\r\n0\r\n\r\n$/);
    const b = await driven();
    b.writer().end('failed', new Error('render failed'));
    await until(() => body(b.client.text()).includes('0\r\n\r\n'));
    expect(body(b.client.text())).toBe('0\r\n\r\n');
  });

  it('shutdown says : shutting-down once to an open stream and ends it', async () => {
    const d = await driven();
    d.streams.shutdownAll();
    d.streams.shutdownAll();
    await until(() => body(d.client.text()).includes('0\r\n\r\n'));
    expect(body(d.client.text()).match(/shutting-down/g)).toHaveLength(1);
    expect(d.closedSubs()).toBe(1);
  });

  it('a replay smaller than a chunk goes out as one HTTP chunk, not one per event', async () => {
    relay = await startRelay({ port: 0 });
    const lines = Array.from({ length: 50 }, (_, seq) => JSON.stringify(makeEvent({ session: 'small', seq })));
    expect((await post(relay.url, lines)).status).toBe(202);
    const s = await rawSse(relay.port, '/stream?from=all&live=0');
    await until(() => s.text().includes(': replay-complete'));
    await until(() => s.text().endsWith('0\r\n\r\n'));
    // Chunked transfer: each write is a size line; the replay is one, the marker another, then the end.
    const chunks = body(s.text()).split('\r\n').filter((l, i) => i % 2 === 0 && /^[0-9a-f]+$/.test(l));
    expect(chunks).toHaveLength(3);
    expect(body(s.text())).toContain('id: small:0:49');
  });

  it('a stalled consumer ended slow-consumer with megabytes still queued is cut off within seconds', async () => {
    const d = await driven();
    d.client.socket.pause();
    const big = 'v'.repeat(512 * 1024);
    for (let seq = 0; seq < 40; seq++) {
      const event = makeEvent({ session: 'cut', seq, data: { big } });
      d.writer().live({ event, raw: JSON.stringify(event) } as never, undefined);
      d.writer().flush?.();
    }
    expect(d.writer().bufferedBytes()).toBeGreaterThan(1024 * 1024);
    d.writer().end('slow-consumer');
    const server = servers.at(-1)!;
    const connections = (): Promise<number> => new Promise((r) => server.getConnections((_e, n) => r(n)));
    expect(await connections()).toBe(1);
    await until(async () => (await connections()) === 0, 5_000);
  }, 15_000);

  it('a response that fails (an error on it) ends the stream: the terminating chunk only, the subscription closed, shutdown forgets it', async () => {
    const d = await driven();
    d.res().emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    await until(() => body(d.client.text()).includes('0\r\n\r\n'));
    expect(body(d.client.text())).toBe('0\r\n\r\n');
    expect(d.closedSubs()).toBe(1);
    expect(d.streams.size).toBe(0);
  });
});

describe('one fan-out, several streams (the shared batch bytes)', () => {
  it('streams that selected the same records share one encoded batch, byte-exact; a stream owed gap markers writes its own bytes', async () => {
    const a = await driven();
    const b = await driven();
    const c = await driven();
    const r0 = live(0) as unknown as { event: { session: string; seq: number; type: string }; raw: string };
    const r1 = live(1) as unknown as typeof r0;
    const agentEvent = makeEvent({ session: undefined, seq: undefined });
    const agent = { event: agentEvent, raw: JSON.stringify(agentEvent) } as unknown as typeof r0;
    const shared: Array<{ bytes: Buffer }> = [];
    for (const d of [a, b]) {
      d.writer().live(r0 as never, undefined);
      d.writer().live(r1 as never, undefined);
      d.writer().flush?.(shared);
    }
    // Stream c resumed into a session held from 0:0 only: its marker goes before that session's
    // first event; an agent-scoped event (no session) never gets one, whatever the position says.
    c.writer().live(r0 as never, { epoch: 0, seq: 0 });
    c.writer().live(agent as never, { epoch: 0, seq: 0 });
    c.writer().live(r1 as never, undefined);
    c.writer().flush?.(shared);
    const batch = message(r0) + message(r1);
    for (const d of [a, b]) await until(() => body(d.client.text()).length >= chunk(batch).length);
    expect(body(a.client.text())).toBe(chunk(batch));
    expect(body(b.client.text())).toBe(chunk(batch));
    const own = `: replay-exhausted w 0:0\n\n${message(r0)}${message(agent)}${message(r1)}`;
    await until(() => body(c.client.text()).length >= chunk(own).length);
    expect(body(c.client.text())).toBe(chunk(own));
    // One encoding for a and b together; c's bytes (with its marker) are its own, not shared.
    expect(shared.map((s) => s.bytes.toString('utf8'))).toEqual([batch]);
  });

  it('a stream that selected nothing of a fan-out, or that closed holding records, writes nothing and builds no batch', async () => {
    const idle = await driven();
    const closing = await driven();
    const shared: Array<{ bytes: Buffer }> = [];
    idle.writer().flush?.(shared);
    closing.writer().live(live(0), undefined);
    closing.streams.shutdownAll();
    closing.writer().flush?.(shared);
    await until(() => body(closing.client.text()).includes('0\r\n\r\n'));
    expect(body(closing.client.text())).toBe(`${chunk(': shutting-down\n\n')}0\r\n\r\n`);
    expect(shared).toEqual([]);
    await sleep(50);
    expect(body(idle.client.text())).toBe('');
  });
});
