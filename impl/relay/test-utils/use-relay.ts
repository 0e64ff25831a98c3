/**
 * Test-only: one relay per test, on an ephemeral port, always closed (with every WebSocket
 * client the test opened) after the test, pass or fail.
 */
import { afterEach } from 'vitest';
import { startRelay, type RelayOptions, type RunningRelay } from '../server.js';
import type { WsClient } from '../testing.js';

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
      current = await startRelay({ port: 0, ...defaults, ...opts });
      return current.url;
    },
    relay() {
      if (!current) throw new Error('no relay started in this test');
      return current;
    },
  };
}
