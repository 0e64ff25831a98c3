/**
 * A stub kap-server for the Kimi web bridge's live checks (CI and tests; never a vendor stand-in
 * in production). Everything sits behind one bearer token:
 * - `GET /api/v1/sessions` lists the named sessions in the `{code, msg, data}` envelope;
 * - `GET /api/v1/ws` upgrades only with the `kimi-code.bearer.<token>` subprotocol; after the
 *   bridge's subscribe frame it sends, per subscribed session, one `event.session.work_changed`
 *   envelope (seq 0) so the session is visible at the relay, and `push` fans envelopes out;
 * - the two REST writes the opt-in gate may send (`POST /api/v1/sessions/{id}/approvals/{aid}`,
 *   `POST /api/v1/sessions/{id}/abort`) answer `{"code":0,"msg":"ok","data":null}` and are
 *   recorded; a write to an approval named in `refuse` answers code 40400 instead.
 * Anything else is 404. Run standalone:
 * `node dist/impl/bridges/kimi-web/stub-server.js <token> <session>...` prints
 * `stub kap-server listening on http://127.0.0.1:<port>` and serves until SIGINT/SIGTERM.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { WebSocketServer, type WebSocket } from 'ws';

export interface StubKap {
  url: string;
  /** The REST writes received, as `METHOD path body`. */
  writes: string[];
  /** Subscribe frames received, verbatim. */
  subscribes: string[];
  /** Send one envelope to every subscribed socket. */
  push(envelope: unknown): void;
  /** Drop every open socket (the bridge reconnects). */
  drop(): void;
  close(): Promise<void>;
}

const WRITE = /^\/api\/v1\/sessions\/([^/]+)\/(approvals\/([^/]+)|abort)$/;

export async function startStubKap(token: string, sessions: string[], refuse: string[] = []): Promise<StubKap> {
  const writes: string[] = [];
  const subscribes: string[] = [];
  const subscribed = new Set<WebSocket>();
  const ok = JSON.stringify({ code: 0, msg: 'ok', data: null });
  const http = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const json = (status: number, body: string): void => void res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    if (req.headers.authorization !== `Bearer ${token}`) return json(401, JSON.stringify({ code: 40100, msg: 'unauthorized', data: null }));
    if (req.method === 'GET' && path === '/api/v1/sessions') return json(200, JSON.stringify({ code: 0, msg: 'ok', data: sessions.map((id) => ({ id })) }));
    const m = WRITE.exec(path);
    if (req.method === 'POST' && m) {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        writes.push(`POST ${path} ${body}`.trimEnd());
        if (m[3] && refuse.includes(decodeURIComponent(m[3]))) return json(200, JSON.stringify({ code: 40400, msg: 'approval not found', data: null }));
        json(200, ok);
      });
      return;
    }
    json(404, JSON.stringify({ code: 40400, msg: `${req.method} ${path}`, data: null }));
  });
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (set) => (set.has(`kimi-code.bearer.${token}`) ? `kimi-code.bearer.${token}` : false) });
  http.on('upgrade', (req, socket, head) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/api/v1/ws') return socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('close', () => subscribed.delete(ws));
      ws.on('message', (d) => {
        const text = d.toString();
        subscribes.push(text);
        let ids: unknown;
        try {
          ids = (JSON.parse(text) as { session_ids?: unknown }).session_ids;
        } catch {
          return;
        }
        subscribed.add(ws);
        for (const id of Array.isArray(ids) ? ids : []) {
          if (typeof id !== 'string') continue;
          ws.send(JSON.stringify({ type: 'event.session.work_changed', seq: 0, session_id: id, timestamp: new Date().toISOString(), payload: { type: 'event.session.work_changed', sessionId: id, busy: false } }));
        }
      });
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    writes,
    subscribes,
    push: (e) => { for (const ws of subscribed) ws.send(JSON.stringify(e)); },
    drop: () => { for (const ws of wss.clients) ws.terminate(); },
    async close() {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [token, ...sessions] = process.argv.slice(2);
  if (!token) {
    process.stderr.write('usage: stub-server.js <token> <session>...\n');
    process.exit(2);
  }
  const stub = await startStubKap(token, sessions);
  process.stdout.write(`stub kap-server listening on ${stub.url}\n`);
  const stop = (): void => void stub.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
