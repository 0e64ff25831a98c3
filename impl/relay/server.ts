/**
 * `startRelay`: assembles the relay on one `node:http` server: configuration, the hub,
 * the HTTP routes (routes.ts), the `/socket` upgrade (upgrade.ts) and shutdown (shutdown.ts).
 *
 * Endpoints: `POST /events` (ingest), `GET /events` and `GET /.well-known/aep` (discovery),
 * `GET /stream` (SSE), `/socket` (WebSocket), `GET /healthz`, `OPTIONS *` (CORS preflight).
 */
import { createServer } from 'node:http';
import { hostname } from 'node:os';
import { DEFAULTS, type RelayConfig } from './config.js';
import { sendJson } from './http-util.js';
import { Hub, type HubLike } from './hub.js';
import type { FleetConfig } from './fleet/config.js';
import { route } from './routes.js';
import { Connections, drain } from './shutdown.js';
import { SLOW_BYTES, SseStreams } from './sse.js';
import { attachSockets } from './upgrade.js';

/** `startRelay` options: any RelayConfig member (defaults as in config.ts) plus these. */
export interface RelayOptions extends Partial<RelayConfig> {
  /** Operational log sink, one line per call, never given the token. Default: discard. */
  readonly log?: (line: string) => void;
  /** `identity.instance` in the relay's hello. Default `{hostname}/{pid}`. */
  readonly instance?: string;
  /** How long shutdown waits for clients before cutting them off, in ms. Default 5000. */
  readonly drainMs?: number;
  /** WebSocket liveness: a protocol ping this often; a peer silent for a whole round is dropped. Default 30000. */
  readonly livenessMs?: number;
  /** Unsent bytes above which an SSE or WS consumer counts as slow (AEP-0003 §8.4). Default 8 MiB. */
  readonly slowBytes?: number;
  /**
   * Run as a node of a fleet on NATS JetStream (`AEP_NATS_URL`, fleet/config.ts). Unset: the
   * in-memory hub, one process. Set: start rejects when NATS cannot be reached.
   */
  readonly fleet?: FleetConfig | undefined;
}

/** A running relay. Valid until `close()`/`shutdown()` resolves. */
export interface RunningRelay {
  /** Base URL, e.g. `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The bound port (the real one when started with port 0). */
  readonly port: number;
  readonly config: RelayConfig;
  /** Stop accepting, say goodbye to every client (`: shutting-down`, WS close 1001), wait for them. Idempotent. */
  close(): Promise<void>;
  /** Same as close; resolves true when every client drained within `drainMs`, false when cut off. */
  shutdown(): Promise<boolean>;
}

function baseUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Start a relay and resolve once it listens. Rejects when the address cannot be bound. */
export async function startRelay(options: RelayOptions = {}): Promise<RunningRelay> {
  const { log = () => {}, instance = `${hostname()}/${process.pid}`, drainMs = 5_000, livenessMs = 30_000, slowBytes = SLOW_BYTES, fleet, ...rest } = options;
  const overrides = Object.fromEntries(Object.entries(rest).filter(([k, v]) => v !== undefined || k === 'token')) as Partial<RelayConfig>;
  const config: RelayConfig = Object.freeze({ ...DEFAULTS, maxFrom: overrides.maxSessions ?? DEFAULTS.maxSessions, ...overrides });
  // The fleet code (and the NATS client) loads only when a fleet is asked for.
  const hub: HubLike = fleet
    ? await (await import('./fleet/fleet-hub.js')).startFleetHub({ fleet, buffer: config.buffer, maxSessions: config.maxSessions, log })
    : new Hub(config.buffer, config.maxSessions, log);
  const streams = new SseStreams();
  let stopping: Promise<boolean> | undefined;

  const server = createServer();
  const connections = new Connections(server);
  const sockets = attachSockets(server, { config, hub, instance, log, slowBytes, livenessMs, stopping: () => stopping !== undefined });
  const ctx = { config, hub, streams, slowBytes, started: Date.now(), connections: () => sockets.sessions.size };
  server.on('request', (req, res) => {
    route(req, res, ctx).catch((err: unknown) => {
      log(`internal error on ${req.method} ${req.url?.split('?')[0]}: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) sendJson(res, 500, { error: 'internal', detail: 'the relay failed on this request; it keeps serving others' });
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    const failed = (err: Error): void => void hub.close().finally(() => reject(err));
    server.once('error', failed);
    server.listen(config.port, config.host, () => {
      server.removeListener('error', failed);
      resolve();
    });
  });
  server.on('error', (err) => log(`server error: ${err.message}`));
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;

  const shutdown = (): Promise<boolean> => (stopping ??= drain(server, streams, sockets, drainMs, connections).then(async (drained) => (await hub.close(), drained)));
  return { url: baseUrl(config.host, port), port, config, close: () => shutdown().then(() => undefined), shutdown };
}
