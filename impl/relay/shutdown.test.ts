import { describe, expect, it } from 'vitest';
import { startRelay } from './server.js';

describe('drain', () => {
  it('closes promptly after a client aborted a fetch()-based /stream (keep-alive sockets are closed once the streams end)', async () => {
    const relay = await startRelay({ port: 0, drainMs: 4000 });
    const aborter = new AbortController();
    const res = await fetch(`${relay.url}/stream`, { signal: aborter.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    aborter.abort();
    await reader.read().catch(() => undefined);
    // A second, still-open fetch stream: its socket turns idle only after `: shutting-down` ends it.
    const open = await fetch(`${relay.url}/stream`);
    expect(open.status).toBe(200);
    const started = Date.now();
    const clean = await relay.shutdown();
    const took = Date.now() - started;
    expect(took).toBeLessThan(1000);
    expect(clean).toBe(true);
    expect(await open.text()).toBe(': shutting-down\n\n');
  });
});
