// Edge cases for the home-path, PII and structured-value parts of the redaction pipeline
// (AEP-0003 §9.4 rules c and d, plus redactValue's credential keys). Every case asserts the whole
// redacted string, so a pattern that matches one character more or less shows up.
import { describe, expect, it } from 'vitest';
import { PII_MARKER, SECRET_MARKER, isCredentialKey, redactText, redactValue, type RedactOptions } from './redact.js';

const P = PII_MARKER;

function table(cases: ReadonlyArray<readonly [input: string, expected: string]>, opts?: RedactOptions): void {
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} -> ${JSON.stringify(expected)}`, () => {
      expect(redactText(input, opts)).toBe(expected);
    });
  }
}

describe('Windows home directories become ~', () => {
  table([
    ['C:\\Users\\ana', '~'],
    ['open C:\\Users\\ana\\notes.txt now', 'open ~\\notes.txt now'],
    ['C:\\Users\\ana docs', '~ docs'],
    ['C:/Users/ana/x', '~/x'],
    // JSON-escaped backslashes (two per separator) are a path too.
    ['C:\\\\Users\\\\ana\\\\notes', '~\\\\notes'],
    ['c:\\users\\Ana\\x', '~\\x'],
    // Three backslashes is not a path separator; a drive glued to a word is not a drive.
    ['C:\\\\\\Users\\ana', 'C:\\\\\\Users\\ana'],
    ['xC:\\Users\\ana', 'xC:\\Users\\ana'],
    ['C:Users\\ana', 'C:Users\\ana'],
  ]);
});

describe("the operator's own home", () => {
  it('strips every trailing separator from the configured home', () => {
    expect(redactText('/srv/ana/notes and /srv/ana', { home: '/srv/ana//' })).toBe('~/notes and ~');
    expect(redactText('D:\\data\\ana\\x', { home: 'D:\\data\\ana\\\\' })).toBe('~\\x');
  });

  it('matches the home literally, dots included', () => {
    expect(redactText('/srv/ana.b/x /srv/anaxb/x', { home: '/srv/ana.b' })).toBe('~/x /srv/anaxb/x');
  });

  it('ignores a home of one character or only separators', () => {
    expect(redactText('x y x/z', { home: 'x' })).toBe('x y x/z');
    expect(redactText('a / b', { home: '/' })).toBe('a / b');
  });

  it('replaces the home by ~, not by nothing', () => {
    expect(redactText('/opt/me/file', { home: '/opt/me' })).toBe('~/file');
  });
});

describe('e-mail addresses', () => {
  table([
    ['mail ana@example.com today', `mail ${P} today`],
    ['ana@example.com.', `${P}.`],
    ['ana@example.io', P],
    ['ana@mail.example.com', P],
    ['x a@b.co y', `x ${P} y`],
    ['a@b.c', 'a@b.c'],
    ['git@github.com:owner/repo', 'git@github.com:owner/repo'],
    ['ana@example.com: hi', `${P}: hi`],
  ]);
});

describe('international phone numbers', () => {
  table([
    ['+44 20 7946 0958', P],
    ['Call +44 20 7946 0958. Thanks', `Call ${P}. Thanks`],
    ['+44 20 7946 0958,5', `${P},5`],
    // A dot then a digit continues the number as one more group.
    ['+44 20 7946 0958.5', P],
    // A three-digit country code leaves room for five more groups.
    ['+123 1 2 3 4 5', P],
    // Digit count: 8 to 15 inclusive.
    ['+1 23 4567', '+1 23 4567'],
    ['+12 345 678', P],
    ['+123 4567 8901 2345', P],
    ['+123 4567 8901 23456', '+123 4567 8901 23456'],
  ]);
});

describe('North American phone numbers', () => {
  table([
    ['415-555-0100', P],
    ['call 415-555-0100. Then', `call ${P}. Then`],
    ['415-555-0100 today', `${P} today`],
    ['415-555-0100.5', '415-555-0100.5'],
    ['415-555-0100-7', '415-555-0100-7'],
    ['(415)555-0100', P],
    ['(415) 555-0100', P],
    ['1(800) 555-0199', P],
    ['1800-555-0199', P],
    ['1x415-555-0100', '1x415-555-0100'],
  ]);
});

describe('labelled phone numbers', () => {
  table([
    ['phone 555-0100', `phone ${P}`],
    ['phone 555-0100 today', `phone ${P} today`],
    ['phone 555-0100. Bye', `phone ${P}. Bye`],
    ['phone 555-0100.x', `phone ${P}.x`],
    ['phone 555-0100-x', 'phone 555-0100-x'],
    ['phone 555-0100_1', 'phone 555-0100_1'],
    ['tel:020 7946 0958', `tel:${P}`],
    ['tel: 020 7946 0958', `tel: ${P}`],
    ['tel : 020 7946 0958', `tel : ${P}`],
    ['fax no. 030 1234567', `fax no. ${P}`],
    ['fax no 030 1234567', `fax no ${P}`],
    ['fax  no. 030 1234567', `fax  no. ${P}`],
    ['fax#030 1234567', `fax#${P}`],
    ['tel: (020) 7946 0958', `tel: ${P}`],
    // Digit count: 7 to 15 inclusive.
    ['phone 555 010', 'phone 555 010'],
    ['tel: 123 4567 8901 2345', `tel: ${P}`],
    ['tel: 1234 5678 9012 3456', 'tel: 1234 5678 9012 3456'],
  ]);
});

