/**
 * A stub OpenCode / Kilo Code server for the SSE bridges' live checks (CI and tests; never a
 * vendor stand-in in production): `GET /event` streams `server.connected` and a
 * `session.created` for each named session, then stays open; the two REST writes the opt-in gate
 * may send (`POST /session/{id}/permissions/{pid}`, `POST /session/{id}/abort`) answer 200 `true`
 * and are recorded; anything else is 404. Run standalone:
 * `node dist/impl/bridges/opencode-sse/stub-server.js <session>...` prints
 * `stub vendor server listening on http://127.0.0.1:<port>` and serves until SIGINT/SIGTERM.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

export interface StubServer {
  url: string;
  /** The REST writes received, as `METHOD path body`. */
  writes: string[];
  /** Push one bus event to every open `/event` stream. */
  push(event: unknown): void;
  close(): Promise<void>;
}

const WRITE = /^\/session\/[^/]+\/(permissions\/[^/]+|abort)$/;

export async function startStubServer(sessions: string[]): Promise<StubServer> {
  const streams = new Set<ServerResponse>();
  const writes: string[] = [];
  const frame = (e: unknown): string => `data: ${JSON.stringify(e)}\n\n`;
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'GET' && path === '/event') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(frame({ type: 'server.connected', properties: {} }));
      for (const id of sessions) res.write(frame({ type: 'session.created', properties: { info: { id, version: 'stub', title: 'stub session', directory: '/tmp' } } }));
      streams.add(res);
      res.on('close', () => streams.delete(res));
      return;
    }
    if (req.method === 'POST' && WRITE.test(path)) {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        writes.push(`POST ${path} ${body}`.trimEnd());
        res.writeHead(200, { 'content-type': 'application/json' }).end('true');
      });
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not-found', detail: `${req.method} ${path}` }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    writes,
    push: (e) => { for (const s of streams) s.write(frame(e)); },
    async close() {
      for (const s of streams) s.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const stub = await startStubServer(process.argv.slice(2));
  process.stdout.write(`stub vendor server listening on ${stub.url}\n`);
  const stop = (): void => void stub.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
