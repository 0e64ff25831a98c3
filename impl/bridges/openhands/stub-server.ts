/**
 * A stub OpenHands agent server for the bridge's live checks (CI and tests; never a vendor
 * stand-in in production):
 * - `GET /api/conversations/search` lists the named conversations (`{items, next_page_id}`);
 * - `GET /sockets/events/{id}` (WebSocket): when a key is set, the first frame must be
 *   `{"type":"auth","session_api_key":<key>}` (else close 4001); then the conversation's log is
 *   replayed by `resend_mode` (`all`, or `since` + `after_timestamp`, at and after), and `push`
 *   appends to the log and fans out;
 * - the gate's five REST writes (`POST /api/conversations/{id}/pause`, `/run`, `/interrupt`,
 *   `/events/respond_to_confirmation`, `/events`) answer 200 `{"success":true}` and are recorded.
 * Anything else is 404. Run standalone:
 * `node dist/impl/bridges/openhands/stub-server.js <conversation>...` prints
 * `stub agent server listening on http://127.0.0.1:<port>`, and on connect sends each
 * conversation one `ConversationStateUpdateEvent` (`execution_status: idle`), until SIGINT/SIGTERM.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { WebSocketServer, type WebSocket } from 'ws';

export interface StubAgentServer {
  url: string;
  /** The REST writes received, as `METHOD path body`. */
  writes: string[];
  /** Append one event to a conversation's log and send it to its open sockets. */
  push(conversation: string, event: Record<string, unknown>): void;
  /** Drop every open socket (the bridge reconnects with `resend_mode=since`). */
  drop(): void;
  close(): Promise<void>;
}

const WRITE = /^\/api\/conversations\/([^/]+)\/(pause|run|interrupt|events\/respond_to_confirmation|events)$/;

export async function startStubAgentServer(conversations: string[], apiKey?: string): Promise<StubAgentServer> {
  const writes: string[] = [];
  const logs = new Map<string, Record<string, unknown>[]>(conversations.map((c) => [c, []]));
  const live = new Map<string, Set<WebSocket>>();
  const http = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const json = (status: number, body: unknown): void => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (apiKey && req.headers['x-session-api-key'] !== apiKey) return json(401, { detail: 'Unauthorized' });
    if (req.method === 'GET' && path === '/api/conversations/search') return json(200, { items: [...logs.keys()].map((id) => ({ id })), next_page_id: null });
    if (req.method === 'POST' && WRITE.test(path)) {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        writes.push(`POST ${path} ${body}`.trimEnd());
        json(200, { success: true });
      });
      return;
    }
    json(404, { detail: `${req.method} ${path}` });
  });
  const wss = new WebSocketServer({ noServer: true });
  http.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const m = /^\/sockets\/events\/([^/]+)$/.exec(url.pathname);
    const id = m ? decodeURIComponent(m[1]!) : undefined;
    if (!id || !logs.has(id)) return socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => {
      const start = (): void => {
        const after = url.searchParams.get('after_timestamp');
        const all = url.searchParams.get('resend_mode') === 'all';
        for (const e of logs.get(id)!) if (all || (after !== null && typeof e.timestamp === 'string' && e.timestamp >= after)) ws.send(JSON.stringify(e));
        const set = live.get(id) ?? new Set<WebSocket>();
        set.add(ws);
        live.set(id, set);
        ws.on('close', () => set.delete(ws));
      };
      if (!apiKey) return start();
      ws.once('message', (d) => {
        let frame: { type?: unknown; session_api_key?: unknown } = {};
        try {
          frame = JSON.parse(d.toString()) as typeof frame;
        } catch {
          // not JSON: unauthorized below
        }
        if (frame.type !== 'auth' || frame.session_api_key !== apiKey) return ws.close(4001, 'unauthorized');
        start();
      });
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    writes,
    push(conversation, event) {
      logs.get(conversation)?.push(event);
      for (const ws of live.get(conversation) ?? []) ws.send(JSON.stringify(event));
    },
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
  const conversations = process.argv.slice(2);
  const stub = await startStubAgentServer(conversations, process.env.AEP_OPENHANDS_API_KEY || undefined);
  for (const c of conversations) stub.push(c, { kind: 'ConversationStateUpdateEvent', id: `${c}-status-0`, timestamp: new Date().toISOString().replace('Z', ''), source: 'environment', key: 'execution_status', value: 'idle' });
  process.stdout.write(`stub agent server listening on ${stub.url}\n`);
  const stop = (): void => void stub.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
