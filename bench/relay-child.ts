/**
 * A relay in its own process, as `aep relay` runs: for the `memory` benchmark (its resident memory
 * is read by itself, after forced garbage collections: run it with `--expose-gc`, while the bench
 * process fills it) and for `fleet-fanout` (each fleet node, and the single relay it is compared
 * with, in a process of its own).
 *
 *   {kind:'start', buffer?, maxSessions?, fleet?: {url, stream, node}}
 *       starts `startRelay` on an ephemeral loopback port (a fleet node on that NATS server and
 *       stream when `fleet` is given, the other fleet settings at their defaults) -> {kind:'started', url}
 *   {kind:'rss'}  collects garbage, then -> {kind:'rss', rss, heapUsed, external, arrayBuffers}
 */
import { FLEET_DEFAULTS } from '../impl/relay/fleet/config.js';
import { startRelay, type RelayOptions, type RunningRelay } from '../impl/relay/server.js';
import { serveLoad } from './load-process.js';

let relay: RunningRelay | undefined;

serveLoad(
  import.meta.url,
  async (msg) => {
    if (msg.kind === 'start') {
      const fleet = msg.fleet as { url: string; stream: string; node: string } | undefined;
      const options: RelayOptions = {
        port: 0,
        drainMs: 500,
        ...(msg.buffer !== undefined ? { buffer: Number(msg.buffer) } : {}),
        ...(msg.maxSessions !== undefined ? { maxSessions: Number(msg.maxSessions) } : {}),
        ...(fleet !== undefined ? { fleet: { ...FLEET_DEFAULTS, url: fleet.url, stream: fleet.stream, node: fleet.node } } : {}),
      };
      relay = await startRelay(options);
      return { kind: 'started', url: relay.url };
    }
    if (msg.kind !== 'rss') throw new Error(`unknown request ${msg.kind}`);
    const gc = (globalThis as { gc?: () => void }).gc;
    if (!gc) throw new Error('the relay child needs --expose-gc to read a settled resident size');
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((r) => setImmediate(r));
    }
    const m = process.memoryUsage();
    return { kind: 'rss', rss: m.rss, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers };
  },
  async () => {
    await relay?.close();
  },
);
