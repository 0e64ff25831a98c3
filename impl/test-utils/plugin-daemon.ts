/**
 * Test-only: a stand-in for an adapter daemon, for the vendor-side plugin tests. It records every
 * `POST /hook/<name>` (name and parsed body, in arrival order) and answers each with the reply a
 * test chose per hook name (a body, a delay, or never).
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  hook: string;
  body: Record<string, unknown>;
}

/** How the fake daemon answers one hook: `body` after `delayMs` (default 0); `hang` never answers. */
export interface FakeReply {
  body?: string;
  delayMs?: number;
  hang?: boolean;
  status?: number;
}

export interface FakeDaemon {
  port: number;
  received: Received[];
  /** Set the reply for a hook name (default `{}` at once). */
  reply(hook: string, how: FakeReply): void;
  /** Resolve once `n` hooks were received (polls; rejects after `ms`). */
  waitFor(n: number, ms?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startFakeDaemon(): Promise<FakeDaemon> {
  const received: Received[] = [];
  const replies = new Map<string, FakeReply>();
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const hook = decodeURIComponent((req.url ?? '').replace(/^\/hook\//, ''));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ hook, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> });
      const how = replies.get(hook) ?? {};
      if (how.hang) {
        open.add(res);
        return;
      }
      setTimeout(() => {
        res.writeHead(how.status ?? 200, { 'content-type': 'application/json' });
        res.end(how.body ?? '{}');
      }, how.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    reply: (hook, how) => void replies.set(hook, how),
    async waitFor(n, ms = 3000) {
      const deadline = Date.now() + ms;
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`fake daemon: ${received.length} of ${n} hooks received in ${ms} ms: ${received.map((r) => r.hook).join(', ')}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      return received;
    },
    async close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
