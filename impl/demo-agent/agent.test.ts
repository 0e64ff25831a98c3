import { afterEach, describe, expect, it } from 'vitest';
import { startStubRelay } from '../check-live/test-utils/stub-relay.js';
import { runDemoAgent, socketUrl } from './agent.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function start(relay: string, token: string | undefined) {
  const out: string[] = [];
  const err: string[] = [];
  let stop!: () => void;
  const stopped = new Promise<void>((r) => (stop = r));
  const exit = runDemoAgent({ relay, ...(token ? { token } : {}), session: 'ds', run: 'dr', backoffMs: { min: 20, max: 80 } }, stopped, {
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
  });
  return { out, err, stop, exit };
}

const until = async (cond: () => boolean, ms = 5000): Promise<void> => {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('runDemoAgent', () => {
  it('derives the socket URL from the relay base URL', () => {
    expect(socketUrl('http://127.0.0.1:8787/')).toBe('ws://127.0.0.1:8787/socket');
    expect(socketUrl('https://relay.example')).toBe('wss://relay.example/socket');
  });

  it('prints its ready line once, reconnects after the relay restarts, and exits 0 when stopped', async () => {
    const first = await startStubRelay({ token: 'k' });
    const port = Number(new URL(first.url).port);
    const agent = start(first.url, 'k');
    await until(() => agent.out.length === 1);
    expect(agent.out).toEqual(['demo-agent ready session=ds run=dr\n']);
    await first.close();
    const second = await startStubRelay({ token: 'k', port });
    cleanups.push(() => second.close());
    await until(() => agent.err.some((l) => l.includes('reconnected')));
    expect(agent.out).toHaveLength(1);
    agent.stop();
    expect(await agent.exit).toBe(0);
  });

  it('exits 1 with a clear line when the relay refuses the token', async () => {
    const relay = await startStubRelay({ token: 'right' });
    cleanups.push(() => relay.close());
    const agent = start(relay.url, 'wrong');
    expect(await agent.exit).toBe(1);
    expect(agent.err.join('')).toMatch(/refused the socket upgrade with HTTP 401 \(the token was refused: check --token or AEP_TOKEN\)/);
    expect(agent.out).toEqual([]);
  });

  it('keeps retrying with backoff while nothing listens, and stops cleanly', async () => {
    const gone = await startStubRelay();
    await gone.close();
    const agent = start(gone.url, undefined);
    await until(() => agent.err.length >= 2);
    expect(agent.err[0]).toMatch(/cannot reach ws:\/\/127\.0\.0\.1:\d+\/socket: .*; retrying in 20 ms/);
    expect(agent.err[1]).toMatch(/retrying in 40 ms/);
    agent.stop();
    expect(await agent.exit).toBe(0);
  });
});
