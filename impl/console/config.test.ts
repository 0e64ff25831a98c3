import { describe, expect, it } from 'vitest';
import { ConsoleConfigError, DEFAULT_CONSOLE_PORT, parseConsoleConfig, parseRelaySpec } from './config.js';

const files = (map: Record<string, string>) => (path: string): string => {
  if (!(path in map)) throw new Error(`ENOENT: no such file ${path}`);
  return map[path]!;
};

describe('console config', () => {
  it('normalizes the URL and takes the token it is given', () => {
    expect(parseRelaySpec('http://127.0.0.1:8787/', 0, undefined)).toEqual({ id: 'r0', url: 'http://127.0.0.1:8787', token: undefined });
    expect(parseRelaySpec('https://relay.example/aep/', 3, 'env-token')).toEqual({ id: 'r3', url: 'https://relay.example/aep', token: 'env-token' });
  });

  it('refuses a token in argv (URL=TOKEN) naming the new way, and what would put a token in a URL', () => {
    expect(() => parseRelaySpec('http://127.0.0.1:8787=abc', 0, undefined)).toThrow(/readable by every user.*--token-file FILE, or set AEP_TOKEN/);
    try {
      parseRelaySpec('http://127.0.0.1:8787=abc-secret', 0, undefined);
    } catch (err) {
      expect((err as Error).message).not.toContain('abc-secret');
    }
    expect(() => parseRelaySpec('http://h:1/?access_token=x', 0, undefined)).toThrow(/without query/);
    expect(() => parseRelaySpec('http://user:pw@h:1', 0, undefined)).toThrow(/credentials/);
    expect(() => parseRelaySpec('ws://h:1', 0, undefined)).toThrow(/http:\/\/ or https:\/\//);
    expect(() => parseRelaySpec('nope', 0, undefined)).toThrow(ConsoleConfigError);
    expect(() => parseConsoleConfig({ relay: ['http://h:1', 'http://h:1/'] }, {})).toThrow(/given twice/);
  });

  it('reads tokens from files paired in order with --relay, else AEP_TOKEN', () => {
    const read = files({ a: 'tok-a\n', b: '  tok-b  ', empty: '\n', two: 'a b' });
    expect(parseConsoleConfig({ relay: ['http://a:1', 'http://b:1'], tokenFile: ['a', 'b'] }, { AEP_TOKEN: 'env' }, read).relays.map((r) => r.token)).toEqual(['tok-a', 'tok-b']);
    expect(parseConsoleConfig({ relay: ['http://a:1', 'http://b:1'] }, { AEP_TOKEN: 'env' }, read).relays.map((r) => r.token)).toEqual(['env', 'env']);
    expect(() => parseConsoleConfig({ relay: ['http://a:1', 'http://b:1'], tokenFile: ['a'] }, {}, read)).toThrow(/one --token-file per --relay/);
    expect(() => parseConsoleConfig({ relay: ['http://a:1'], tokenFile: ['missing'] }, {}, read)).toThrow(/--token-file missing: ENOENT/);
    expect(() => parseConsoleConfig({ relay: ['http://a:1'], tokenFile: ['empty'] }, {}, read)).toThrow(/one word \(found nothing\)/);
    expect(() => parseConsoleConfig({ relay: ['http://a:1'], tokenFile: ['two'] }, {}, read)).toThrow(/several words/);
  });

  it('takes the port from --port, then AEP_CONSOLE_PORT, then the default; the relay from AEP_RELAY_URL, AEP_RELAY as a warned alias', () => {
    expect(parseConsoleConfig({}, {}).port).toBe(DEFAULT_CONSOLE_PORT);
    expect(parseConsoleConfig({}, { AEP_CONSOLE_PORT: '9100' }).port).toBe(9100);
    expect(parseConsoleConfig({ port: '0' }, { AEP_CONSOLE_PORT: '9100' }).port).toBe(0);
    expect(() => parseConsoleConfig({}, { AEP_CONSOLE_PORT: '70000' })).toThrow(/AEP_CONSOLE_PORT="70000" is not valid/);
    expect(parseConsoleConfig({}, { AEP_RELAY_URL: 'http://10.0.0.2:8787', AEP_TOKEN: 't' })).toMatchObject({ relays: [{ id: 'r0', url: 'http://10.0.0.2:8787', token: 't' }], warnings: [] });
    const alias = parseConsoleConfig({}, { AEP_RELAY: 'http://10.0.0.3:8787' });
    expect(alias.relays[0]!.url).toBe('http://10.0.0.3:8787');
    expect(alias.warnings).toEqual(['AEP_RELAY is read as an alias of AEP_RELAY_URL for aep console; set AEP_RELAY_URL instead']);
    expect(parseConsoleConfig({}, { AEP_RELAY_URL: 'http://10.0.0.2:8787', AEP_RELAY: 'http://10.0.0.3:8787' }).relays[0]!.url).toBe('http://10.0.0.2:8787');
    expect(parseConsoleConfig({ capture: 'metadata' }, {}).capture).toBe('metadata');
    expect(() => parseConsoleConfig({ capture: 'secret' }, {})).toThrow(/not a capture level/);
  });
});
