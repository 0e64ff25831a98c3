/** The shared relay options: defaults and precedence, usage errors, and the wording of relay failures. */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../contract/cli.js';
import { DEFAULT_RELAY, RELAY_ENV_HELP, RelayOptionError, authHeaders, describeNetError, refused, relayTarget, target, tokenOf, unreachable } from './relay-opts.js';

describe('relayTarget', () => {
  it('--relay, else AEP_RELAY, else the default; a trailing slash is dropped', () => {
    expect(relayTarget({}, {})).toEqual({ relay: DEFAULT_RELAY });
    expect(relayTarget({}, { AEP_RELAY: 'http://127.0.0.1:9000/' })).toEqual({ relay: 'http://127.0.0.1:9000' });
    expect(relayTarget({ relay: 'https://relay.example//' }, { AEP_RELAY: 'http://127.0.0.1:9000' })).toEqual({ relay: 'https://relay.example' });
    expect(relayTarget({}, { AEP_RELAY: '' })).toEqual({ relay: DEFAULT_RELAY });
  });

  it('a non-empty --token, else a non-empty AEP_TOKEN, else none', () => {
    expect(relayTarget({ token: 'flag' }, { AEP_TOKEN: 'env' })).toEqual({ relay: DEFAULT_RELAY, token: 'flag' });
    expect(relayTarget({ token: '' }, { AEP_TOKEN: 'env' })).toEqual({ relay: DEFAULT_RELAY, token: 'env' });
    expect(relayTarget({}, { AEP_TOKEN: '' })).toEqual({ relay: DEFAULT_RELAY });
    expect(tokenOf({ token: true }, {})).toBeUndefined();
    expect(tokenOf({}, { AEP_TOKEN: 'env' })).toBe('env');
  });

  it('a relay that is not a URL, or not http(s), is refused with what was given and an example', () => {
    expect(() => relayTarget({ relay: 'localhost:8787' }, {})).toThrow(new RelayOptionError("--relay must be an http:// or https:// URL, got 'localhost:8787'"));
    expect(() => relayTarget({ relay: 'not a url' }, {})).toThrow(new RelayOptionError(`--relay 'not a url' is not a URL; expected e.g. ${DEFAULT_RELAY}`));
    expect(() => relayTarget({}, { AEP_RELAY: 'ws://127.0.0.1:8787' })).toThrow("--relay must be an http:// or https:// URL, got 'ws://127.0.0.1:8787'");
  });
});

describe('target', () => {
  it('turns an unusable flag into a usage error (exit 2), same message', () => {
    let caught: unknown;
    try {
      target({ relay: 'nope' }, {});
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(UsageError);
    expect((caught as Error).message).toBe(`--relay 'nope' is not a URL; expected e.g. ${DEFAULT_RELAY}`);
    expect(target({ token: 't' }, {})).toEqual({ relay: DEFAULT_RELAY, token: 't' });
  });
});

describe('messages', () => {
  const open = { relay: 'http://127.0.0.1:1' };
  const withToken = { relay: 'http://127.0.0.1:1', token: 'secret-value' };

  it('authHeaders carries the token as a bearer, or nothing', () => {
    expect(authHeaders(withToken)).toEqual({ authorization: 'Bearer secret-value' });
    expect(authHeaders(open)).toEqual({});
  });

  it('unreachable names the URL, the reason and aep doctor', () => {
    expect(unreachable(open, 'ECONNREFUSED')).toBe(
      "cannot reach the relay at http://127.0.0.1:1 (ECONNREFUSED). Is it running? Start one with 'aep relay', or diagnose with 'aep doctor --relay http://127.0.0.1:1'",
    );
  });

  it('refused: 401 without a token asks for one; 401 or 403 with a token says it is wrong, never echoing it', () => {
    expect(refused(open, 401, 'the stream')).toBe('the relay at http://127.0.0.1:1 requires a token for the stream (HTTP 401): pass --token or set AEP_TOKEN');
    const wrong = "the relay at http://127.0.0.1:1 refused the token for the stream: the token given by --token/AEP_TOKEN is wrong; check it against the relay's AEP_TOKEN";
    expect(refused(withToken, 401, 'the stream')).toBe(wrong);
    expect(refused(withToken, 403, 'the stream')).toBe(wrong);
    expect(refused(withToken, 403, 'the stream')).not.toContain('secret-value');
    expect(refused(open, 500, 'the stream')).toBe("the relay at http://127.0.0.1:1 answered the stream with HTTP 500; run 'aep doctor --relay http://127.0.0.1:1'");
  });

  it('describeNetError: the cause code, else its message, else the error code or message, else the value', () => {
    const coded = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(describeNetError(new TypeError('fetch failed', { cause: coded }))).toBe('ECONNREFUSED');
    expect(describeNetError(new TypeError('fetch failed', { cause: new Error('other side closed') }))).toBe('other side closed');
    expect(describeNetError(Object.assign(new Error('x'), { code: 'EPIPE' }))).toBe('EPIPE');
    expect(describeNetError(new Error('plain'))).toBe('plain');
    expect(describeNetError('a string')).toBe('a string');
  });

  it('the environment help names both variables', () => {
    expect(RELAY_ENV_HELP).toBe('environment:\n  AEP_TOKEN       bearer token when --token is not given\n  AEP_RELAY_URL   relay URL when --relay is not given (AEP_RELAY: the old name, read with a notice)');
  });
});
