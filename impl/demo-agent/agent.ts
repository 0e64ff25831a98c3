import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import WebSocket from 'ws';
import { DemoTarget } from './target.js';

/** How `runDemoAgent` is configured; every member's default is the CLI's. */
export interface DemoAgentOptions {
  /** Relay base URL (http/https); the socket is `{relay}/socket`. */
  relay: string;
  /** Bearer token for the socket upgrade; control needs an authenticated binding (AEP-0004 §4.1). */
  token?: string;
  session: string;
  run: string;
  /** Declared ack window. Default 10000. */
  ackWindowMs?: number;
  /** Reconnect backoff bounds in ms. Defaults 250 and 5000. */
  backoffMs?: { min: number; max: number };
}

export interface DemoAgentIo {
  /** Receives the single `demo-agent ready session=S run=R` line. */
  stdout(text: string): void;
  /** Progress and problems. */
  stderr(text: string): void;
}

export function socketUrl(relay: string): string {
  return `${relay.replace(/\/+$/, '').replace(/^http(s?):/i, 'ws$1:')}/socket`;
}

/**
 * Runs the demo target until `stop` resolves (exit code 0) or the relay refuses the
 * credentials (exit code 1). Reconnects with exponential backoff on any other loss,
 * keeping its sequence, dedupe state and recorded acks across connections.
 */
export async function runDemoAgent(opts: DemoAgentOptions, stop: Promise<unknown>, io: DemoAgentIo): Promise<number> {
  const target = new DemoTarget(
    {
      agent: 'aep-demo-agent',
      source: `aep://${hostname()}/agent/aep-demo-agent/session/${encodeURIComponent(opts.session)}`,
      session: opts.session,
      run: opts.run,
      // A fresh process declares a later epoch, so its seq may restart at 0 (AEP-0001 §7.2).
      epoch: Math.floor(Date.now() / 1000),
      ackWindowMs: opts.ackWindowMs ?? 10_000,
      instance: `${hostname()}/${process.pid}`,
    },
    () => new Date(),
    () => randomUUID(),
  );
  const url = socketUrl(opts.relay);
  const { min, max } = opts.backoffMs ?? { min: 250, max: 5000 };
  let stopping = false;
  let current: WebSocket | undefined;
  let announced = false;
  let wake: (() => void) | undefined;
  void stop.then(() => {
    stopping = true;
    if (current?.readyState === WebSocket.OPEN) {
      current.send(JSON.stringify({ type: 'closing', reason: 'shutdown', delivered: [] }));
      const ws = current;
      ws.close(1001);
      setTimeout(() => ws.terminate(), 1000).unref(); // a peer that never answers the close handshake
    } else current?.terminate();
    wake?.();
  });

  let delay = min;
  while (!stopping) {
    const result = await connectOnce(url, opts.token, target, (ws) => (current = ws), () => {
      delay = min;
      if (!announced) {
        announced = true;
        io.stdout(`demo-agent ready session=${opts.session} run=${opts.run}\n`);
      } else io.stderr(`aep demo-agent: reconnected to ${url}\n`);
    });
    if (stopping) break;
    if (result.fatal) {
      io.stderr(`aep demo-agent: ${result.reason}\n`);
      return 1;
    }
    io.stderr(`aep demo-agent: ${result.reason}; retrying in ${delay} ms\n`);
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, delay);
      wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
    delay = Math.min(max, delay * 2);
  }
  return 0;
}

/** One connection's life: hello, opening events, then command handling until it closes. */
function connectOnce(
  url: string,
  token: string | undefined,
  target: DemoTarget,
  track: (ws: WebSocket) => void,
  onReady: () => void,
): Promise<{ fatal: boolean; reason: string }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers: token ? { authorization: `Bearer ${token}` } : {}, handshakeTimeout: 5000 });
    track(ws);
    let greeted = false;
    let settled = false;
    const done = (fatal: boolean, reason: string): void => {
      if (settled) return;
      settled = true;
      resolve({ fatal, reason });
    };
    ws.on('unexpected-response', (_req, res) => {
      const status = res.statusCode ?? 0;
      res.resume();
      ws.terminate();
      const denied = status === 401 || status === 403;
      const hint = token ? ' (the token was refused: check --token or AEP_TOKEN)' : ' (pass --token or set AEP_TOKEN)';
      done(denied, `the relay refused the socket upgrade with HTTP ${status}${denied ? hint : ''}`);
    });
    ws.on('error', (err) => done(false, `cannot reach ${url}: ${err.message}`));
    ws.on('open', () => ws.send(target.hello()));
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const text = data.toString();
      if (!greeted) {
        let first: { type?: unknown; code?: unknown } = {};
        try {
          first = JSON.parse(text) as typeof first;
        } catch {
          // not JSON: treated as a failed hello below
        }
        if (first.type !== 'hello') {
          ws.close();
          done(first.code === 'version-unsupported', `the relay answered hello with ${text.slice(0, 200)}`);
          return;
        }
        greeted = true;
        for (const frame of target.opening()) ws.send(frame);
        onReady();
        return;
      }
      for (const frame of target.onFrame(text)) ws.send(frame);
    });
    ws.on('close', (code) => done(false, `the connection closed (code ${code})`));
  });
}
