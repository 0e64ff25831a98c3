/**
 * The AEP-0003 §9.4 text-redaction pipeline, hardened past its normative floor.
 *
 * Stages run in the spec's order, each over the output of the previous one:
 *   (a) secrets and credentials  -> `[REDACTED:secret]`
 *   (b) operator-listed secret values, and values of operator-listed names -> `[REDACTED:secret]`
 *   (c) home-directory prefixes  -> `~`
 *   (d) PII (emails, phone numbers, SSNs, card numbers) -> `[REDACTED:pii]`, on unless `pii: false`
 * Running it twice gives the same text as running it once: markers never match a pattern.
 * Pure: no I/O. Out of scope (documented, like the standard's corpus): base64/hex-encoded
 * secrets, homoglyph key names, secrets inside object key names, obfuscated PII.
 */
import { defineMember } from './json-shape.js';

export const SECRET_MARKER = '[REDACTED:secret]';
export const PII_MARKER = '[REDACTED:pii]';

/** Options for one redaction pass. Every member is optional. */
export interface RedactOptions {
  /** The operator's home directory (e.g. `/home/ana`); its prefix becomes `~` (rule c). Default: none; other users' homes are caught anyway. */
  home?: string;
  /** Literal secret values configured by the operator (rule b). Values shorter than 4 characters are ignored. Default: `[]`. */
  secretValues?: readonly string[];
  /**
   * Names of environment variables / config keys the operator lists as secret (rule b), e.g.
   * `DEPLOY_HOOK`. In text, the value assigned to such a name (`DEPLOY_HOOK=…`, `"DEPLOY_HOOK": "…"`)
   * is redacted; in structured values, the value under such a key is replaced whole. Names match
   * case-insensitively. Resolving a name to its current value (reading the environment) is the
   * caller's job: pass the value in `secretValues`. Default: `[]`.
   */
  secretNames?: readonly string[];
  /** Redact PII (rule d). Default: `true`, as AEP-0003 §9.4(d) requires at `redacted`. */
  pii?: boolean;
}

// ---- (a) secrets -------------------------------------------------------------------------

/** Words that make a key a credential, as a regex source (matched case-insensitively). */
const CREDENTIAL_WORD = String.raw`(?:passwd|password|passphrase|secret|api[ _-]?key|apikey|token|authorization|credentials?|private[ _-]?key|access[ _-]?key|secret[ _-]?key|client[_-]?secret)`;

/** PEM armor, any label; an unterminated block is redacted to the end of the text. */
const PEM = /-----BEGIN [A-Z0-9 ]{1,40}-----[\s\S]*?(?:-----END [A-Z0-9 ]{1,40}-----|$)/g;

/** Whole-token vendor credential shapes, redacted wherever they appear. */
const TOKEN_SHAPES: readonly RegExp[] = [
  // AWS access key ids. `AKIA` is unanchored, exactly the floor's `AKIA[0-9A-Z]{16}`: an id glued
  // to other characters (`keyAKIA…`, a 17th character) is still redacted. The other prefixes
  // (hardening) are whole words, so prose such as `…ASIA…` in a constant name survives.
  /AKIA[0-9A-Z]{16}/g,
  /\b(?:ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b/g,
  // JWT / JWS compact (`eyJ….….…`): any segment lengths, wherever it starts (`token_eyJ…`).
  /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g, // GitHub classic tokens
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g, // GitHub fine-grained PAT
  /\bglpat-[A-Za-z0-9_-]{20,}/g, // GitLab PAT
  /\bxox[abprse]-[A-Za-z0-9-]{10,}/g, // Slack tokens
  /\bhttps:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]+/g, // Slack webhook URLs
  /\bsk-[A-Za-z0-9_-]{20,}/g, // OpenAI / Anthropic (sk-proj-, sk-ant-)
  /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}/g, // Stripe
  /\bwhsec_[A-Za-z0-9]{20,}/g, // Stripe webhook secret
  /\bAIza[0-9A-Za-z_-]{35}/g, // Google API keys
  /\bya29\.[0-9A-Za-z_-]{20,}/g, // Google OAuth access tokens
  /\bnpm_[A-Za-z0-9]{36}\b/g, // npm tokens
  /\bhf_[A-Za-z0-9]{30,}\b/g, // Hugging Face
  /\bpypi-[A-Za-z0-9_-]{50,}/g, // PyPI
  /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g, // SendGrid
  /\bdop_v1_[a-f0-9]{64}\b/g, // DigitalOcean
];

