/**
 * The file name of a session's log, `logs/<agent>/<name>.jsonl`, pure. Session ids are untrusted
 * input (AEP-0003 §9.6), so the name must be safe on disk and distinct sessions must never share a
 * file (their events would interleave in one record).
 *
 * The mapping is injective:
 * - a byte in [A-Za-z0-9._-] stands for itself, except a leading `.`, `_` or `-` (no hidden
 *   file, no `..`, nothing read as a flag); every other byte is `%XX` (upper-case hex, UTF-8);
 * - the empty id is `%` (a bare `%` never appears otherwise);
 * - a name longer than {@link MAX_STEM}, or an id holding a lone UTF-16 surrogate (which UTF-8
 *   cannot carry, so its bytes alone would not tell it from U+FFFD), keeps the first characters
 *   (never cutting a `%XX`) and ends in `~` plus 32 hex digits of the SHA-256 of the id's JSON
 *   form (`~` never appears otherwise).
 *
 * An id that was already safe (letters, digits, `.`, `_`, `-`, not leading with `.`, `_`, `-`, at
 * most 200 characters: every UUID-like id) keeps the name the earlier mapping gave it, so its log
 * goes on in the same file. The earlier mapping (every other character to `_`, leading `._-`
 * dropped, cut at 200) sent `a/b` and `a_b` to one file; such files stay where they are and are
 * still read wherever the logs of an agent are scanned (the epoch's derivation reads every
 * `*.jsonl`), but no new event is appended to them under another session's name.
 */
import { createHash } from 'node:crypto';

/** The longest stem (the name without `.jsonl`) kept as it is; longer ones are cut and hashed. */
export const MAX_STEM = 200;

const PLAIN = /^[A-Za-z0-9._-]$/;
const LEADING = /^[._-]$/;
const LONE_SURROGATE = /\p{Surrogate}/u;

function escapeByte(b: number): string {
  return `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
}

/** The file stem of a session id (without `.jsonl`). */
export function sessionFileStem(session: string): string {
  if (session === '') return '%';
  let stem = '';
  for (const b of Buffer.from(session, 'utf8')) {
    const c = String.fromCharCode(b);
    stem += b < 0x80 && PLAIN.test(c) && !(stem === '' && LEADING.test(c)) ? c : escapeByte(b);
  }
  if (stem.length <= MAX_STEM && !LONE_SURROGATE.test(session)) return stem;
  const digest = createHash('sha256').update(JSON.stringify(session), 'utf8').digest('hex').slice(0, 32);
  let keep = Math.min(stem.length, MAX_STEM - 33);
  const pct = stem.lastIndexOf('%', keep - 1);
  if (pct !== -1 && pct > keep - 3) keep = pct; // never cut inside a %XX
  return `${stem.slice(0, keep)}~${digest}`;
}

/** A session id made safe, and distinct from every other id's, as a file name. */
export function sessionFileName(session: string): string {
  return `${sessionFileStem(session)}.jsonl`;
}

/**
 * The session id a log file name stands for; undefined for a hashed (cut) name, for a name of the
 * earlier mapping that is not also one of this mapping, and for anything that is not a log.
 */
export function sessionOfFileName(name: string): string | undefined {
  if (!name.endsWith('.jsonl')) return undefined;
  const stem = name.slice(0, -'.jsonl'.length);
  if (stem === '%') return '';
  if (!/^(?:[A-Za-z0-9._-]|%[0-9A-F]{2})+$/.test(stem)) return undefined;
  let session: string;
  try {
    session = decodeURIComponent(stem);
  } catch {
    return undefined;
  }
  return sessionFileStem(session) === stem ? session : undefined;
}