describe('social security numbers', () => {
  table([
    ['SSN 123-45-6789. Done', `SSN ${P}. Done`],
    ['123-45-6789.1', '123-45-6789.1'],
  ]);
});

describe('card numbers: issuer prefix and Luhn check', () => {
  table([
    ['card 4111 1111 1111 1111. Thanks', `card ${P}. Thanks`],
    ['4111 1111 1111 1112', '4111 1111 1111 1112'],
    ['5555 5555 5555 4444', P],
    ['2223 0031 2200 3222', P],
    ['3782 822463 10005', P],
    ['30569309025904', P],
    ['6011 1111 1111 1117', P],
    ['6445 1234 5678 9015', P],
    // Luhn-valid, but no issuer uses 56.
    ['5612 3456 7890 1230', '5612 3456 7890 1230'],
    // One digit repeated passes Luhn at 17 digits; it is filler, not a card.
    ['44444444444444444', '44444444444444444'],
    ['22222222222222222', '22222222222222222'],
  ]);
});

describe('redactText defaults', () => {
  it('leaves text alone when no secret values or names are configured', () => {
    expect(redactText('deploy hook set')).toBe('deploy hook set');
    expect(redactText('deploy_hook=value1')).toBe('deploy_hook=value1');
    expect(redactText('')).toBe('');
  });
});

describe('redactValue', () => {
  it('keeps a member whose value is undefined, even under a credential key', () => {
    const out = redactValue({ password: undefined, token: 'abc' });
    expect(out).toStrictEqual({ password: undefined, token: SECRET_MARKER });
    expect(Object.keys(out)).toEqual(['password', 'token']);
  });

  it('matches configured names against object keys, not array indexes', () => {
    expect(redactValue({ list: ['x', 'y'], '0': 'z' }, { secretNames: ['0'] })).toStrictEqual({ list: ['x', 'y'], '0': SECRET_MARKER });
  });

  it('copies arrays as arrays, holes as undefined', () => {
    // eslint-disable-next-line no-sparse-arrays
    const out = redactValue([, 'a'] as unknown[]);
    expect(out).toStrictEqual([undefined, 'a']);
    expect(Object.keys(out)).toEqual(['0', '1']);
  });

  it('ignores configured names that are not strings', () => {
    const names = [42, null, 'Deploy_Hook'] as unknown as string[];
    expect(redactValue({ deploy_hook: 'h', other: 'o' }, { secretNames: names })).toStrictEqual({ deploy_hook: SECRET_MARKER, other: 'o' });
  });

  it('without configured names, no key is secret but the credential words', () => {
    expect(redactValue({ deploy_hook: 'v' })).toStrictEqual({ deploy_hook: 'v' });
  });
});

describe('isCredentialKey', () => {
  const yes = [
    'credential', 'credentials', 'privatekey', 'private_key', 'private-key', 'privateKey',
    'accesskey', 'access_key', 'accessKey', 'secretkey', 'secret_key', 'SECRET_KEY',
    'clientsecret', 'client_secret', 'clientSecret', 'apikey', 'api_key', 'api-key', 'apiKey',
    'token', 'db.password', 'GITHUB_TOKEN',
  ];
  const no = ['privatexkey', 'accessxkey', 'secretxkey', 'clientxsecret', 'apixkey', 'tokenizer', 'mytoken', 'credentialsx'];
  for (const key of yes) it(`${key} is a credential key`, () => expect(isCredentialKey(key)).toBe(true));
  for (const key of no) it(`${key} is not a credential key`, () => expect(isCredentialKey(key)).toBe(false));
});
