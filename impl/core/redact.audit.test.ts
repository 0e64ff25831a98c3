/**
 * Audit of the AEP-0003 §9.4 redaction floor, item by item ((a) secrets, (b) configured values,
 * (c) home paths, (d) PII), plus the negatives a redactor must leave alone. Every value here is
 * invented for this file.
 */
import { describe, expect, it } from 'vitest';
import { PII_MARKER, SECRET_MARKER, redactText, redactValue } from './redact.js';

/** Redacts `secret` out of `input`, leaves `keep` in place, and is idempotent. */
function hides(input: string, secret: string, marker: string, keep: readonly string[] = [], opts = {}): void {
  const out = redactText(input, opts);
  expect(out, out).not.toContain(secret);
  expect(out, out).toContain(marker);
  for (const k of keep) expect(out, out).toContain(k);
  expect(redactText(out, opts)).toBe(out);
}

function untouched(input: string, opts = {}): void {
  expect(redactText(input, opts)).toBe(input);
}

describe('§9.4(a) secrets: PEM blocks', () => {
  it.each(['RSA PRIVATE KEY', 'PRIVATE KEY', 'EC PRIVATE KEY', 'OPENSSH PRIVATE KEY', 'ENCRYPTED PRIVATE KEY', 'PGP PRIVATE KEY BLOCK'])('%s', (label) => {
    hides(`before\n-----BEGIN ${label}-----\nQmFzZTY0Qm9keUxpbmU\nU2Vjb25kTGluZQ==\n-----END ${label}-----\nafter`, 'QmFzZTY0Qm9keUxpbmU', SECRET_MARKER, ['before', 'after']);
  });
  it('two blocks in one text are both redacted and the text between survives', () => {
    const out = redactText('-----BEGIN PRIVATE KEY-----\nAAAA1111\n-----END PRIVATE KEY-----\nmiddle\n-----BEGIN PRIVATE KEY-----\nBBBB2222\n-----END PRIVATE KEY-----');
    expect(out).toBe(`${SECRET_MARKER}\nmiddle\n${SECRET_MARKER}`);
  });
});

describe('§9.4(a) secrets: AKIA[0-9A-Z]{16}', () => {
  it('bare, quoted, after = and inside a URL query', () => {
    hides('id AKIAQ2W3E4R5T6Y7U8I9 set', 'AKIAQ2W3E4R5T6Y7U8I9', SECRET_MARKER, ['id ', ' set']);
    hides('"AKIAQ2W3E4R5T6Y7U8I9"', 'AKIAQ2W3E4R5T6Y7U8I9', SECRET_MARKER);
    hides('AWS_KEY_ID=AKIAQ2W3E4R5T6Y7U8I9', 'AKIAQ2W3E4R5T6Y7U8I9', SECRET_MARKER);
    hides('https://s3.test/o?X-Amz-Credential=AKIAQ2W3E4R5T6Y7U8I9%2F2026', 'AKIAQ2W3E4R5T6Y7U8I9', SECRET_MARKER);
  });
  it('the floor pattern is unanchored: glued to letters or followed by more characters it still matches', () => {
    hides('keyAKIAQ2W3E4R5T6Y7U8I9', 'AKIAQ2W3E4R5T6Y7U8I9', SECRET_MARKER);
    hides('AKIAQ2W3E4R5T6Y7U8I9Z', 'AKIAQ2W3E4R5T6Y7U8I9', SECRET_MARKER);
  });
  it('fewer than 16 characters after AKIA is not a key id', () => untouched('AKIA123 is a short code'));
});

