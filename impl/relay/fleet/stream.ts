/**
 * The fleet's JetStream resources: the event stream and the ownership bucket, created when
 * absent and used as found otherwise (every node of a fleet must be started with the same
 * limits; a node whose limits differ from the stream's logs the difference and keeps the stream's).
 *
 * Limits map the relay's, with headroom: the stream keeps `2 x AEP_BUFFER` events per session
 * (`max_msgs_per_subject`, one subject per session) and `2 x AEP_BUFFER x AEP_MAX_SESSIONS` in
 * all (`max_msgs`), dropping the earliest. Each node's own buffer holds `AEP_BUFFER` per session
 * and evicts the rest itself, so every node, also one started later or one whose consumer lagged,
 * has seen the event right before its window and answers `replay-exhausted` exactly as the others.
 */
import { DiscardPolicy, RetentionPolicy, StorageType, type JetStreamManager, type StreamConfig } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { FleetConfig } from './config.js';
import type { FleetNames } from './names.js';

const NS_PER_MS = 1_000_000;
/** The stream keeps this many times AEP_BUFFER (see above). */
export const HEADROOM = 2;

/** The stream configuration a node asks for. Pure. */
export function streamConfig(fleet: FleetConfig, names: FleetNames, buffer: number, maxSessions: number): Partial<StreamConfig> & { name: string } {
  return {
    name: fleet.stream,
    subjects: [names.events],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    discard: DiscardPolicy.Old,
    max_msgs_per_subject: HEADROOM * buffer,
    max_msgs: Math.min(HEADROOM * buffer * maxSessions, Number.MAX_SAFE_INTEGER),
    duplicate_window: fleet.duplicateWindowMs * NS_PER_MS,
    num_replicas: fleet.replicas,
  };
}

/** Create the stream when absent; returns its last sequence number (what a new node reads up to before it serves). */
export async function ensureStream(jsm: JetStreamManager, wanted: Partial<StreamConfig> & { name: string }, log: (line: string) => void): Promise<number> {
  try {
    const info = await jsm.streams.info(wanted.name);
    const c = info.config;
    const differs = (['max_msgs_per_subject', 'max_msgs', 'duplicate_window', 'num_replicas'] as const).filter((k) => wanted[k] !== undefined && c[k] !== wanted[k]);
    if (differs.length > 0) log(`stream ${wanted.name} exists with other limits (${differs.map((k) => `${k}=${c[k]}, asked ${wanted[k]}`).join('; ')}); this node uses the stream's`);
    return info.state.last_seq;
  } catch (err) {
    if (!isNotFound(err)) throw err;
    const info = await jsm.streams.add(wanted);
    log(`created stream ${wanted.name} on ${wanted.subjects?.join(', ')}`);
    return info.state.last_seq;
  }
}

function isNotFound(err: unknown): boolean {
  return err instanceof Error && (err.name === 'StreamNotFoundError' || /stream not found/i.test(err.message));
}

/** The ownership bucket: entries live `leaseMs` unless renewed. */
export function ownershipBucket(nc: NatsConnection, fleet: FleetConfig, names: FleetNames): Promise<KV> {
  return new Kvm(nc).create(names.bucket, { ttl: fleet.leaseMs, history: 1, replicas: fleet.replicas });
}

/**
 * Errors of a JetStream cluster that is not ready yet (no meta leader elected, fewer peers up
 * than the replicas asked, a leader election under way): the request times out, finds no
 * responder, or is refused as temporarily unavailable. Anything else is a real setup error.
 */
export function isNotReady(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (/timeout/i.test(err.name)) return true;
  return /timeout|timed out|no responders|temporarily unavailable|insufficient resources|no suitable peers|leader|not current|jetstream not (enabled|ready)|503/i.test(err.message);
}

/**
 * Run `attempt` until it succeeds, retrying while the cluster is not ready (`isNotReady`), until
 * `deadline` (then the last error is thrown). Logs the first wait and then one line every 5 s.
 */
export async function untilReady<T>(what: string, deadline: number, log: (line: string) => void, attempt: () => Promise<T>): Promise<T> {
  let logged = 0;
  for (let n = 0; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (!isNotReady(err) || Date.now() >= deadline) throw err;
      if (Date.now() - logged >= 5_000) {
        log(`the NATS cluster is not ready for the ${what} yet (${err instanceof Error ? err.message : String(err)}); retrying until it is`);
        logged = Date.now();
      }
      await new Promise((r) => setTimeout(r, Math.min(1_000, 100 * 2 ** Math.min(n, 4))));
    }
  }
}
