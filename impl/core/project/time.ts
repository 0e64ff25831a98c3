/**
 * RFC 3339 timestamps as exact epoch instants, for the OTLP (nanoseconds) and
 * OCSF (milliseconds) projections of AEP-0005. Pure: no clock is read.
 */

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9})\d*)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * Epoch nanoseconds of an RFC 3339 date-time, exact (fraction digits beyond the
 * ninth are truncated), or `null` when `time` is not an RFC 3339 date-time with offset.
 */
export function epochNanos(time: string): bigint | null {
  const m = RFC3339.exec(time);
  if (m === null) return null;
  const [, y, mo, d, h, mi, s, frac = '', , sign, oh, om] = m;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 60) return null;
  const utcMs = Date.UTC(Number(y), month - 1, day, Number(h), Number(mi), Number(s));
  if (new Date(utcMs).getUTCDate() !== day && Number(s) !== 60) return null; // e.g. 02-30
  const offsetMin = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  const seconds = BigInt(utcMs / 1000) - BigInt(offsetMin * 60);
  return seconds * 1_000_000_000n + BigInt(frac.padEnd(9, '0'));
}

/** Epoch milliseconds (floor) of an RFC 3339 date-time, or `null` when it is not one. */
export function epochMillis(time: string): number | null {
  const ns = epochNanos(time);
  if (ns === null) return null;
  const ms = ns / 1_000_000n - (ns % 1_000_000n < 0n ? 1n : 0n);
  return Number(ms);
}
