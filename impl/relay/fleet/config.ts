/**
 * Fleet settings (`AEP_NATS_URL` and friends): names, defaults, and parsing with clear errors.
 * Pure: reads only the env object and flag value it is given. Unset `AEP_NATS_URL` (and no
 * `--nats`): no fleet, the relay runs in memory exactly as a single process.
 */
import { hostname } from 'node:os';
import { ConfigError } from '../config.js';

export interface FleetConfig {
  /** NATS server URL(s), comma-separated. `--nats` / `AEP_NATS_URL`. */
  readonly url: string;
  /** JetStream stream shared by the fleet. `AEP_NATS_STREAM`, default `AEP`. Also names the subjects and the ownership bucket. */
  readonly stream: string;
  /** Stream (and bucket) replicas. `AEP_NATS_REPLICAS`, default `1` (a NATS cluster of 3 takes `3`). */
  readonly replicas: number;
  /** JetStream duplicate window in ms: a `(source, id)` republished within it is dropped by the stream. `AEP_NATS_DUPLICATE_WINDOW_MS`, default 120000. */
  readonly duplicateWindowMs: number;
  /** Session ownership lease in ms, renewed every third of it. `AEP_NATS_LEASE_MS`, default 15000. */
  readonly leaseMs: number;
  /** This node's id, unique in the fleet. `AEP_NATS_NODE`, default `{hostname}-{pid}`. */
  readonly node: string;
  /**
   * How long ingest holds a publish the stream does not acknowledge (no leader after a server
   * died, the connection between servers) and retries it, in ms: the bound of a POST's answer.
   * `AEP_NATS_FAILOVER_MS`, default 8000 (see failover.ts).
   */
  readonly failoverMs: number;
}

export const FLEET_DEFAULTS = Object.freeze({ stream: 'AEP', replicas: 1, duplicateWindowMs: 120_000, leaseMs: 15_000, failoverMs: 8_000 });

/** Stream, bucket and node names: letters, digits, `-` and `_` (they become NATS subject tokens). */
const NAME = /^[A-Za-z0-9_-]{1,64}$/;

function integer(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const text = raw.trim();
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) throw new ConfigError(`${name}=${JSON.stringify(raw)} is not valid: expected an integer from ${min} to ${max}`);
  return value;
}

function name(variable: string, raw: string | undefined, fallback: string): string {
  const value = raw === undefined || raw === '' ? fallback : raw.trim();
  if (!NAME.test(value)) throw new ConfigError(`${variable}=${JSON.stringify(raw)} is not valid: use 1 to 64 letters, digits, '-' or '_'`);
  return value;
}

/** The default node id: the host name and pid, reduced to subject-safe characters. */
export function defaultNode(host = hostname(), pid = process.pid): string {
  return `${host.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 48)}-${pid}`;
}

/** The fleet configuration, or undefined when neither `--nats` nor `AEP_NATS_URL` is set. */
export function parseFleetConfig(env: Readonly<Record<string, string | undefined>>, natsFlag?: string): FleetConfig | undefined {
  const url = (natsFlag ?? env.AEP_NATS_URL ?? '').trim();
  if (url === '') {
    if (natsFlag !== undefined) throw new ConfigError('--nats is empty: give a NATS server URL such as nats://127.0.0.1:4222');
    return undefined;
  }
  for (const one of url.split(',')) {
    if (!/^(nats|tls|ws|wss):\/\/[^\s/]+/.test(one.trim()) && !/^[^\s/:]+:\d+$/.test(one.trim())) {
      throw new ConfigError(`${natsFlag !== undefined ? '--nats' : 'AEP_NATS_URL'}=${JSON.stringify(url)} is not valid: expected nats://HOST:PORT (several comma-separated)`);
    }
  }
  return Object.freeze({
    url,
    stream: name('AEP_NATS_STREAM', env.AEP_NATS_STREAM, FLEET_DEFAULTS.stream),
    replicas: integer('AEP_NATS_REPLICAS', env.AEP_NATS_REPLICAS, FLEET_DEFAULTS.replicas, 1, 5),
    duplicateWindowMs: integer('AEP_NATS_DUPLICATE_WINDOW_MS', env.AEP_NATS_DUPLICATE_WINDOW_MS, FLEET_DEFAULTS.duplicateWindowMs, 100, 7 * 24 * 3_600_000),
    leaseMs: integer('AEP_NATS_LEASE_MS', env.AEP_NATS_LEASE_MS, FLEET_DEFAULTS.leaseMs, 300, 3_600_000),
    node: name('AEP_NATS_NODE', env.AEP_NATS_NODE, defaultNode()),
    failoverMs: integer('AEP_NATS_FAILOVER_MS', env.AEP_NATS_FAILOVER_MS, FLEET_DEFAULTS.failoverMs, 500, 60_000),
  });
}
