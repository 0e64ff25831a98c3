/**
 * Test-only: one relay per test, on an ephemeral port, always closed (with every WebSocket
 * client the test opened) after the test, pass or fail.
 *
 * `AEP_TEST_HUB=nats` runs the same cases against the fleet hub: the file's relays are fleet
 * nodes on one real `nats-server -js` started for the file (each relay on its own stream).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, expect } from 'vitest';
import { FLEET_DEFAULTS } from '../fleet/config.js';
import { startRelay, type RelayOptions, type RunningRelay } from '../server.js';
import type { WsClient } from './testing.js';
import { startNats, type NatsServer } from './nats-server.js';

/** Whether this run drives the relay suites against the fleet hub. */
export const FLEET_HUB = process.env.AEP_TEST_HUB === 'nats';

/** What discovery and `/healthz` add on a fleet node (nothing on the in-memory hub), as an `expect` pattern. */
export function fleetMember(): Record<string, unknown> {
  return FLEET_HUB ? { fleet: { node: expect.stringMatching(/^n[0-9a-f]{8}$/), stream: expect.stringMatching(/^T[0-9a-f]{12}$/), nats: 'reachable', failover: { state: 'none', count: 0 } } } : {};
}

let nats: Promise<NatsServer> | undefined;
if (FLEET_HUB) afterAll(async () => (await nats)?.dispose());

/** Fleet options for one more relay on the file's nats-server (started on first use). */
export async function testFleet(overrides: Partial<NonNullable<RelayOptions['fleet']>> = {}): Promise<NonNullable<RelayOptions['fleet']>> {
  const server = await (nats ??= startNats());
  return { ...FLEET_DEFAULTS, url: server.url, stream: `T${randomBytes(6).toString('hex')}`, node: `n${randomBytes(4).toString('hex')}`, ...overrides };
}

export interface RelayHarness {
  /** Starts the test's relay (port 0, the harness defaults, then `opts`) and returns its base URL. */
  start(opts?: RelayOptions): Promise<string>;
  /** The relay the current test started; throws when it started none. */
  relay(): RunningRelay;
  /** WebSocket clients to terminate after the test. */
  readonly clients: WsClient[];
}

/** Call at a test file's top level: registers the `afterEach` that tears everything down. */
export function useRelay(defaults: RelayOptions = {}): RelayHarness {
  let current: RunningRelay | undefined;
  const clients: WsClient[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) c.ws.terminate();
    await current?.close();
    current = undefined;
  });
  return {
    clients,
    async start(opts: RelayOptions = {}) {
      const fleet = FLEET_HUB && !('fleet' in opts) ? { fleet: await testFleet() } : {};
      current = await startRelay({ port: 0, ...fleet, ...defaults, ...opts });
      return current.url;
    },
    relay() {
      if (!current) throw new Error('no relay started in this test');
      return current;
    },
  };
}