describe('§9.4(a) secrets: Bearer tokens', () => {
  it.each(['Authorization: Bearer Zx81.Qp-4_r~y+/w8==', 'curl -H "Bearer zq8PL3mn77" x', 'BEARER ab12cd34ef56', 'bearer 0a1b2c3d4e5f'])('%s', (input) => {
    const token = input.split(/Bearer |BEARER |bearer /)[1]!.split(/[ "]/)[0]!;
    hides(input, token, SECRET_MARKER);
  });
});

describe('§9.4(a) secrets: (password|passwd|secret|api[_-]?key|token)\\s*[=:]\\s*\\S+', () => {
  it.each([
    ['password=Xy7-pass', 'Xy7-pass'],
    ['passwd: m4pl3Leaf', 'm4pl3Leaf'],
    ['PASSWD=Or4nge', 'Or4nge'],
    ['secret=fz9-cider', 'fz9-cider'],
    ['client secret : dune.77', 'dune.77'],
    ['api_key=k7k7k7k7', 'k7k7k7k7'],
    ['api-key: k8k8k8k8', 'k8k8k8k8'],
    ['apikey=k9k9k9k9', 'k9k9k9k9'],
    ['X-Api-Key:k0k0k0k0', 'k0k0k0k0'],
    ['token: v4lue-one', 'v4lue-one'],
    ['token :   v4lue-two', 'v4lue-two'],
    ['token\t=\tv4lue-three', 'v4lue-three'],
    ['token=\n  v4lue-four', 'v4lue-four'],
    ['GITHUB_TOKEN=v4lue-five', 'v4lue-five'],
    ['{"token":"v4lue six"}', 'v4lue six'],
    ["password: 'two words'", 'two words'],
    ['secret=a', 'secret=a'],
  ])('%j', (input, secret) => hides(input, secret, SECRET_MARKER));
  it('the key survives, only the value goes', () => {
    expect(redactText('password=Xy7-pass next')).toBe(`password=${SECRET_MARKER} next`);
    expect(redactText('api-key: k8k8k8k8')).toBe(`api-key: ${SECRET_MARKER}`);
  });
});

describe('§9.4(a) secrets: JWT-shaped strings', () => {
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoib3BzIn0.Tm90QVJlYWxTaWduYXR1cmU';
  it('bare, after a prefix, inside a cookie and with an empty signature', () => {
    hides(`jwt ${jwt} ok`, 'eyJyb2xlIjoib3BzIn0', SECRET_MARKER, ['jwt ', ' ok']);
    hides(`auth_cookie_${jwt}`, 'eyJyb2xlIjoib3BzIn0', SECRET_MARKER);
    hides(`sid=${jwt}; HttpOnly`, 'eyJyb2xlIjoib3BzIn0', SECRET_MARKER, ['HttpOnly']);
    hides('eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.', 'eyJzdWIiOiJ4In0', SECRET_MARKER);
  });
  it('short segments still have the JWT shape', () => hides('x eyJh.eyJz.c y', 'eyJh.eyJz', SECRET_MARKER));
});

describe('§9.4(b) configured secret values', () => {
  it('every occurrence of every listed value is replaced', () => {
    const out = redactText('alpha-Seven then beta-Eight then alpha-Seven', { secretValues: ['alpha-Seven', 'beta-Eight'] });
    expect(out).toBe(`${SECRET_MARKER} then ${SECRET_MARKER} then ${SECRET_MARKER}`);
  });
  it('values holding regex metacharacters are matched literally', () => {
    hides('pw is a.b*c+(d)', 'a.b*c+(d)', SECRET_MARKER, [], { secretValues: ['a.b*c+(d)'] });
    untouched('pw is aXbbbc+(d)', { secretValues: ['a.b*c+(d)'] });
  });
  it('the longer value wins when one contains another', () => {
    expect(redactText('use ring-of-keys', { secretValues: ['ring', 'ring-of-keys'] })).toBe(`use ${SECRET_MARKER}`);
  });
});

describe('§9.4(c) home paths', () => {
  it('the operator home prefix becomes ~, with or without a trailing slash in the option', () => {
    expect(redactText('open /home/ines/app/main.ts', { home: '/home/ines' })).toBe('open ~/app/main.ts');
    expect(redactText('open /home/ines/app/main.ts', { home: '/home/ines/' })).toBe('open ~/app/main.ts');
    expect(redactText('cwd=/opt/people/ines/w', { home: '/opt/people/ines' })).toBe('cwd=~/w');
  });
  it('a longer sibling name is not the operator home', () => {
    expect(redactText('/home/inesita/x', { home: '/home/ines' })).toBe('~/x'); // another user's home, caught generically
    untouched('/opt/people/inesita/x', { home: '/opt/people/ines' });
  });
  it('other homes: /home/<u>, /Users/<u>, C:\\Users\\<u>', () => {
    expect(redactText('cp /home/olu/a /Users/kai/b')).toBe('cp ~/a ~/b');
    expect(redactText('at C:\\Users\\Mei\\Desktop')).toBe('at ~\\Desktop');
  });
  it('paths that only look like homes survive', () => {
    untouched('see /homework/ch1 and /var/home-backup');
    untouched('https://docs.example.org/home/start');
  });
});

describe('§9.4(d) PII, on by default', () => {
  it.each(['jo.ng@example.test', 'first+tag@sub.mail.example', 'X_Y@ex-ample.io'])('email %s', (email) => {
    hides(`mail ${email}.`, email, PII_MARKER, ['mail ']);
  });
  it.each(['+1 415 555 0142', '+44 20 7946 0018', '+49 30 12345678', '(415) 555-0142', '415-555-0142', '415.555.0142', '1-800-555-0142', 'tel: 020 7946 0018', 'phone 555-0142'])(
    'phone %s',
    (phone) => {
      const out = redactText(`reach me at ${phone} today`);
      expect(out, out).toContain(PII_MARKER);
      expect(out, out).not.toMatch(/\d{4}\b(?! today)/);
      expect(out, out).toContain('today');
    },
  );
  it('pii:false keeps emails and phones and still redacts secrets', () => {
    expect(redactText('a@b.example 415-555-0142 token=zz', { pii: false })).toBe(`a@b.example 415-555-0142 token=${SECRET_MARKER}`);
  });
  it('(a) runs before (d): a credential value shaped like an email is a secret', () => {
    expect(redactText('passwd=ops@relay.example')).toBe(`passwd=${SECRET_MARKER}`);
  });
});

describe('§9.4 negatives: ordinary technical text survives', () => {
  it.each([
    'the password field must not be empty',
    'store secrets in the vault, not in code',
    'we count tokens per request',
    'released v2.14.0 after 1.9.12 and 10.0.19041.1',
    'node 20.19.0, npm 10.8.2, python 3.12.4',
    'on 2026-03-04 at 05:06:07 and 2026-03-04T05:06:07.123+02:00',
    'commit 4f0d2c9b7e1a3c5d8f6e2b4a9c7d1e3f5a7b9c0d and short 4f0d2c9',
    'request id 7c9e6679-7425-40de-944b-e07fc1f90ae7',
    'listening on localhost:8080 and 127.0.0.1:3000, port 5432',
    'ran 318 tests in 4.2s, 12 files, exit code 0',
    'epoch ms 1783073704221 and pid 48213',
    'sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    'git@git.example.dev:team/repo.git',
    'the bearer of this note',
    'max_tokens=4096 token_count: 12 input_tokens=7',
  ])('%j', (text) => untouched(text));
});

describe('structured values', () => {
  it('credential-named keys are replaced whole, at any depth, keys kept', () => {
    const out = redactValue({ env: { DB_PASSWORD: 'plain1', apiKey: 'plain2', nested: [{ authorization: 'Basic plain3' }] }, user: 'ana' });
    expect(out).toEqual({ env: { DB_PASSWORD: SECRET_MARKER, apiKey: SECRET_MARKER, nested: [{ authorization: SECRET_MARKER }] }, user: 'ana' });
  });
  it('non-string scalars elsewhere are untouched; null under a credential key stays null', () => {
    expect(redactValue({ count: 7, ratio: 0.25, ok: false, gone: null, token: null })).toEqual({ count: 7, ratio: 0.25, ok: false, gone: null, token: null });
  });
  it('strings in arrays run the text pipeline', () => {
    expect(redactValue(['x', 'mail q@r.example', 'AKIAQ2W3E4R5T6Y7U8I9'])).toEqual(['x', `mail ${PII_MARKER}`, SECRET_MARKER]);
  });
});

describe('beyond the floor: card numbers never swallow timestamps', () => {
  it('epoch milliseconds and nanoseconds that happen to pass Luhn survive', () => {
    // Each of these passes the Luhn check; none is a card (no issuer starts with 1).
    for (const ts of ['1783073704223', '1783073704220000003', '1764478152002']) {
      const digits = ts.split('').map(Number).reverse();
      const sum = digits.reduce((acc, d, i) => acc + (i % 2 === 1 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d), 0);
      expect(sum % 10, ts).toBe(0);
      untouched(`at ${ts} ns`);
    }
  });
  it('a Visa-shaped test number is still redacted', () => hides('card 4111 1111 1111 1111 ok', '4111 1111', PII_MARKER, ['ok']));
});

describe('§9.4(b) configured names: the values of listed env vars / config keys', () => {
  const opts = { secretNames: ['DEPLOY_HOOK', 'vaultPin'] };
  it('in text, the value assigned to a listed name is redacted, whatever its shape', () => {
    expect(redactText('DEPLOY_HOOK=plainword next', opts)).toBe(`DEPLOY_HOOK=${SECRET_MARKER} next`);
    expect(redactText('{"vaultPin": "4 4 2 1"}', opts)).toBe(`{"vaultPin": "${SECRET_MARKER}"}`);
    expect(redactText('deploy_hook: lowercase-too', opts)).toBe(`deploy_hook: ${SECRET_MARKER}`);
  });
  it('a longer identifier containing the name is not the name', () => {
    untouched('MY_DEPLOY_HOOK_URL=https://example.test/x', opts);
  });
  it('in structured values, the value under a listed key is replaced whole', () => {
    expect(redactValue({ vaultPin: 4421, VAULTPIN: 'x', other: 'plain' }, opts)).toEqual({ vaultPin: SECRET_MARKER, VAULTPIN: SECRET_MARKER, other: 'plain' });
  });
});
