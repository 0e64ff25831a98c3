/**
 * Edges of the secret/credential stages of redactText (AEP-0003 §9.4 (a) and (b)): each token
 * shape's length bound and character class, the bearer gap, the URL-scheme boundary, the
 * assignment value's trailing punctuation, and which configured values and names count.
 * Every test asserts the whole redacted string.
 */
import { describe, expect, it } from 'vitest';
import { SECRET_MARKER as S, redactText } from './redact.js';

/** `n` characters of letters with single digits between them (no digit run that PII rules could take). */
function alnum(n: number): string {
  return 'Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv'.repeat(Math.ceil(n / 32) + 1).slice(0, n);
}

describe('vendor token shapes: the shortest token counts, one character less does not', () => {
  it.each([
    ['GitHub classic ghp_', 'ghp_', 20, 19],
    ['GitHub fine-grained PAT', 'github_pat_', 20, 19],
    ['GitLab PAT', 'glpat-', 20, 19],
    ['Slack xoxb-', 'xoxb-', 10, 9],
    ['OpenAI / Anthropic sk-', 'sk-', 20, 19],
    ['Stripe live secret key', 'sk_live_', 10, 9],
    ['Stripe webhook secret', 'whsec_', 20, 19],
    ['Google OAuth access token', 'ya29.', 20, 19],
    ['Hugging Face', 'hf_', 30, 29],
    ['PyPI', 'pypi-', 50, 49],
  ])('%s', (_name, prefix, min, short) => {
    expect(redactText(`use ${prefix}${alnum(min)} now`)).toBe(`use ${S} now`);
    expect(redactText(`use ${prefix}${alnum(min + 7)} now`)).toBe(`use ${S} now`);
    const kept = `use ${prefix}${alnum(short)} now`;
    expect(redactText(kept)).toBe(kept);
  });

  it('an ASIA-family id is exactly 16 upper-case letters or digits, as a whole word', () => {
    expect(redactText('use ASIA' + 'AB1CD2EF3GH4IJ5K' + ' now')).toBe(`use ${S} now`);
    for (const body of ['AB1CD2EF3GH4IJ5', 'AB1CD2EF3GH4IJ5KL']) {
      const near = `use ASIA${body} now`;
      expect(redactText(near), body).toBe(near);
    }
    const kept = 'use ASIA' + 'abcdefghijklmnop' + ' now';
    expect(redactText(kept)).toBe(kept);
    expect(redactText('use AROA' + 'ABCDEFGHIJKLMNOP' + ' now')).toBe(`use ${S} now`);
  });

  it('every GitHub classic prefix counts, other letters do not', () => {
    for (const p of ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_']) expect(redactText(`t ${p}${alnum(24)} end`), p).toBe(`t ${S} end`);
    const kept = `t ghx_${alnum(24)} end`;
    expect(redactText(kept)).toBe(kept);
  });

  it('every Slack token prefix counts', () => {
    for (const p of ['xoxa-', 'xoxb-', 'xoxp-', 'xoxr-', 'xoxs-', 'xoxe-']) expect(redactText(`t ${p}1234-abcd-EFGH end`), p).toBe(`t ${S} end`);
  });

  it('Stripe keys: secret, restricted and publishable, live and test', () => {
    for (const p of ['sk_live_', 'rk_live_', 'pk_test_', 'sk_test_']) expect(redactText(`k ${p}${alnum(12)}.`), p).toBe(`k ${S}.`);
  });

  it('a Google API key is AIza then exactly 35 characters', () => {
    expect(redactText(`key AIza${alnum(35)} end`)).toBe(`key ${S} end`);
    const kept = `key AIza${alnum(34)} end`;
    expect(redactText(kept)).toBe(kept);
    // A 36th character is not part of the key.
    expect(redactText(`key AIza${alnum(35)}Z end`)).toBe(`key ${S}Z end`);
  });

  it('an npm token is npm_ then exactly 36 letters or digits, as a whole word', () => {
    expect(redactText(`tok npm_${alnum(36)} end`)).toBe(`tok ${S} end`);
    for (const n of [35, 37]) {
      const kept = `tok npm_${alnum(n)} end`;
      expect(redactText(kept), String(n)).toBe(kept);
    }
  });

  it('a Hugging Face token must end at a word boundary', () => {
    const kept = `t hf_${alnum(40)}_x end`;
    expect(redactText(kept)).toBe(kept);
  });

  it('a DigitalOcean token is dop_v1_ then exactly 64 lower-case hex digits', () => {
    const hex = 'abcdef0'.repeat(10).slice(0, 64);
    expect(redactText(`do dop_v1_${hex} end`)).toBe(`do ${S} end`);
    const short = `do dop_v1_${hex.slice(1)} end`;
    expect(redactText(short)).toBe(short);
    const upper = `do dop_v1_${hex.toUpperCase()} end`;
    expect(redactText(upper)).toBe(upper);
  });

  it('SendGrid keys need two dotted parts of at least 16 characters each', () => {
    expect(redactText(`sg SG.${alnum(16)}.${alnum(16)} end`)).toBe(`sg ${S} end`);
    expect(redactText(`sg SG.${alnum(22)}.${alnum(43)} end`)).toBe(`sg ${S} end`);
    for (const t of [`SG.${alnum(15)}.${alnum(20)}`, `SG.${alnum(20)}.${alnum(15)}`]) {
      const kept = `sg ${t} end`;
      expect(redactText(kept), t).toBe(kept);
    }
  });

  it('a JWT is redacted through its signature, and with an empty signature', () => {
    expect(redactText('jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl_-x end')).toBe(`jwt ${S} end`);
    expect(redactText('jwt eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0. end')).toBe(`jwt ${S} end`);
  });

  it('a Slack webhook URL is redacted through its whole path', () => {
    expect(redactText('post to https://hooks.slack.com/services/T0AB/B0CD/xYz_1-2 now')).toBe(`post to ${S} now`);
  });
});

describe('Bearer tokens', () => {
  it('any run of spaces and tabs may separate the scheme from the token, and is kept', () => {
    expect(redactText('Bearer  abcdefgh12 end')).toBe(`Bearer  ${S} end`);
    expect(redactText('Bearer \tabcdefgh12 end')).toBe(`Bearer \t${S} end`);
  });

  it('lowercase bearer: a token with any non-letter is a secret, letters (and padding) alone are prose', () => {
    expect(redactText('bearer abcdefgh12 end')).toBe(`bearer ${S} end`);
    expect(redactText('bearer abcd.efgh end')).toBe(`bearer ${S} end`);
    expect(redactText('the bearer document')).toBe('the bearer document');
    expect(redactText('bearer abcdefgh== x')).toBe('bearer abcdefgh== x');
  });
});

describe('passwords in URLs', () => {
  it('a scheme of 1 to 31 characters starts a URL; a longer run of letters is not a scheme', () => {
    expect(redactText('x://app:pa55@db')).toBe(`x://app:${S}@db`);
    expect(redactText('see x://app:pa55@db')).toBe(`see x://app:${S}@db`);
    const scheme31 = 'a'.repeat(31);
    expect(redactText(`${scheme31}://app:pa55@db`)).toBe(`${scheme31}://app:${S}@db`);
    const glued = `${'a'.repeat(32)}://app:pa55@db`;
    expect(redactText(glued)).toBe(glued);
  });
});

describe('credential assignments: what stays around the value', () => {
  it('keeps every closing punctuation character after the value', () => {
    expect(redactText('call(password=hunter2);')).toBe(`call(password=${S});`);
    expect(redactText('{token: abc123"}],')).toBe(`{token: ${S}"}],`);
  });

  it('punctuation inside the value is part of the value', () => {
    expect(redactText('password=ab,cd end')).toBe(`password=${S} end`);
    expect(redactText('password=a)b;c end')).toBe(`password=${S} end`);
  });

  it('a value made only of closing punctuation is no value: the text is kept', () => {
    for (const text of ['f(password=)', 'args: password=, user=ana', 'x = {secret: }']) expect(redactText(text), text).toBe(text);
  });

  it('a value that merely ends like a marker is still a secret', () => {
    expect(redactText('password=abc[REDACTED: end')).toBe(`password=${S} end`);
  });

  it('an existing marker as the value is kept as it is', () => {
    expect(redactText(`password=${S} and token: ${S}, x`)).toBe(`password=${S} and token: ${S}, x`);
  });
});

describe('operator-configured secret values', () => {
  it('a value of exactly 4 characters is redacted, 3 is ignored', () => {
    expect(redactText('pin abcd and abc', { secretValues: ['abcd', 'abc'] })).toBe(`pin ${S} and abc`);
  });

  it('non-string entries are ignored, even ones with a length', () => {
    const values = [['a', 'b', 'c', 'd'], { length: 9 }, 12345] as unknown as string[];
    const text = 'list a,b,c,d and [object Object] and 12345';
    expect(redactText(text, { secretValues: values })).toBe(text);
  });
});

describe('operator-configured secret names', () => {
  it('the value assigned to a listed name is redacted', () => {
    expect(redactText('DEPLOY_HOOK=zz9 and MY_DEPLOY_HOOK_URL=zz9', { secretNames: ['DEPLOY_HOOK'] })).toBe(
      `DEPLOY_HOOK=${S} and MY_DEPLOY_HOOK_URL=zz9`,
    );
  });

  it('an empty name matches nothing (it would otherwise match every `: value`)', () => {
    const text = '{"k": "v", "n": 1} a : b';
    expect(redactText(text, { secretNames: [''] })).toBe(text);
  });

  it('non-string names are skipped without throwing, and the real names still apply', () => {
    const names = [42, null, 'vaultPin'] as unknown as string[];
    expect(redactText('k=v vaultPin: 1234x', { secretNames: names })).toBe(`k=v vaultPin: ${S}`);
  });
});
