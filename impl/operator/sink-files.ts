/**
 * The sink's on-disk layout and crash repair, pure: file names per session, the torn-line cut,
 * and what the durable lines of a file say (the last position per (source, session), the
 * (source, id) keys already written).
 *
 * Layout in DIR: `<enc>.jsonl` is a session's live file, `<enc>.<unix-ms>.jsonl` a rotated
 * segment (never reopened), `.sink-state.json` the committed positions. `<enc>` is the session
 * id with every byte outside [A-Za-z0-9_-] percent-encoded (dots too), so the two never clash.
 * Two sources that share a session name append to the same file (each line carries its own
 * `source`); what a file says is read from its lines, never from its name, so they never
 * shadow each other (nor would two names a case-insensitive filesystem folds together).
 */
import { advance, emptyPositions, eventKey, type Positions } from './positions.js';

export { eventKey };

export const STATE_FILE = '.sink-state.json';

export function encodeSession(session: string): string {
  return [...Buffer.from(session, 'utf8')].map((b) => (/[A-Za-z0-9_-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

export function decodeSession(enc: string): string {
  return decodeURIComponent(enc);
}

/** A file name of the layout, parsed; undefined for anything else in DIR. */
export function parseName(name: string): { session: string; rotated?: number } | undefined {
  const m = /^([A-Za-z0-9_%-]+?)(?:\.(\d+))?\.jsonl$/.exec(name);
  if (!m) return undefined;
  try {
    return { session: decodeSession(m[1]!), ...(m[2] ? { rotated: Number(m[2]) } : {}) };
  } catch {
    return undefined;
  }
}

/** How many leading bytes to keep: everything up to the last newline (a torn final line is cut). */
export function durableLength(bytes: Uint8Array): number {
  for (let i = bytes.length - 1; i >= 0; i--) if (bytes[i] === 0x0a) return i + 1;
  return 0;
}

export interface FileSummary {
  /** The highest position per (source, session) among the durable sequenced lines. */
  positions: Positions;
  /** (source, id) keys of the durable lines. */
  keys: string[];
  lines: number;
}

/** Reads the durable part of a file (call after the torn-line cut). Unparseable lines are skipped. */
export function summarize(text: string): FileSummary {
  const out: FileSummary = { positions: emptyPositions(), keys: [], lines: 0 };
  for (const line of text.split('\n')) {
    if (line === '') continue;
    out.lines++;
    let e: unknown;
    try {
      e = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof e !== 'object' || e === null) continue;
    const ev = e as Record<string, unknown>;
    out.keys.push(eventKey(ev));
    advance(out.positions, ev);
  }
  return out;
}
