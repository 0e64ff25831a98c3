/**
 * The live stack: a tokened relay on an ephemeral loopback port, the runner's own subscribed
 * socket, and adapter daemons started on demand (ephemeral ports, a temporary AEP home).
 * `withStack` tears everything down when its body settles, failure or not.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRelay } from '../../impl/relay/server.js';
import { startAdapter, type AdapterOptions, type RunningAdapter } from '../../impl/adapter-kit/daemon.js';
import type { AdapterDef } from '../../impl/adapter-kit/types.js';
import { RelayClient } from './relay-client.js';
import { poll } from './live-target.js';
import { configured } from './offline-target.js';

/** Host name stamped into live events' `source`. */
export const LIVE_HOST = 'aep-conformance';

export interface Stack {
  /** The relay's base URL. */
  relayUrl: string;
  /** The relay's bearer token (random per stack). */
  token: string;
  /** The runner's subscribed, tokened socket (sends commands, sees every event). */
  client: RelayClient;
  /**
   * Start one adapter daemon linked to the relay and wait for its hello to complete.
   * It is closed by `withStack`, or earlier by the caller.
   */
  adapter(def: AdapterDef, options?: Partial<AdapterOptions>, env?: Record<string, string>): Promise<RunningAdapter>;
}

export async function withStack<T>(body: (stack: Stack) => Promise<T>, log: (line: string) => void = () => {}): Promise<T> {
  const token = randomBytes(16).toString('hex');
  const home = mkdtempSync(join(tmpdir(), 'aep-live-'));
  const daemons: RunningAdapter[] = [];
  const relay = await startRelay({ host: '127.0.0.1', port: 0, token, drainMs: 200, log });
  let client: RelayClient | undefined;
  try {
    client = await RelayClient.open(relay.url, token);
    const stack: Stack = {
      relayUrl: relay.url,
      token,
      client,
      async adapter(template, options = {}, env = {}) {
        const def = configured(template, env);
        const daemon = await startAdapter(def, { port: 0, relay: relay.url, token, home, hostname: LIVE_HOST, log, ...options });
        daemons.push(daemon);
        await poll(() => daemon.relayReady(), 5000);
        if (!daemon.relayReady()) throw new Error(`the ${def.agent} daemon did not complete its hello with the relay within 5000 ms`);
        return daemon;
      },
    };
    return await body(stack);
  } finally {
    await Promise.allSettled(daemons.map((d) => d.close()));
    await client?.close();
    await relay.close();
    rmSync(home, { recursive: true, force: true });
  }
}