/**
 * `Bearer <token>` (RFC 6750 token68, at least 8 characters), scheme case-insensitive. Written
 * `Bearer`/`BEARER` any token counts; written lowercase, a token made only of letters is taken
 * for prose ("the bearer instrument") and left alone.
 */
const BEARER = /\b(bearer)([ \t]+)([A-Za-z0-9._~+/-]{8,}=*)/gi;

/**
 * `key=value`, `key: value`, `"key": "value"`, `key=\n\nvalue` (any whitespace, as the floor's `\s*`): a credential-named key (any
 * prefix, e.g. `DB_PASSWORD`, `client_secret`; the match starts at the credential word, so a
 * prefix of any length is fine) then `=` or `:`, then the value. Groups:
 * 1 key (with its optional closing quote, possibly escaped as in JSON-inside-a-string) and
 * separator, 2 a quoted value with its quotes (`"…"`, `'…'` or escaped `\"…\"`), 3 an
 * `Authorization` scheme word, 4 an unquoted value.
 */
const ASSIGNMENT = assignmentTo(CREDENTIAL_WORD);

/** The assignment grammar above, for any key regex source (also used for rule (b) names). */
function assignmentTo(key: string): RegExp {
  return new RegExp(
    String.raw`(${key}(?:\\?["'])?\s*[=:]\s*)` +
      String.raw`(?:(\\"(?:(?!\\")[^\n])*\\"|"(?:[^"\\\n]|\\.)*"|'[^'\n]*')|((?:basic|bearer|digest|token)[ \t]+)?(\S+))`,
    'gi',
  );
}

/** `scheme://user:password@host`: the password part. */
const URL_PASSWORD = /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]{0,30}:\/\/[^\s:/@]+:)([^\s@/]+)(@)/gi;

function redactSecrets(text: string): string {
  let out = text.replace(PEM, SECRET_MARKER);
  out = out.replace(BEARER, (match, scheme: string, gap: string, token: string) =>
    scheme === 'bearer' && /^[A-Za-z]+=*$/.test(token) ? match : `${scheme}${gap}${SECRET_MARKER}`,
  );
  for (const shape of TOKEN_SHAPES) out = out.replace(shape, SECRET_MARKER);
  out = out.replace(URL_PASSWORD, (_m, head: string, _pw: string, at: string) => `${head}${SECRET_MARKER}${at}`);
  return out.replace(ASSIGNMENT, redactAssigned);
}

