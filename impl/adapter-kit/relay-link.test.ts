/** The relay link: hello first, outbox until the hello answer, reconnect with backoff after a drop. */
import { afterEach, describe, expect, it } from 'vitest';
import { HURRY_MS, RelayLink } from './relay-link.js';
import { wsSocket, type RelaySocket, type SocketFactory } from '../relay-client/transport.js';
import { deadPort } from '../test-utils/dead-port.js';
import { startStubRelay, type StubRelay } from './test-utils/daemon-harness.js';

let relay: StubRelay | null = null;
let link: RelayLink | null = null;
afterEach(async () => {
  await link?.close();
  await relay?.close();
  link = null;
  relay = null;
});

const hello = { type: 'hello', versions: ['0.1'], role: 'emitter', identity: { agent: 't' }, capabilities: {} };
const until = async (pred: () => boolean, ms = 3000) => {
  const deadline = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('RelayLink', () => {
  it('sends hello first, holds events until the hello answer, then flushes them in order', async () => {
    relay = await startStubRelay();
    const commands: string[] = [];
    link = new RelayLink({ url: relay.url, token: 'x', hello, onCommand: (raw) => commands.push(raw), log: () => {} }).start();
    link.send('{"aep":"0.1","n":1}');
    link.send('{"aep":"0.1","n":2}');
    await until(() => relay!.frames.length === 3);
    expect(JSON.parse(relay.frames[0]!).type).toBe('hello');
    expect(relay.frames.slice(1)).toEqual(['{"aep":"0.1","n":1}', '{"aep":"0.1","n":2}']);
    expect(link.connected).toBe(true);
    relay.send('{"aep":"0.1","type":"control.pause","id":"c1"}');
    relay.send({ type: 'pong' });
    await until(() => commands.length === 1);
    expect(commands).toEqual(['{"aep":"0.1","type":"control.pause","id":"c1"}']);
  });

  it('reconnects after a drop, says hello again, and delivers what was queued meanwhile', async () => {
    relay = await startStubRelay();
    const lines: string[] = [];
    link = new RelayLink({ url: relay.url, hello, onCommand: () => {}, log: (l) => lines.push(l) }).start();
    await until(() => link!.connected);
    relay.drop();
    await until(() => !link!.connected);
    link.send('{"aep":"0.1","n":3}');
    await until(() => relay!.frames.includes('{"aep":"0.1","n":3}'));
    expect(relay.frames.filter((f) => f.includes('"hello"'))).toHaveLength(2);
    expect(lines.some((l) => l.includes('reconnecting'))).toBe(true);
  });

  it('hurried while down (a hook is held): a relay back on its port is joined within HURRY_MS, not after the grown backoff', async () => {
    const port = await deadPort();
    const lines: string[] = [];
    link = new RelayLink({ url: `http://127.0.0.1:${port}`, hello, onCommand: () => {}, log: (l) => lines.push(l) }).start();
    // Attempts at about 0, 0.25, 0.75, 1.75 and 3.75 s; the wait after the last is 4 s.
    await new Promise((r) => setTimeout(r, 4200));
    expect(link.state.status).toBe('down');
    const back = await startRelay({ port, log: () => {} });
    try {
      const at = Date.now();
      link.hurry(5000);
      await until(() => link!.connected, 3000);
      expect(Date.now() - at).toBeLessThan(HURRY_MS + 700);
    } finally {
      await link.close();
      link = null;
      await back.close();
    }
  }, 15_000);

  it('hurry does nothing while the link is up', async () => {
    relay = await startStubRelay();
    link = new RelayLink({ url: relay.url, hello, onCommand: () => {}, log: () => {} }).start();
    await until(() => link!.connected);
    link.hurry(5000);
    link.send('{"aep":"0.1","n":9}');
    await until(() => relay!.frames.includes('{"aep":"0.1","n":9}'));
    expect(relay.frames.filter((f) => f.includes('"hello"'))).toHaveLength(1);
  });

  it('keeps retrying while no relay listens (the outbox is bounded), logging the same failure once', async () => {
    const lines: string[] = [];
    const http = createHttpServer((_req, res) => res.end());
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    const port = (http.address() as AddressInfo).port;
    await new Promise<void>((r) => http.close(() => r()));
    let attempts = 0;
    link = new RelayLink({ url: `http://127.0.0.1:${port}`, hello, onCommand: () => {}, log: (l) => lines.push(l), maxOutbox: 1 }).start();
    link.send('a');
    link.send('b');
    const probe = setInterval(() => (link!.state.status === 'down' ? attempts++ : undefined), 5);
    // 250 + 500 ms of backoff: at least three attempts.
    await new Promise((r) => setTimeout(r, 1000));
    clearInterval(probe);
    expect(attempts).toBeGreaterThan(0);
    expect(link.state).toMatchObject({ status: 'down', reason: expect.stringContaining('ECONNREFUSED') });
    expect(lines.filter((l) => l.startsWith('relay link down'))).toHaveLength(1);
    expect(lines.some((l) => l.includes('outbox full'))).toBe(true);
    expect(link.connected).toBe(false);
  });
});

describe('RelayLink against a relay that refuses the token (issue 20 §3)', () => {
  let real: RunningRelay | null = null;
  afterEach(async () => {
    await real?.close();
    real = null;
  });

  it('says "token refused" once, is in the refused state, keeps the events held, and joins once the token is right', async () => {
    real = await startRelay({ port: 0, token: 'the-right-token-7f3e' });
    const lines: string[] = [];
    link = new RelayLink({ url: real.url, token: 'a-wrong-token-0000', hello, onCommand: () => {}, log: (l) => lines.push(l), refusedRetryMs: 50 }).start();
    link.send(line(0));
    await until(() => link!.state.status === 'refused');
    await new Promise((r) => setTimeout(r, 400)); // several quiet retries
    expect(link.state).toEqual({ status: 'refused', httpStatus: 401 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^relay refused the token \(HTTP 401\) at ws:\/\/127\.0\.0\.1:\d+\/socket: set AEP_TOKEN \(or --token\) to the relay's token; events are kept in the session log and held for delivery, and the link retries quietly every 0\.05 s$/);
    expect(lines.join('\n')).not.toContain('a-wrong-token');
    expect(link.pending).toBe(1);
    await link.close();
    // The same link with the right token comes up and delivers what it held.
    const lines2: string[] = [];
    link = new RelayLink({ url: real.url, token: 'the-right-token-7f3e', hello, onCommand: () => {}, log: (l) => lines2.push(l) }).start();
    link.send(line(0));
    await until(() => link!.state.status === 'up');
    expect(lines2.filter((l) => l.includes('refused'))).toEqual([]);
  });
});

import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import { startRelay, type RunningRelay } from '../relay/server.js';

/** A relay stand-in that declares pong-acks and answers pings only while `answerPings` is set. */
async function ackingStub(): Promise<{ url: string; events: string[]; answerPings: boolean; drop(): void; close(): Promise<void> }> {
  const http = createHttpServer();
  const wss = new WebSocketServer({ server: http, path: '/socket' });
  let current: ServerSocket | null = null;
  const stub = {
    url: '',
    events: [] as string[],
    answerPings: true,
    drop: () => current?.terminate(),
    close: async () => {
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
  wss.on('connection', (ws) => {
    current = ws;
    ws.on('message', (data) => {
      const text = data.toString();
      const f = JSON.parse(text) as Record<string, unknown>;
      if (f.type === 'hello') ws.send(JSON.stringify({ type: 'hello', versions: ['0.1'], role: 'both', capabilities: { experimental: { 'pong-acks': {} } } }));
      else if (f.type === 'ping') {
        if (stub.answerPings) ws.send(JSON.stringify({ type: 'pong', t: f.t }));
      } else stub.events.push(text);
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  stub.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return stub;
}

const line = (n: number, severity = 'info'): string =>
  JSON.stringify({ aep: '0.1', id: `rl-${n}`, type: 'progress.status', time: '2026-12-01T09:00:00Z', source: 'aep://h/agent/rl', agent: 'rl', session: 'rl-s', seq: n, severity, data: {} });

describe('RelayLink outbox bound (AEP-0003 §8.4, defect 10)', () => {
  it('with the relay down, one warning then 10,050 infos: the warning survives, the oldest infos go, every drop is counted', async () => {
    const probe = createHttpServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const lines: string[] = [];
    link = new RelayLink({ url: `http://127.0.0.1:${port}`, hello, onCommand: () => {}, log: (l) => lines.push(l) }).start();
    link.send(line(0, 'warning'));
    for (let n = 1; n <= 10_050; n++) link.send(line(n, 'info'));
    expect(link.dropped).toEqual({ debugInfo: 51, other: 0 });
    expect(link.pending).toBe(10_000);
    expect(lines.filter((l) => l.includes('outbox full'))).toHaveLength(1);
    let relayUp: RunningRelay | undefined;
    try {
      relayUp = await startRelay({ port, buffer: 20_000 });
      await until(() => link!.connected, 5000);
      await until(() => link!.pending === 0, 10_000);
      let text = '';
      for (let i = 0; i < 100 && text.match(/^id: /gm)?.length !== 10_000; i++) {
        if (i > 0) await new Promise((r) => setTimeout(r, 50));
        text = await (await fetch(`${relayUp.url}/stream?from=all&live=0`)).text();
      }
      const seqs = (text.match(/^id: rl-s:0:(\d+)$/gm) ?? []).map((l) => Number(l.split(':').pop()));
      expect(seqs[0]).toBe(0); // the warning
      expect(seqs.length).toBe(10_000);
      expect(seqs[1]).toBe(52);
      expect(seqs[seqs.length - 1]).toBe(10_050);
      console.log(`[reliability] outbox: 10,051 queued while down, ${link.dropped.debugInfo} info dropped, 0 warnings lost`);
    } finally {
      await link.close();
      link = null;
      await relayUp?.close();
    }
  }, 30_000);

  it('drops a notice-or-above event only when no debug/info is left, and counts it', () => {
    const lines: string[] = [];
    link = new RelayLink({ url: 'http://127.0.0.1:1', hello, onCommand: () => {}, log: (l) => lines.push(l), maxOutbox: 2 }).start();
    link.send(line(1, 'error'));
    link.send(line(2, 'debug'));
    link.send(line(3, 'notice'));
    expect(link.dropped).toEqual({ debugInfo: 1, other: 0 });
    link.send(line(4, 'critical'));
    expect(link.dropped).toEqual({ debugInfo: 1, other: 1 });
    expect(link.pending).toBe(2);
  });
});

describe('RelayLink resend of unacknowledged events (defect 11)', () => {
  it('resends, after a reconnect, exactly what no pong acknowledged, in order', async () => {
    const stub = await ackingStub();
    try {
      link = new RelayLink({ url: stub.url, hello, onCommand: () => {}, log: () => {}, ackDelayMs: 5 }).start();
      await until(() => link!.connected);
      link.send(line(1));
      link.send(line(2));
      await until(() => stub.events.length === 2 && link!.pending === 0);
      stub.answerPings = false;
      link.send(line(3));
      link.send(line(4));
      await until(() => stub.events.length === 4);
      await new Promise((r) => setTimeout(r, 30));
      expect(link.pending).toBe(2);
      stub.drop();
      await until(() => !link!.connected);
      link.send(line(5));
      stub.answerPings = true;
      await until(() => stub.events.length === 7 && link!.pending === 0, 5000);
      expect(stub.events.map((e) => JSON.parse(e).seq)).toEqual([1, 2, 3, 4, 3, 4, 5]);
    } finally {
      await link?.close();
      link = null;
      await stub.close();
    }
  });

  it('keeps no unacknowledged events and sends no pings to a relay that does not declare pong-acks', async () => {
    relay = await startStubRelay();
    link = new RelayLink({ url: relay.url, hello, onCommand: () => {}, log: () => {}, ackDelayMs: 1 }).start();
    await until(() => link!.connected);
    link.send(line(1));
    await until(() => relay!.frames.length === 2);
    await new Promise((r) => setTimeout(r, 30));
    expect(relay.frames.some((f) => f.includes('"ping"'))).toBe(false);
    expect(link.pending).toBe(0);
  });

  it('against the real relay: a dropped connection loses nothing and the relay buffer holds no duplicate', async () => {
    const real = await startRelay({ port: 0 });
    try {
      let socket: RelaySocket | undefined;
      const factory: SocketFactory = (url, init) => (socket = wsSocket(url, init));
      link = new RelayLink({ url: real.url, hello, onCommand: () => {}, log: () => {}, ackDelayMs: 2, socket: factory }).start();
      await until(() => link!.connected);
      for (let n = 0; n < 300; n++) {
        link.send(line(n));
        // Cut the connection mid-stream: whatever was in flight must be resent.
        if (n === 150) socket!.terminate();
      }
      await until(() => link!.connected && link!.pending === 0, 10_000);
      const text = await (await fetch(`${real.url}/stream?from=all&live=0`)).text();
      const seqs = (text.match(/^id: rl-s:0:(\d+)$/gm) ?? []).map((l) => Number(l.split(':').pop()));
      expect(seqs).toEqual(Array.from({ length: 300 }, (_, i) => i));
    } finally {
      await link?.close();
      link = null;
      await real.close();
    }
  });
});
