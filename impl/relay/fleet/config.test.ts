import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config.js';
import { defaultNode, FLEET_DEFAULTS, parseFleetConfig } from './config.js';
import { fleetNames, messageId, sessionToken } from './names.js';
import { streamConfig } from './stream.js';

describe('parseFleetConfig', () => {
  it('is undefined without AEP_NATS_URL or --nats: the relay stays in memory', () => {
    expect(parseFleetConfig({})).toBeUndefined();
    expect(parseFleetConfig({ AEP_NATS_URL: '' })).toBeUndefined();
  });

  it('takes the URL from --nats over AEP_NATS_URL, with every default', () => {
    const c = parseFleetConfig({ AEP_NATS_URL: 'nats://10.0.0.1:4222' }, 'nats://127.0.0.1:4333');
    expect(c).toEqual({ url: 'nats://127.0.0.1:4333', stream: 'AEP', replicas: 1, duplicateWindowMs: 120_000, leaseMs: 15_000, node: defaultNode(), failoverMs: 8_000 });
    expect(FLEET_DEFAULTS).toEqual({ stream: 'AEP', replicas: 1, duplicateWindowMs: 120_000, leaseMs: 15_000, failoverMs: 8_000 });
  });

  it('reads every AEP_NATS_* variable', () => {
    const c = parseFleetConfig({ AEP_NATS_URL: 'nats://a:1,nats://b:2', AEP_NATS_STREAM: 'ops_1', AEP_NATS_REPLICAS: '3', AEP_NATS_DUPLICATE_WINDOW_MS: '60000', AEP_NATS_LEASE_MS: '900', AEP_NATS_NODE: 'edge-7', AEP_NATS_FAILOVER_MS: '2500' });
    expect(c).toEqual({ url: 'nats://a:1,nats://b:2', stream: 'ops_1', replicas: 3, duplicateWindowMs: 60_000, leaseMs: 900, node: 'edge-7', failoverMs: 2_500 });
  });

  it('refuses bad values, naming the variable and what is allowed', () => {
    const bad: Array<[Record<string, string>, string | undefined, RegExp]> = [
      [{}, '', /--nats is empty/],
      [{ AEP_NATS_URL: 'http://x:1' }, undefined, /AEP_NATS_URL="http:\/\/x:1" is not valid: expected nats:\/\/HOST:PORT/],
      [{ AEP_NATS_URL: 'nats://x:1', AEP_NATS_STREAM: 'a.b' }, undefined, /AEP_NATS_STREAM="a.b" is not valid: use 1 to 64 letters, digits, '-' or '_'/],
      [{ AEP_NATS_URL: 'nats://x:1', AEP_NATS_NODE: 'a b' }, undefined, /AEP_NATS_NODE="a b"/],
      [{ AEP_NATS_URL: 'nats://x:1', AEP_NATS_REPLICAS: '0' }, undefined, /AEP_NATS_REPLICAS="0" is not valid: expected an integer from 1 to 5/],
      [{ AEP_NATS_URL: 'nats://x:1', AEP_NATS_LEASE_MS: '10' }, undefined, /AEP_NATS_LEASE_MS="10"/],
      [{ AEP_NATS_URL: 'nats://x:1', AEP_NATS_DUPLICATE_WINDOW_MS: '1.5' }, undefined, /AEP_NATS_DUPLICATE_WINDOW_MS="1.5"/],
      [{ AEP_NATS_URL: 'nats://x:1', AEP_NATS_FAILOVER_MS: '499' }, undefined, /AEP_NATS_FAILOVER_MS="499" is not valid: expected an integer from 500 to 60000/],
      [{ AEP_NATS_URL: 'nats://x:1', AEP_NATS_FAILOVER_MS: '60001' }, undefined, /AEP_NATS_FAILOVER_MS="60001"/],
    ];
    for (const [env, flag, message] of bad) {
      expect(() => parseFleetConfig(env, flag)).toThrow(ConfigError);
      expect(() => parseFleetConfig(env, flag)).toThrow(message);
    }
  });

  it('derives a subject-safe default node id from the host name and pid', () => {
    expect(defaultNode('build.box.local', 42)).toBe('build-box-local-42');
  });
});

describe('fleet names', () => {
  it('puts each session on its own subject of the stream, and derives the message id from (source, id)', () => {
    const n = fleetNames('AEP');
    expect(n.events).toBe('aep.AEP.ev.*');
    expect(n.live).toBe('aep.AEP.live');
    expect(n.bucket).toBe('AEP_owners');
    expect(n.controlSubject('b')).toBe('aep.AEP.ctl.b');
    expect(n.eventSubject('s 1.*>')).toMatch(/^aep\.AEP\.ev\.[0-9a-f]{32}$/);
    expect(sessionToken('s-1')).not.toBe(sessionToken('s-2'));
    expect(messageId('aep://h/a', 'e-1')).toBe(messageId('aep://h/a', 'e-1'));
    expect(messageId('aep://h/a', 'e-1')).not.toBe(messageId('aep://h/b', 'e-1'));
    // No concatenation ambiguity: ("a/b", "c") and ("a", "b/c") differ.
    expect(messageId('a/b', 'c')).not.toBe(messageId('a', 'b/c'));
  });

  it('asks for a stream with twice the relay buffer per session and in all, and the duplicate window in ns', () => {
    const fleet = { url: 'nats://x:1', stream: 'S', replicas: 3, duplicateWindowMs: 1_500, leaseMs: 900, node: 'n', failoverMs: 8_000 };
    expect(streamConfig(fleet, fleetNames('S'), 8, 5)).toMatchObject({ name: 'S', subjects: ['aep.S.ev.*'], max_msgs_per_subject: 16, max_msgs: 80, duplicate_window: 1_500_000_000, num_replicas: 3 });
  });
});
