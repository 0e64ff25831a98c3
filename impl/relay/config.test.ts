import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULTS, parseRelayConfig } from './config.js';

describe('parseRelayConfig', () => {
  it('applies every documented default', () => {
    expect(parseRelayConfig({})).toEqual({
      host: '127.0.0.1',
      port: 8787,
      token: undefined,
      buffer: 10_000,
      maxSessions: 500,
      maxBody: 16 * 1024 * 1024,
      maxBatch: 10_000,
      maxFrom: 500,
      maxSubscriptions: 64,
      heartbeatMs: 15_000,
    });
    expect(DEFAULTS.maxFrom).toBe(DEFAULTS.maxSessions);
  });

  it('reads every environment variable, and flags win over AEP_HOST/AEP_PORT', () => {
    const env = {
      AEP_HOST: '0.0.0.0', AEP_PORT: '9000', AEP_TOKEN: 't0k', AEP_BUFFER: '8', AEP_MAX_SESSIONS: '20',
      AEP_MAX_BODY: '4096', AEP_MAX_BATCH: '5', AEP_MAX_SUBS: '3', AEP_HEARTBEAT_MS: '100',
    };
    const c = parseRelayConfig(env);
    expect(c).toMatchObject({ host: '0.0.0.0', port: 9000, token: 't0k', buffer: 8, maxSessions: 20, maxBody: 4096, maxBatch: 5, maxFrom: 20, maxSubscriptions: 3, heartbeatMs: 100 });
    expect(parseRelayConfig({ ...env, AEP_MAX_FROM: '7' }).maxFrom).toBe(7);
    expect(parseRelayConfig(env, { host: '::1', port: '0' })).toMatchObject({ host: '::1', port: 0 });
  });

  it('treats an empty AEP_TOKEN as unset', () => {
    expect(parseRelayConfig({ AEP_TOKEN: '' }).token).toBeUndefined();
  });

  it.each([
    [{ AEP_BUFFER: 'abc' }, {}, /^AEP_BUFFER="abc" is not valid: expected an integer >= 1$/],
    [{ AEP_BUFFER: '0' }, {}, /AEP_BUFFER="0"/],
    [{ AEP_MAX_BODY: '12.5' }, {}, /AEP_MAX_BODY/],
    [{ AEP_PORT: '70000' }, {}, /^AEP_PORT="70000" is not valid: expected an integer from 0 to 65535$/],
    [{}, { port: '-1' }, /^--port="-1"/],
    [{ AEP_HEARTBEAT_MS: '60000' }, {}, /AEP_HEARTBEAT_MS/],
    [{ AEP_TOKEN: 'two words' }, {}, /AEP_TOKEN contains whitespace/],
    [{}, { host: ' ' }, /--host is empty/],
  ])('rejects %j %j with a message naming the setting', (env, flags, message) => {
    expect(() => parseRelayConfig(env, flags)).toThrow(ConfigError);
    expect(() => parseRelayConfig(env, flags)).toThrow(message);
  });
});