/** Replacer for an `assignmentTo` match: the value becomes the marker, key and quotes stay. */
function redactAssigned(match: string, head: string, quoted?: string, scheme?: string, bare?: string): string {
  if (quoted !== undefined) {
    const quote = quoted.startsWith('\\') ? '\\"' : quoted[0]!;
    const inner = quoted.slice(quote.length, -quote.length);
    return inner === '' || inner === SECRET_MARKER ? match : `${head}${quote}${SECRET_MARKER}${quote}`;
  }
  const value = bare ?? '';
  if (value.startsWith('[REDACTED:')) return match;
  // Keep closing punctuation that belongs to the surrounding syntax, never the value's body.
  const tail = /["'`,;)\]}]+$/.exec(value)?.[0] ?? '';
  const body = value.slice(0, value.length - tail.length);
  if (body === '' || body.startsWith('[REDACTED:')) return match;
  return `${head}${scheme ?? ''}${SECRET_MARKER}${tail}`;
}

// ---- (b) configured values ---------------------------------------------------------------

function redactConfigured(text: string, values: readonly string[], names: readonly string[]): string {
  const usable = [...new Set(values)].filter((v) => typeof v === 'string' && v.length >= 4).sort((a, b) => b.length - a.length);
  let out = text;
  for (const v of usable) out = out.split(v).join(SECRET_MARKER);
  for (const name of names) {
    if (typeof name !== 'string' || name === '') continue;
    // The name as a whole identifier: `DEPLOY_HOOK`, not `MY_DEPLOY_HOOK_URL`.
    out = out.replace(assignmentTo(String.raw`(?<![A-Za-z0-9_])${escapeRegExp(name)}(?![A-Za-z0-9_])`), redactAssigned);
  }
  return out;
}

// ---- (c) home paths ----------------------------------------------------------------------

/** Where a path may start: text start, whitespace, quotes, assignment/list punctuation, or `file://`. */
const PATH_START = String.raw`(?<=^|[\s"'\`(=:,;\[{<>|]|file://)`;
const POSIX_HOME = new RegExp(String.raw`${PATH_START}(?:/home/[^/\s"'\`:;,)\]}]+|/Users/[^/\s"'\`:;,)\]}]+|/root)(?=[/\s"'\`:;,)\]}]|$)`, 'g');
const WINDOWS_HOME = /(?<![A-Za-z0-9])[A-Za-z]:(?:\\{1,2}|\/)Users(?:\\{1,2}|\/)[^\\/\s"'`:;,)\]}]+(?=[\\/\s"'`:;,)\]}]|$)/gi;

function redactHomes(text: string, home: string | undefined): string {
  let out = text;
  const own = home?.replace(/[\\/]+$/, '');
  if (own && own.length > 1) {
    out = out.replace(new RegExp(`${escapeRegExp(own)}(?=[\\\\/\\s"'\`:;,)\\]}]|$)`, 'g'), '~');
  }
  return out.replace(WINDOWS_HOME, '~').replace(POSIX_HOME, '~');
}

// ---- (d) PII -----------------------------------------------------------------------------

/** Email addresses; `user@host:path` (an scp/SSH remote such as `git@github.com:o/r`) is not one. */
const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b(?![.-]?[A-Za-z0-9]|:\S)/g;
/** International numbers: `+` country code then 7 to 14 more digits in groups. */
const PHONE_INTL = /(?<![\w+])\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){2,5}(?![\w.]\d|\w)/g;
/**
 * North American shapes: `(415) 555-0100`, `415-555-0100`, `415.555.0100`, `415 555 0100` (one
 * separator style), optionally after the trunk prefix `1` (`1-800-555-0199`, `1 (800) 555-0199`).
 */
const PHONE_NANP = /(?<![\w.+/-])(?:1[-. ]?)?(?:\(\d{3}\)[ ]?\d{3}[-. ]|\d{3}([-. ])\d{3}\1)\d{4}(?![\w-]|\.\d)/g;
/**
 * Any number a phone word labels (`tel: 020 7946 0958`, `phone 555-0100`, `fax no. 030 1234567`):
 * 7 to 15 digits in groups. Group 1 is the label, group 2 the number.
 */
const PHONE_LABELLED = /(\b(?:tel|telephone|phone|mobile|cell|fax|sms|whatsapp)\b(?:[ \t]*(?:no\.?|number|#))?[ \t]*[:=]?[ \t]*)(\+?\(?\d[\d ().-]{4,20}\d)(?![\w-]|\.\d)/gi;
/** US social security numbers `123-45-6789`. */
const SSN = /(?<![\w.-])\d{3}-\d{2}-\d{4}(?![\w-]|\.\d)/g;
/** Payment card numbers (13-19 digits, optional space/dash groups), confirmed by issuer prefix and the Luhn check. */
const CARD = /(?<![\w.-])\d(?:[ -]?\d){12,18}(?![\w-]|\.\d)/g;
/**
 * Card issuer prefixes (Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay). Without this a
 * tenth of all epoch-millisecond and epoch-nanosecond timestamps (13 and 19 digits starting `17`)
 * would pass Luhn and be shredded as PII.
 */
const CARD_ISSUER = /^(?:4|5[1-5]|2[2-7]|3[04678]|35|6(?:011|2|4[4-9]|5))/;

function redactPii(text: string): string {
  return text
    .replace(EMAIL, PII_MARKER)
    .replace(CARD, (m) => {
      const digits = m.replace(/\D/g, '');
      return CARD_ISSUER.test(digits) && luhn(digits) ? PII_MARKER : m;
    })
    .replace(PHONE_INTL, (m) => {
      const digits = m.replace(/\D/g, '').length;
      return digits >= 8 && digits <= 15 ? PII_MARKER : m;
    })
    .replace(PHONE_NANP, PII_MARKER)
    .replace(PHONE_LABELLED, (m, label: string, number: string) => {
      const digits = number.replace(/\D/g, '').length;
      return digits >= 7 && digits <= 15 ? `${label}${PII_MARKER}` : m;
    })
    .replace(SSN, PII_MARKER);
}

function luhn(digits: string): boolean {
  if (/^(\d)\1+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

// ---- public API --------------------------------------------------------------------------

/** Run the §9.4 pipeline over one string. Safe on any input; never throws. */
export function redactText(text: string, opts: RedactOptions = {}): string {
  if (typeof text !== 'string' || text === '') return text;
  let out = redactSecrets(text);
  out = redactConfigured(out, opts.secretValues ?? [], opts.secretNames ?? []);
  out = redactHomes(out, opts.home);
  if (opts.pii !== false) out = redactPii(out);
  return out;
}

/**
 * Redact every string inside a JSON value; returns a new value, never mutates. Object keys are
 * structural and kept. A value under a credential-named key (`password`, `api_key`, `apiKey`,
 * `GITHUB_TOKEN`, `client_secret`, `Authorization`, ..., or a name in `opts.secretNames`) is replaced whole by `[REDACTED:secret]`,
 * whatever it holds, except `null` and booleans, which cannot carry a secret. Other non-string
 * scalars are kept as they are.
 */
export function redactValue<T>(value: T, opts: RedactOptions = {}): T {
  return walk(value, opts) as T;
}

/** True when an object key names a credential (whole key, case-insensitive, any prefix). */
export function isCredentialKey(key: string): boolean {
  const normalized = key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  return CREDENTIAL_KEY.test(normalized);
}

const CREDENTIAL_KEY = /(?:^|[_.-])(?:passwd|password|passphrase|secret|api[_-]?key|apikey|token|authorization|credentials?|private[_-]?key|access[_-]?key|secret[_-]?key|client[_-]?secret)$/;

function walk(value: unknown, opts: RedactOptions): unknown {
  // Iterative (an explicit stack), so no nesting depth overflows the call stack; keys are
  // copied as own data properties (`__proto__` stays a member, never a prototype link).
  const names = (opts.secretNames ?? []).filter((n): n is string => typeof n === 'string').map((n) => n.toLowerCase());
  const one = (item: unknown, stack: Array<{ src: object; dst: unknown[] | Record<string, unknown> }>): unknown => {
    if (typeof item === 'string') return redactText(item, opts);
    if (item === null || typeof item !== 'object') return item;
    const dst: unknown[] | Record<string, unknown> = Array.isArray(item) ? [] : {};
    stack.push({ src: item, dst });
    return dst;
  };
  const stack: Array<{ src: object; dst: unknown[] | Record<string, unknown> }> = [];
  const root = one(value, stack);
  while (stack.length > 0) {
    const { src, dst } = stack.pop()!;
    if (Array.isArray(src)) {
      for (const item of src) (dst as unknown[]).push(one(item, stack));
      continue;
    }
    for (const [key, inner] of Object.entries(src as Record<string, unknown>)) {
      const secretKey = isCredentialKey(key) || names.includes(key.toLowerCase());
      defineMember(dst as Record<string, unknown>, key, secretKey && inner !== null && typeof inner !== 'boolean' && inner !== undefined ? SECRET_MARKER : one(inner, stack));
    }
  }
  return root;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
