/**
 * One name for the relay URL (issue 21 §6): AEP_RELAY_URL everywhere; the old AEP_RELAY is still
 * read, by every verb, with one deprecation line on stderr, and never wins over AEP_RELAY_URL.
 */
import { describe, expect, it } from 'vitest';
import { deadPort } from '../test-utils/dead-port.js';
import { relayTarget } from '../operator/relay-opts.js';
import { daemonOptions } from '../adapter-kit/config.js';
import { aep } from '../operator/test-utils/stack.js';

describe('the relay URL variable', () => {
  it('an operator verb reads AEP_RELAY_URL, else AEP_RELAY with a deprecation line', async () => {
    const [a, b] = [await deadPort(), await deadPort()];
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
