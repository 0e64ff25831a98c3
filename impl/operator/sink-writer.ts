/**
 * The durable writer behind `aep sink` (I/O). Lines are buffered and flushed at most every
 * `flushMs` or every `batch` events; each flush writes, fsyncs every touched file, and only
 * then commits the positions to the state file, so the state may lag the files, never lead.
 * On open it repairs: a torn final line is truncated, and the last durable line of each
 * (source, session) (not the state file) becomes the resume authority; the (source, id) keys on
 * disk seed the dedupe set. Positions are per (source, session) (AEP-0001 §5.2): two sources
 * sharing a session name never hide each other's events.
 */
import { closeSync, fsyncSync, openSync, readFileSync, readdirSync, renameSync, statSync, ftruncateSync, writeSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, covers, emptyPositions, entries, positionFor, positionOf, renderState, setPosition, type Positions } from './positions.js';
import { STATE_FILE, durableLength, encodeSession, eventKey, parseName, summarize } from './sink-files.js';
import { ensureDir } from '../adapter-kit/ensure-dir.js';

type Json = Record<string, unknown>;

export interface SinkOptions {
  dir: string;
  /** Rotate a live file that would grow past this many bytes; undefined = never. */
  rotateBytes?: number;
  flushMs?: number;
  batch?: number;
  notice?: (line: string) => void;
  /** Injected clock for rotated names. */
  now?: () => number;
}

interface Open {
  fd: number;
  size: number;
  pending: string[];
}

export interface RecoveryReport {
  sessions: number;
  torn: Array<{ file: string; bytes: number }>;
}

export class SinkWriter {
  /** The last position written (buffered or durable) per (source, session): the dedupe horizon. */
  readonly written: Positions = emptyPositions();
  /** Positions covered by an fsync. */
  readonly durable: Positions = emptyPositions();
  private readonly keys = new Set<string>();
  private readonly files = new Map<string, Open>();
  private timer: NodeJS.Timeout | undefined;
  private pendingCount = 0;
  events = 0;
  duplicates = 0;
  rotations = 0;

  constructor(private readonly o: SinkOptions) {}

  /** Creates DIR, repairs each live file and loads what is on disk. */
  recover(): RecoveryReport {
    ensureDir(this.o.dir);
    const report: RecoveryReport = { sessions: 0, torn: [] };
    const bySession = new Map<string, Array<{ name: string; rotated: number }>>();
    for (const name of readdirSync(this.o.dir)) {
      const p = parseName(name);
      if (!p) continue;
      const list = bySession.get(p.session) ?? [];
      list.push({ name, rotated: p.rotated ?? Number.MAX_SAFE_INTEGER });
      bySession.set(p.session, list);
    }
    for (const list of bySession.values()) {
      report.sessions++;
      list.sort((a, b) => a.rotated - b.rotated);
      for (const f of list) {
        const path = join(this.o.dir, f.name);
        let bytes = readFileSync(path);
        const keep = durableLength(bytes);
        if (keep < bytes.length) {
          const fd = openSync(path, 'r+');
          ftruncateSync(fd, keep);
          fsyncSync(fd);
          closeSync(fd);
          report.torn.push({ file: f.name, bytes: bytes.length - keep });
          bytes = bytes.subarray(0, keep);
        }
        const s = summarize(bytes.toString('utf8'));
        for (const k of s.keys) this.keys.add(k);
        for (const x of entries(s.positions)) {
          const cur = positionFor(this.written, x.source, x.session);
          if (cur && !after(x.pos, cur)) continue;
          setPosition(this.written, x.source, x.session, x.pos);
          setPosition(this.durable, x.source, x.session, x.pos);
        }
      }
    }
    return report;
  }

  /**
   * Accepts one event (its exact line). Returns false for a duplicate: a (source, id) already on
   * disk, or a sequenced event at or before its (source, session)'s last written position.
   */
  accept(raw: string, e: Json): boolean {
    const key = eventKey(e);
    const session = typeof e.session === 'string' ? e.session : '_no-session';
    const p = positionOf(e);
    const last = p ? positionFor(this.written, p.source, p.session) : undefined;
    if (this.keys.has(key) || covers(this.written, e)) {
      this.duplicates++;
      return false;
    }
    if (p && last && p.pos.epoch === last.epoch && p.pos.seq > last.seq + 1) {
      this.o.notice?.(`warning: session ${session} jumps from ${last.epoch}:${last.seq} to ${p.pos.epoch}:${p.pos.seq} (source ${p.source}); the relay no longer held the events in between`);
    }
    this.keys.add(key);
    if (this.keys.size > 200_000) this.keys.delete(this.keys.values().next().value as string);
    if (p) setPosition(this.written, p.source, p.session, p.pos);
    const f = this.file(session);
    const line = `${raw}\n`;
    const len = Buffer.byteLength(line);
    if (this.o.rotateBytes !== undefined && f.size > 0 && f.size + len > this.o.rotateBytes) this.rotate(session);
    const g = this.file(session);
    g.pending.push(line);
    g.size += len;
    this.events++;
    this.pendingCount++;
    if (this.pendingCount >= (this.o.batch ?? 64)) this.flush();
    else if (!this.timer) this.timer = setTimeout(() => this.flush(), this.o.flushMs ?? 500);
    return true;
  }

  /** Writes every pending line, fsyncs each touched file, then commits the state file. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pendingCount === 0) return;
    for (const f of this.files.values()) {
      if (f.pending.length === 0) continue;
      writeSync(f.fd, f.pending.join(''));
      f.pending = [];
      fsyncSync(f.fd);
    }
    this.pendingCount = 0;
    for (const x of entries(this.written)) setPosition(this.durable, x.source, x.session, x.pos);
    this.commitState();
  }

  /** Flush, fsync, state, close every file. */
  close(): void {
    this.flush();
    this.commitState();
    for (const f of this.files.values()) closeSync(f.fd);
    this.files.clear();
  }

  private commitState(): void {
    const path = join(this.o.dir, STATE_FILE);
    const tmp = `${path}.tmp`;
    const fd = openSync(tmp, 'w');
    writeSync(fd, renderState(this.durable));
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, path);
  }

  private file(session: string): Open {
    let f = this.files.get(session);
    if (!f) {
      const path = join(this.o.dir, `${encodeSession(session)}.jsonl`);
      const fd = openSync(path, 'a');
      f = { fd, size: existsSync(path) ? statSync(path).size : 0, pending: [] };
      this.files.set(session, f);
    }
    return f;
  }

  private rotate(session: string): void {
    const f = this.files.get(session)!;
    if (f.pending.length > 0) {
      writeSync(f.fd, f.pending.join(''));
      this.pendingCount -= f.pending.length;
      f.pending = [];
    }
    fsyncSync(f.fd);
    closeSync(f.fd);
    this.files.delete(session);
    const enc = encodeSession(session);
    let ts = (this.o.now ?? Date.now)();
    while (existsSync(join(this.o.dir, `${enc}.${ts}.jsonl`))) ts++;
    renameSync(join(this.o.dir, `${enc}.jsonl`), join(this.o.dir, `${enc}.${ts}.jsonl`));
    this.rotations++;
    this.o.notice?.(`rotated ${enc}.jsonl to ${enc}.${ts}.jsonl`);
  }
}
