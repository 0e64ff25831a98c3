/**
 * A relay in its own process, for the `memory` benchmark: its resident memory is read by itself
 * (after forced garbage collections: run it with `--expose-gc`) while the bench process fills it.
 *
 *   {kind:'start', buffer, maxSessions}  starts `startRelay` on an ephemeral loopback port -> {kind:'started', url}
 *   {kind:'rss'}  collects garbage, then -> {kind:'rss', rss, heapUsed, external, arrayBuffers}
 */
import { startRelay, type RunningRelay } from '../impl/relay/server.js';
import { serveLoad } from './load-process.js';

let relay: RunningRelay | undefined;

serveLoad(
  import.meta.url,
  async (msg) => {
    if (msg.kind === 'start') {
      relay = await startRelay({ port: 0, drainMs: 500, buffer: Number(msg.buffer), maxSessions: Number(msg.maxSessions) });
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
