import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { RelayTransport, TransportError, socketUrl } from '../relay-client/transport.js';
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

/** The relay's socket URL (impl/relay-client's one mapping). */
export { socketUrl };

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
  let current: RelayTransport | undefined;
  let announced = false;
  let wake: (() => void) | undefined;
  void stop.then(() => {
    stopping = true;
    if (current?.isOpen) {
      current.send(JSON.stringify({ type: 'closing', reason: 'shutdown', delivered: [] }));
      void current.close({ code: 1001, graceMs: 1000 }); // dropped if the peer never answers the close handshake
    } else void current?.close();
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
  track: (transport: RelayTransport) => void,
  onReady: () => void,
): Promise<{ fatal: boolean; reason: string }> {
  return new Promise((resolve) => {
    const transport = new RelayTransport({ url, ...(token ? { token } : {}), handshakeTimeout: 5000 });
    track(transport);
    let greeted = false;
    let settled = false;
    const done = (fatal: boolean, reason: string): void => {
      if (settled) return;
      settled = true;
      resolve({ fatal, reason });
    };
    transport.onmessage = ({ raw: text, binary }) => {
      if (binary) return;
      if (!greeted) {
        let first: { type?: unknown; code?: unknown } = {};
        try {
          first = JSON.parse(text) as typeof first;
        } catch {
          // not JSON: treated as a failed hello below
        }
        if (first.type !== 'hello') {
          void transport.close({ graceMs: 1000 });
          done(first.code === 'version-unsupported', `the relay answered hello with ${text.slice(0, 200)}`);
          return;
        }
        greeted = true;
        for (const frame of target.opening()) transport.send(frame);
        onReady();
        return;
      }
      for (const frame of target.onFrame(text)) transport.send(frame);
    };
    transport.onerror = (err) => done(false, `cannot reach ${url}: ${err.message}`);
    transport.onclose = ({ code }) => done(false, `the connection closed (code ${code})`);
    transport.start().then(
      () => void transport.send(target.hello()),
      (err: unknown) => done(...openFailure(url, token, err)),
    );
  });
}

/** Why the socket did not open: `[fatal, reason]` (a refused token is fatal). */
function openFailure(url: string, token: string | undefined, err: unknown): [boolean, string] {
  const f = err instanceof TransportError ? err.failure : { kind: 'unreachable' as const, message: String(err) };
  if (f.kind === 'refused') {
    const denied = f.status === 401 || f.status === 403;
    const hint = token ? ' (the token was refused: check --token or AEP_TOKEN)' : ' (pass --token or set AEP_TOKEN)';
    return [denied, `the relay refused the socket upgrade with HTTP ${f.status}${denied ? hint : ''}`];
  }
  if (f.kind === 'closed') return [false, `the connection closed (code ${f.code})`];
  return [false, `cannot reach ${url}: ${f.message}`];
}
