/**
 * Test-only: an HTTP sink that misbehaves on demand, for the outbound sidecars' fault tests. It
 * listens on a fixed loopback port so it can go down (closed, connections cut: connect refused)
 * and come back on the same port. Each request is answered by the next fault in its queue, else
 * by `fallback`: 2xx, a status (500, 429, 400), a reset (the socket destroyed before any answer)
 * or a slow answer (held past the client's timeout, then a 200 nobody reads).
 *
 * It counts what it RECEIVED (every complete body) apart from what it ACKNOWLEDGED (a 2xx written
 * to a client still connected): only the second is delivered, and only the second must hold every
 * event exactly once.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export type Fault = { kind: 'status'; status: number } | { kind: 'reset' } | { kind: 'slow'; ms: number };

export interface FaultSink {
  readonly url: string;
  readonly port: number;
  /** Faults served one per request, first in first out. */
  readonly queue: Fault[];
  /** How a request with no queued fault is answered (default 200). */
  fallback: Fault | 'ok';
  /** Ids in every complete body received, in arrival order (duplicates included). */
  readonly received: string[];
  /** Ids in every body answered 2xx to a connected client, in order. */
  readonly acked: string[];
  /** Faults served, by kind (`status:500`, `reset`, `slow`, `down` for refused connection windows). */
  readonly served: Record<string, number>;
  /** Stop listening and cut every open connection: the next connect is refused. */
  down(): Promise<void>;
  /** Listen again on the same port. */
  up(): Promise<void>;
  readonly listening: boolean;
  close(): Promise<void>;
}

export async function startFaultSink(idsOf: (body: string) => string[], port = 0): Promise<FaultSink> {
  let server: Server | null = null;
  let boundPort = port;
  const count = (k: string): void => void (sink.served[k] = (sink.served[k] ?? 0) + 1);

  function answer(req: IncomingMessage, res: ServerResponse, body: string): void {
    const fault = sink.queue.shift() ?? (sink.fallback === 'ok' ? null : sink.fallback);
    if (fault?.kind === 'reset') {
      count('reset');
      req.socket.destroy();
      return;
    }
    sink.received.push(...idsOf(body));
    if (fault?.kind === 'status') {
      count(`status:${fault.status}`);
      res.writeHead(fault.status, { 'content-type': 'text/plain' }).end(`fault ${fault.status}`);
      return;
    }
    const ok = (): void => {
      if (req.socket.destroyed) return; // the client gave up: not acknowledged
      res.on('finish', () => sink.acked.push(...idsOf(body)));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    };
    if (fault?.kind === 'slow') {
      count('slow');
      setTimeout(ok, fault.ms);
      return;
    }
    ok();
  }

  const sink: FaultSink = {
    url: '',
    port: 0,
    queue: [],
    fallback: 'ok',
    received: [],
    acked: [],
    served: {},
    get listening() {
      return server !== null;
    },
    async up() {
      if (server) return;
      const s = createServer((req, res) => {
        let body = '';
        req.setEncoding('utf8');
        req.on('data', (c: string) => (body += c));
        req.on('end', () => answer(req, res, body));
      });
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(boundPort, '127.0.0.1', () => resolve());
      });
      boundPort = (s.address() as { port: number }).port;
      server = s;
      Object.assign(sink, { port: boundPort, url: `http://127.0.0.1:${boundPort}` });
    },
    async down() {
      const s = server;
      if (!s) return;
      server = null;
      count('down');
      s.closeAllConnections();
      await new Promise<void>((r) => s.close(() => r()));
    },
    async close() {
      await sink.down();
    },
  };
  await sink.up();
  return sink;
}

/** The ids of events whose count in `ids` is not exactly one, and the ids of `all` missing from it. */
export function tally(all: readonly string[], ids: readonly string[]): { lost: number; doubled: number; missing: string[] } {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  const missing = all.filter((id) => !counts.has(id));
  let doubled = 0;
  for (const n of counts.values()) if (n > 1) doubled += n - 1;
  return { lost: missing.length, doubled, missing };
}
