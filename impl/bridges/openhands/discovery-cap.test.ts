/**
 * Discovery is bounded (issue 39): a 2,000-item discovery answer opens at most the documented
 * number of sockets (AEP_OPENHANDS_MAX_SESSIONS, default 100), a few handshakes at a time, and an
 * oversized discovery answer is refused unread. A hand-made agent server counts every connection.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { createEmitter, type Emitter } from '../../bridge-kit/emitter.js';
import { useTempHome } from '../../bridge-kit/test-utils/bridge-tests.js';
import { CONNECT_CONCURRENCY, MAX_SESSIONS, discovered, slots, socketUrlOf, startOpenHandsBridge, type RunningOpenHands } from './receiver.js';

const home = useTempHome();
const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** An agent server listing `items` conversations, holding each socket handshake `holdMs`. */
async function agentServer(items: number, holdMs: number, pad = 0) {
  const stats = { tcp: 0, upgrades: 0, inFlight: 0, maxInFlight: 0 };
  const wss = new WebSocketServer({ noServer: true });
  const http = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ items: Array.from({ length: items }, (_, i) => ({ id: `conv-${i}` })), next_page_id: null, pad: 'x'.repeat(pad) }));
  });
  http.on('connection', () => stats.tcp++);
  http.on('upgrade', (req, socket, head) => {
    stats.upgrades++;
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    setTimeout(() => {
      stats.inFlight--;
      if (socket.destroyed) return;
      wss.handleUpgrade(req, socket, head, () => undefined);
    }, holdMs);
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
  cleanup.push(async () => {
    for (const c of wss.clients) c.terminate();
    http.closeAllConnections();
    await new Promise<void>((r) => http.close(() => r()));
  });
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, stats };
}

async function bridge(server: string, logs: string[], maxSessions?: number): Promise<RunningOpenHands> {
  const emitter: Emitter = createEmitter({ agent: 'openhands', stateKey: 'oh-cap', home: home(), emits: ['session'], log: () => undefined });
  const b = await startOpenHandsBridge({ server, emitter, pollMs: 60_000, log: (l) => logs.push(l), ...(maxSessions ? { maxSessions } : {}) });
  cleanup.push(() => emitter.close(), () => b.close());
  return b;
}

const settle = async (ok: () => boolean, ms = 15_000): Promise<void> => {
  for (const t0 = Date.now(); Date.now() - t0 < ms && !ok(); ) await new Promise((r) => setTimeout(r, 25));
};

describe('bridge openhands: discovery is capped and its sockets open a few at a time', () => {
  it(`a 2,000-item answer opens at most ${MAX_SESSIONS} sockets, ${CONNECT_CONCURRENCY} handshakes at once, and says so`, async () => {
    const agent = await agentServer(2_000, 30);
    const logs: string[] = [];
    const b = await bridge(agent.url, logs);
    await settle(() => b.attached().length >= MAX_SESSIONS);
    await new Promise((r) => setTimeout(r, 300));
    expect(b.attached().length).toBe(MAX_SESSIONS);
    expect(agent.stats.upgrades).toBe(MAX_SESSIONS);
    expect(agent.stats.tcp).toBeLessThanOrEqual(MAX_SESSIONS + 2);
    expect(agent.stats.maxInFlight).toBeLessThanOrEqual(CONNECT_CONCURRENCY);
    expect(logs.some((l) => l.includes('1900 more conversation(s)') && l.includes('AEP_OPENHANDS_MAX_SESSIONS=100'))).toBe(true);
  }, 30_000);

  it('a lower cap is honoured; an oversized discovery answer is refused unread', async () => {
    const agent = await agentServer(50, 0);
    const logs: string[] = [];
    const b = await bridge(agent.url, logs, 5);
    await settle(() => b.attached().length >= 5);
    await new Promise((r) => setTimeout(r, 200));
    expect([b.attached().length, agent.stats.upgrades]).toEqual([5, 5]);
    const huge = await agentServer(1, 0, 9 * 1024 * 1024);
    const logs2: string[] = [];
    const b2 = await bridge(huge.url, logs2);
    expect(b2.attached()).toEqual([]);
    expect(huge.stats.upgrades).toBe(0);
    expect(logs2.join('\n')).toContain('discovery failed: the discovery answer is over 8388608 bytes');
  });
});

describe('slots', () => {
  it('grants at most n at once, in order, and an aborted wait takes none', async () => {
    const gate = slots(2);
    const ac = new AbortController();
    const a = await gate.take(ac.signal);
    const b = await gate.take(ac.signal);
    const order: string[] = [];
    const c = gate.take(ac.signal).then((r) => (order.push('c'), r));
    const aborted = new AbortController();
    const d = gate.take(aborted.signal);
    aborted.abort();
    expect(await d).toBeNull();
    expect(gate.busy()).toBe(2);
    a!();
    a!();
    const rc = await c;
    expect(order).toEqual(['c']);
    expect(gate.busy()).toBe(2);
    b!();
    rc!();
    expect(gate.busy()).toBe(0);
  });
});

describe('the pure steps beside startOpenHandsBridge', () => {
  it('discovered: new ids within the room, duplicates and known ones skipped, the rest counted over', () => {
    const body = { items: [{ id: 'a' }, { id: 'b' }, { id: 'a' }, { id: 'c' }, { id: 'd' }, 'junk'] };
    expect(discovered(body, new Set(['b']), 2)).toEqual({ ids: ['a', 'c'], over: 1 });
    expect(discovered({}, new Set(), 5)).toEqual({ ids: [], over: 0 });
  });

  it('socketUrlOf: all on the first connect, since the last timestamp after', () => {
    expect(socketUrlOf('http://127.0.0.1:3000', 'c 1', undefined)).toBe('ws://127.0.0.1:3000/sockets/events/c%201?resend_mode=all');
    expect(socketUrlOf('https://h', 'c', '2026-01-01T00:00:00')).toBe('wss://h/sockets/events/c?resend_mode=since&after_timestamp=2026-01-01T00%3A00%3A00');
  });
});
