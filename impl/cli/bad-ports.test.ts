import { describe, expect, it } from 'vitest';
import { aep } from '../operator/test-utils/stack.js';
import { describeNetError } from '../operator/relay-opts.js';
import { FETCH_BAD_PORTS, blockedPort } from './bad-ports.js';

/** What this Node's fetch says for a loopback port: 'bad port' before any connection, or something else. */
async function fetchVerdict(port: number): Promise<string> {
  try {
    await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000) });
    return 'answered';
  } catch (err) {
    return ((err as Error & { cause?: Error }).cause?.message ?? (err as Error).message) === 'bad port' ? 'bad port' : 'other';
  }
}

describe("fetch's blocked ports", () => {
  it('the list is the one this Node refuses: every listed port, and none of their neighbours', async () => {
    for (const port of FETCH_BAD_PORTS) expect(await fetchVerdict(port), String(port)).toBe('bad port');
    for (const port of [2, 8, 10, 24, 80, 443, 8787, 6001, 10081]) expect(await fetchVerdict(port), String(port)).not.toBe('bad port');
  });
  it('blockedPort names the port and what to do; fine ports and non-URLs are undefined', () => {
    expect(blockedPort('http://127.0.0.1:1')).toContain('port 1, which fetch refuses to connect to');
    expect(blockedPort('http://127.0.0.1:9/x')).toContain('on another port');
    expect(blockedPort('http://127.0.0.1:8787')).toBeUndefined();
    expect(blockedPort('http://example.test')).toBeUndefined();
    expect(blockedPort('not a url')).toBeUndefined();
  });
  it('aep check-live on a blocked port: exit 2 at once, in words, not "fetch failed: bad port"', async () => {
    for (const url of ['http://127.0.0.1:1', 'http://127.0.0.1:9']) {
      const r = await aep(['check-live', url]);
      expect(r.code).toBe(2);
      expect(r.err).toContain('which fetch refuses to connect to (a blocked "bad port"');
      expect(r.out + r.err).not.toContain('fetch failed: bad port');
    }
  });
  it("the operator verbs' network errors say what a bad port is", async () => {
    const err = await fetch('http://127.0.0.1:9/').catch((e: unknown) => e);
    expect(describeNetError(err)).toContain('blocked "bad port"');
  });
});
