/**
 * One name for the relay URL (issue 21 §6): AEP_RELAY_URL everywhere; the old AEP_RELAY is still
 * read, by every verb, with one deprecation line on stderr, and never wins over AEP_RELAY_URL.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseConsoleConfig } from '../console/config.js';
import { deadPort, deadPorts } from '../test-utils/dead-port.js';
import { relayTarget } from '../operator/relay-opts.js';
import { daemonOptions } from '../adapter-kit/config.js';
import { aep } from '../operator/test-utils/stack.js';

describe('the relay URL variable', () => {
  it('an operator verb reads AEP_RELAY_URL, else AEP_RELAY with a deprecation line', async () => {
    const [a, b] = await deadPorts(2);
    const canonical = await aep(['doctor', '--json'], { AEP_RELAY_URL: `http://127.0.0.1:${a}`, AEP_RELAY: `http://127.0.0.1:${b}`, AEP_HOME: '/nonexistent-aep-home' });
    expect(canonical.out).toContain(`http://127.0.0.1:${a}`);
    expect(canonical.err).not.toContain('deprecated');
    const old = await aep(['doctor', '--json'], { AEP_RELAY: `http://127.0.0.1:${b}`, AEP_HOME: '/nonexistent-aep-home' });
    expect(old.out).toContain(`http://127.0.0.1:${b}`);
    expect(old.err.split('\n')[0]).toBe(`aep doctor: AEP_RELAY is deprecated: set AEP_RELAY_URL instead (read AEP_RELAY=http://127.0.0.1:${b} this time)`);
  });

  it('operator verbs, adapters (and so bridges and aep mcp, which share the reader) agree', () => {
    for (const env of [{ AEP_RELAY_URL: 'http://h:1' }, { AEP_RELAY: 'http://h:1' }, { AEP_RELAY_URL: 'http://h:1', AEP_RELAY: 'http://x:2' }]) {
      expect(relayTarget({}, env).relay).toBe('http://h:1');
      expect(daemonOptions('codex', 0, {}, env)).toMatchObject({ relay: 'http://h:1' });
    }
  });
});

describe('every verb that takes --relay reads AEP_RELAY_URL, and AEP_RELAY with a notice', () => {
  it('setup up: the daemons are pointed at it', async () => {
    const env = { AEP_HOME: '/nonexistent-aep-home', AEP_CODEX_PORT: String(await deadPort()) };
    const canonical = await aep(['setup', 'up', 'codex', '--dry-run'], { ...env, AEP_RELAY_URL: 'http://127.0.0.1:4444' });
    expect(canonical.out).toContain('--relay http://127.0.0.1:4444');
    expect(canonical.err).not.toContain('deprecated');
    const old = await aep(['setup', 'up', 'codex', '--dry-run'], { ...env, AEP_RELAY: 'http://127.0.0.1:5555' });
    expect(old.out).toContain('--relay http://127.0.0.1:5555');
    expect(old.err).toContain('aep setup: AEP_RELAY is deprecated: set AEP_RELAY_URL instead');
  });
  it('console: the relay it watches', () => {
    expect(parseConsoleConfig({}, { AEP_RELAY_URL: 'http://10.0.0.3:8787' }).relays[0]!.url).toBe('http://10.0.0.3:8787');
    expect(parseConsoleConfig({}, { AEP_RELAY: 'http://10.0.0.4:8787' }).relays[0]!.url).toBe('http://10.0.0.4:8787');
    expect(parseConsoleConfig({}, { AEP_RELAY_URL: 'http://10.0.0.3:8787', AEP_RELAY: 'http://10.0.0.4:8787' }).relays[0]!.url).toBe('http://10.0.0.3:8787');
  });
  it('demo-agent: it connects to it (a relay that refuses the credentials there: exit 1)', async () => {
    const refusing = createServer((_req, res) => res.writeHead(401).end());
    let hits = 0;
    refusing.on('upgrade', (_req, socket) => {
      hits++;
      socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\n\r\n');
    });
    await new Promise<void>((r) => refusing.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
      for (const env of [{ AEP_RELAY_URL: url }, { AEP_RELAY: url }] as Array<Record<string, string>>) {
        const before = hits;
        const r = await aep(['demo-agent'], { ...env, AEP_TOKEN: 't' });
        expect(r.code, r.err).toBe(1);
        expect(hits).toBeGreaterThan(before); // it came here, not to the default relay URL
      }
    } finally {
      refusing.close();
    }
  }, 20_000);
});
