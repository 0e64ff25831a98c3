/**
 * The formats and grammars of the envelope attributes (AEP-0001 §5.1, §5.4, §6): RFC 3339
 * `time`, RFC 3986 absolute `source`, W3C `traceparent`, extension names and the type grammar.
 * Shared by the reference checks (envelope.ts) and the one-pass check (envelope-pass.ts). Pure.
 */

export const EXTENSION_NAME = /^[a-z0-9]{1,20}$/;
export const CORE_TYPE = /^[a-z0-9_]+(\.[a-z0-9_]+)+$/;
export const VENDOR_TYPE = /^x\.[a-z0-9_-]+\.[a-z0-9_]+(\.[a-z0-9_]+)+$/;
export const VENDOR_COMMAND = /^x\.[a-z0-9_-]+\.control\..+$/;
export const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;
/** RFC 3986 absolute URI: scheme, then URI characters only, with well-formed percent escapes. */
export const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#[\]]|%[0-9A-Fa-f]{2})*$/;

/**
 * Why a W3C Trace Context `traceparent` value is malformed, or `undefined` when it is well-formed:
 * lowercase hex `version-traceid-parentid-flags`, version `ff` forbidden, ids not all zeros.
 */
export function traceparentProblem(v: string): string | undefined {
  if (!TRACEPARENT.test(v)) return 'is not a W3C traceparent: version-traceid-parentid-flags in lowercase hex, e.g. "00-<32 hex>-<16 hex>-01"';
  const [version, traceId, parentId] = v.split('-') as [string, string, string, string];
  if (version === 'ff') return 'uses version ff, which W3C Trace Context forbids';
  if (/^0+$/.test(traceId)) return 'has an all-zero trace id, which W3C Trace Context forbids';
  if (/^0+$/.test(parentId)) return 'has an all-zero parent id, which W3C Trace Context forbids';
  return undefined;
}

/** Days per month in a common year. */
const MONTH_DAYS: readonly number[] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** RFC 3339 `date-time` (§5.6) with calendar and clock ranges checked; leap second 60 allowed. */
export function isDateTime(s: string): boolean {
  // By hand rather than with a regular expression (envelope.fast.test.ts holds it equal to one): no
  // match array, no capture strings. `YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM)`, ASCII digits, T/t, Z/z.
  const n = s.length;
  if (n < 20 || s.charCodeAt(4) !== 0x2d || s.charCodeAt(7) !== 0x2d || s.charCodeAt(13) !== 0x3a || s.charCodeAt(16) !== 0x3a) return false;
  const t = s.charCodeAt(10);
  if (t !== 0x54 && t !== 0x74) return false;
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  const second = digits(s, 17, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return false;
  let i = 19;
  if (s.charCodeAt(i) === 0x2e) {
    const start = ++i;
    while (i < n && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39) i++;
    if (i === start) return false;
  }
  const zone = s.charCodeAt(i);
  if (zone === 0x5a || zone === 0x7a) {
    if (i + 1 !== n) return false;
  } else if (zone === 0x2b || zone === 0x2d) {
    if (i + 6 !== n || s.charCodeAt(i + 3) !== 0x3a) return false;
    const zh = digits(s, i + 1, 2);
    const zm = digits(s, i + 4, 2);
    if (zh < 0 || zm < 0 || zh > 23 || zm > 59) return false;
  } else return false;
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : MONTH_DAYS[month - 1]!;
  return day <= days && hour <= 23 && minute <= 59 && second <= 60;
}

/** The number spelled by the `count` ASCII digits of `s` at `at`, or -1 when one is not a digit. */
function digits(s: string, at: number, count: number): number {
  let v = 0;
  for (let i = at; i < at + count; i++) {
    const c = s.charCodeAt(i) - 0x30;
    if (!(c >= 0 && c <= 9)) return -1; // NaN past the end included
    v = v * 10 + c;
  }
  return v;
}
