/**
 * The sidecar's resume position: per `(source, session)`, the `(epoch, seq)` of the last event
 * the sink ACCEPTED, plus a bounded window of recently delivered `(source, id)` keys (for events
 * with no position, and as the dedupe key across replays, AEP-0001 §7.4). Two sources that
 * share an id, or a session name, are different events and different sessions (§5.2): neither
 * key is ever bare. Persisted as JSON after every accepted delivery so a restarted sidecar
 * resumes where it stopped. Pure apart from the optional file.
 *
 * File, version 2: `{"version":2,"positions":{"<session>":{"<source>":{"epoch":N,"seq":N}}},
 * "recent":[["<source>","<id>"], ...]}`. A version-1 file (bare sessions and ids, written by an
 * older aep) cannot say which source a position or id belonged to, so it is not used to drop
 * anything: the sidecar still resumes with `from=all`, and the sink receives again, once, what
 * the relay holds (at-least-once; CloudEvents receivers dedupe on `(source, id)`). `legacy`
 * says so; the next accepted delivery rewrites the file as version 2.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AepEvent } from '../../core/event.js';
import { advance, covers, emptyPositions, eventKey, positionFor, positionOf, type Position, type Positions } from '../../operator/positions.js';
import { ensureDir } from '../../adapter-kit/ensure-dir.js';

export interface CursorState {
  version: 2;
  positions: Positions;
  recent: Array<[string, string]>;
}

const MAX_IDS = 10_000;

export class Cursor {
  private readonly positions: Positions = emptyPositions();
  /** `(source, id)` key → the pair, in delivery order (oldest first). */
  private readonly ids = new Map<string, [string, string]>();
  /** Set when the file was in the version-1 format: it makes the sidecar resumable, nothing more. */
  readonly legacy: boolean = false;

  constructor(private readonly file?: string) {
    if (!file) return;
    let raw: string;
    try {
      raw = readFileSync(file, 'utf8');
    } catch {
      return;
    }
    const state = JSON.parse(raw) as Record<string, unknown>;
    if (state.version === 2) {
      for (const [session, bySource] of Object.entries((state.positions ?? {}) as Record<string, Record<string, Position>>)) {
        for (const [source, p] of Object.entries(bySource)) advance(this.positions, { source, session, epoch: p.epoch, seq: p.seq });
      }
      for (const pair of (state.recent ?? []) as Array<[string, string]>) this.ids.set(eventKey({ source: pair[0], id: pair[1] }), [pair[0], pair[1]]);
    } else {
      this.legacy = Object.keys((state.positions ?? {}) as object).length > 0 || ((state.recentIds ?? []) as unknown[]).length > 0;
    }
  }

  /** True when a resume position exists (the sidecar then replays with `from=all` and dedupes). */
  get resumable(): boolean {
    return this.legacy || Object.keys(this.positions).length > 0 || this.ids.size > 0;
  }

  /** True when this event was already accepted by the sink (same (source, id), or at/before its (source, session) position). */
  seen(event: AepEvent): boolean {
    return this.ids.has(eventKey(event)) || covers(this.positions, event);
  }

  /**
   * The gap before `event`, judged the way the relay judges a resume position (AEP-0003 §5):
   * when the event's (source, session) has a position and the event, the first the relay sent
   * of it on a subscription, lies after it without being its successor (same epoch, seq + 1),
   * the events in between were no longer held. Returns the cursor's position and the event's, or undefined.
   */
  gapBefore(event: AepEvent): { after: Position; earliest: Position } | undefined {
    const at = positionOf(event);
    if (!at) return undefined;
    const p = positionFor(this.positions, at.source, at.session);
    if (!p) return undefined;
    const earliest = at.pos;
    const later = earliest.epoch > p.epoch || (earliest.epoch === p.epoch && earliest.seq > p.seq);
    const successor = earliest.epoch === p.epoch && earliest.seq === p.seq + 1;
    return later && !successor ? { after: { ...p }, earliest } : undefined;
  }

  /** Record accepted events and persist. */
  accept(events: readonly AepEvent[]): void {
    for (const e of events) {
      const key = eventKey(e);
      this.ids.delete(key);
      this.ids.set(key, [String(e.source), String(e.id)]);
      advance(this.positions, e);
    }
    while (this.ids.size > MAX_IDS) this.ids.delete(this.ids.keys().next().value as string);
    this.save();
  }

  snapshot(): CursorState {
    return { version: 2, positions: this.positions, recent: [...this.ids.values()] };
  }

  private save(): void {
    if (!this.file) return;
    ensureDir(dirname(this.file));
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.snapshot()));
    renameSync(tmp, this.file);
  }
}

/**
 * The events waiting for the sink, in arrival order: an event enters once per `(source, id)`,
 * and not at all when the cursor says the sink already has it. `accepted(n)` records the first
 * `n` as delivered (cursor) and drops them. Pure (the cursor's file aside).
 */
export class Intake {
  readonly queue: AepEvent[] = [];
  private readonly keys = new Set<string>();
  constructor(private readonly cursor: Cursor) {}

  /** Queues `event` unless the sink has it or it is already queued; true when queued. */
  offer(event: AepEvent): boolean {
    const key = eventKey(event);
    if (this.keys.has(key) || this.cursor.seen(event)) return false;
    this.queue.push(event);
    this.keys.add(key);
    return true;
  }

  /** The sink accepted the first `n` queued events. */
  accepted(n: number): AepEvent[] {
    const batch = this.queue.splice(0, n);
    for (const e of batch) this.keys.delete(eventKey(e));
    this.cursor.accept(batch);
    return batch;
  }
}
