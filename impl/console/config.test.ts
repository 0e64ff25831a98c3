import { describe, expect, it } from 'vitest';
import { ConsoleConfigError, DEFAULT_CONSOLE_PORT, parseConsoleConfig, parseRelaySpec } from './config.js';

describe('console config', () => {
  it('splits URL=TOKEN at the first "=", keeps base64 padding in the token, and normalizes the URL', () => {
    expect(parseRelaySpec('http://127.0.0.1:8787/=abc==', 0, undefined)).toEqual({ id: 'r0', url: 'http://127.0.0.1:8787', token: 'abc==' });
    expect(parseRelaySpec('https://relay.example/aep/', 3, 'env-token')).toEqual({ id: 'r3', url: 'https://relay.example/aep', token: 'env-token' });
  });

  it('refuses what would put a token in a URL, and other bad relays, naming the fix', () => {
    expect(() => parseRelaySpec('http://h:1/?access_token=x', 0, undefined)).toThrow(/without query/);
    expect(() => parseRelaySpec('http://user:pw@h:1', 0, undefined)).toThrow(/credentials/);
    expect(() => parseRelaySpec('ws://h:1', 0, undefined)).toThrow(/http:\/\/ or https:\/\//);
    expect(() => parseRelaySpec('nope', 0, undefined)).toThrow(ConsoleConfigError);
    expect(() => parseRelaySpec('http://h:1=', 0, undefined)).toThrow(/non-empty word/);
    expect(() => parseConsoleConfig({ relay: ['http://h:1', 'http://h:1/=t'] }, {})).toThrow(/given twice/);
  });

  it('takes the port from --port, then AEP_CONSOLE_PORT, then the default; the relay from AEP_RELAY when none is given', () => {
    expect(parseConsoleConfig({}, {}).port).toBe(DEFAULT_CONSOLE_PORT);
    expect(parseConsoleConfig({}, { AEP_CONSOLE_PORT: '9100' }).port).toBe(9100);
    expect(parseConsoleConfig({ port: '0' }, { AEP_CONSOLE_PORT: '9100' }).port).toBe(0);
    expect(() => parseConsoleConfig({}, { AEP_CONSOLE_PORT: '70000' })).toThrow(/AEP_CONSOLE_PORT="70000" is not valid/);
    expect(parseConsoleConfig({}, { AEP_RELAY: 'http://10.0.0.2:8787', AEP_TOKEN: 't' }).relays).toEqual([{ id: 'r0', url: 'http://10.0.0.2:8787', token: 't' }]);
    expect(parseConsoleConfig({ capture: 'metadata' }, {}).capture).toBe('metadata');
    expect(() => parseConsoleConfig({ capture: 'secret' }, {})).toThrow(/not a capture level/);
  });
});
