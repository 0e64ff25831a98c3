/**
 * A fleet node's NATS connection: every configured server stays a server the node can reconnect to.
 *
 * By default the NATS client drops from its pool each server that refuses the FIRST connection.
 * A node started while some servers of its cluster were still down (a compose file or an
 * orchestrator starts them all at once) then knows only the servers that were up, and when those
 * die it redials them forever while the rest of the cluster serves: its stream reader stops, its
 * subscribers miss every later event, and its ingest answers 503 until restarted. So the first
 * connection waits for a server (`waitOnFirstConnect`, which keeps the pool whole), and this
 * module bounds that wait, which the client alone would not.
 */
import { connect, type NatsConnection, type NodeConnectionOptions } from '@nats-io/transport-node';

/** How often the client pings its server; two unanswered pings and it counts the server lost (a partition, not only a closed socket). */
export const PING_INTERVAL_MS = 2_000;

export interface FleetConnectOptions {
  /** The servers, comma-separated (`AEP_NATS_URL` / `--nats`). */
  readonly url: string;
  /** The connection's name, as the servers show it. */
  readonly name: string;
  /** Give up on the first connection when no server answered by then (epoch ms). */
  readonly deadline: number;
  readonly log: (line: string) => void;
  /** Dial the servers in the given order instead of a random one. Default false (nodes spread over the servers); tests pin it. */
  readonly inOrder?: boolean;
}

/** The servers of a comma-separated URL list, trimmed, empty entries dropped. Pure. */
export function serverList(url: string): string[] {
  return url
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** The client options of a fleet node. Pure; `expired` is asked before each dial of the first connection. */
export function clientOptions(url: string, name: string, expired: () => boolean, inOrder = false): NodeConnectionOptions {
  return {
    servers: serverList(url),
    name,
    // Keep every configured server in the pool, also one that refused the first connection.
    waitOnFirstConnect: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    pingInterval: PING_INTERVAL_MS,
    maxPingOut: 2,
    timeout: 5_000,
    noRandomize: inOrder,
    // The client builds an Error (a stack capture) for every request and publish before it is
    // sent, only to enrich a later timeout's trace; ingest publishes one per event, and those
    // captures were about a tenth of a fleet node's CPU time. Failures keep their messages.
    noAsyncTraces: true,
    // Documented: a throw here rejects the first connection (and closes a later one), so only
    // the first connection's deadline throws.
    reconnectToServer: () => {
      if (expired()) throw new Error('deadline');
      return null;
    },
  };
}

/**
 * Connect to the first configured server that answers, waiting for one until `deadline` (one
 * log line when the wait begins). Rejects with a message naming the servers and the wait.
 */
export async function connectFleet(opts: FleetConnectOptions): Promise<NatsConnection> {
  const started = Date.now();
  let connected = false;
  const expired = (): boolean => !connected && Date.now() >= opts.deadline;
  const waiting = setTimeout(() => opts.log(`no NATS server at ${opts.url} answers yet; waiting for one (up to ${seconds(opts.deadline - started)})`), 1_000);
  waiting.unref();
  try {
    const nc = await connect(clientOptions(opts.url, opts.name, expired, opts.inOrder));
    connected = true;
    return nc;
  } catch (err) {
    const why = Date.now() >= opts.deadline ? `no server answered within ${seconds(opts.deadline - started)}` : describe(err);
    throw new Error(`cannot reach NATS at ${opts.url} (AEP_NATS_URL / --nats): ${why}; start nats-server -js, or unset AEP_NATS_URL for a single relay`);
  } finally {
    clearTimeout(waiting);
  }
}

const seconds = (ms: number): string => `${Math.max(0, Math.round(ms / 1000))} s`;
const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));
