/** `aep relay`: run the collector/relay until SIGINT/SIGTERM. */
import { EXIT, UsageError, type CliIo } from './io.js';
import type { Verb } from './verb.js';
import { ConfigError, parseRelayConfig } from '../relay/config.js';
import { startRelay } from '../relay/server.js';
import { parseFleetConfig } from '../relay/fleet/config.js';
import { CONSOLE_PORT, RELAY_PORT, RELAY_PORT_ENV } from '../integrations/registry.js';

const HELP = `usage: aep relay [--host HOST] [--port PORT] [--nats URL]

Run the AEP collector/relay: HTTP ingest (POST /events), discovery (GET /events,
GET /.well-known/aep), SSE (GET /stream), WebSocket (/socket), health (GET /healthz).
The first stdout line is 'aep relay listening on http://HOST:PORT'. SIGINT/SIGTERM
drain every client and exit 0 (1 when the drain takes longer than 5 s).

flags:
  --host HOST   interface to bind (env AEP_HOST, default 127.0.0.1)
  --port PORT   TCP port, 0 = ephemeral (env ${RELAY_PORT_ENV}, default ${RELAY_PORT})
  --nats URL    run as a node of a fleet on NATS JetStream (env AEP_NATS_URL,
                default unset = one in-memory relay); see docs/fleet.md

environment:
  AEP_TOKEN         bearer token; unset = open observation, watch-only control
                    (every command refused 'unauthorized'); set = token required on
                    /events POST, /stream and /socket, and commands are routed
  AEP_BUFFER        replay buffer, events per session (default 10000)
  AEP_MAX_SESSIONS  sessions held; the least recently written is evicted (default 500)
  AEP_MAX_BODY      largest POST body and WebSocket frame, bytes (default 16777216)
  AEP_MAX_BATCH     most events per NDJSON POST (default 10000)
  AEP_MAX_FROM      most resume positions per 'from' (default = AEP_MAX_SESSIONS)
  AEP_MAX_SUBS      most subscriptions per WebSocket (default 64)
  AEP_HEARTBEAT_MS  SSE ': ping' interval, 10..30000 ms (default 15000)
  AEP_CORS_ORIGINS  origins whose pages may read the relay, comma-separated (default *); e.g.
                    http://127.0.0.1:${CONSOLE_PORT} for 'aep console'. Other pages' socket upgrades get 403

fleet (with --nats / AEP_NATS_URL):
  AEP_NATS_STREAM   JetStream stream shared by the fleet (default AEP)
  AEP_NATS_REPLICAS stream and ownership-bucket replicas (default 1)
  AEP_NATS_DUPLICATE_WINDOW_MS  JetStream duplicate window, ms (default 120000)
  AEP_NATS_LEASE_MS session ownership lease, ms, renewed every third (default 15000)
  AEP_NATS_NODE     this node's id in the fleet (default {hostname}-{pid})
  AEP_NATS_FAILOVER_MS  how long a publish the stream does not acknowledge (a server died, no
                    leader yet) is held and retried before 503 + Retry-After, ms (default 8000)

exit codes: 0 stopped cleanly · 1 failed to start, or drain cut off · 2 usage error
`;

export const verb: Verb = {
  name: 'relay',
  summary: 'run the collector/relay (HTTP ingest, SSE, WebSocket, control routing)',
  help: HELP,
  options: {
    host: { type: 'string' },
    port: { type: 'string' },
    nats: { type: 'string' },
  },
  allowPositionals: false,
  async run({ values }, io: CliIo): Promise<number> {
    let config;
    let fleet;
    try {
      config = parseRelayConfig(io.env, { host: values.host as string | undefined, port: values.port as string | undefined });
      fleet = parseFleetConfig(io.env, values.nats as string | undefined);
    } catch (err) {
      if (err instanceof ConfigError) throw new UsageError(err.message);
      throw err;
    }
    const log = (line: string): void => io.stderr(`aep relay: ${line}\n`);
    let relay;
    try {
      relay = await startRelay({ ...config, log, fleet });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const why =
        code === 'EADDRINUSE'
          ? `port ${config.port} on ${config.host} is already in use (another relay?); pick another with --port N (or AEP_PORT), 0 for a free one`
          : code === 'EADDRNOTAVAIL'
            ? `${config.host} is not an address of this machine; pick another with --host (or AEP_HOST)`
            : code === 'EACCES'
              ? `port ${config.port} needs privileges; pick one above 1023 with --port N (or AEP_PORT)`
              : (err as Error).message;
      if (fleet && code === undefined) io.stderr(`aep relay: ${why}\n`);
      else io.stderr(`aep relay: cannot listen on ${config.host}:${config.port}: ${why}\n`);
      return EXIT.failed;
    }
    io.stdout(`aep relay listening on ${relay.url}\n`);
    if (fleet) log(`fleet node ${fleet.node} on stream ${fleet.stream} at ${fleet.url}`);
    log(
      config.token === undefined
        ? `listening on ${relay.url}; no AEP_TOKEN: observation is open and control is watch-only (every command is refused 'unauthorized')`
        : `listening on ${relay.url}; AEP_TOKEN set: a bearer token is required, commands are routed`,
    );
    const signal = await io.stopSignal;
    log(`${signal}: draining clients`);
    const drained = await relay.shutdown();
    log(drained ? 'stopped' : 'drain took longer than 5 s; clients were cut off');
    return drained ? EXIT.ok : EXIT.failed;
  },
};
