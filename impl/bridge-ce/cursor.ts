/**
 * The sidecar's resume position: per session, the `(epoch, seq)` of the last event the sink
 * ACCEPTED, plus a bounded window of recently delivered event ids (for events with no position,
 * and as the dedupe key across replays, AEP-0001 §7.4). Persisted as JSON after every accepted
 * delivery so a restarted sidecar resumes where it stopped. Pure apart from the optional file.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AepEvent } from '../core/event.js';
import { ensureDir } from '../adapter-kit/ensure-dir.js';

export interface CursorState {
  positions: Record<string, { epoch: number; seq: number }>;
  recentIds: string[];
}

const MAX_IDS = 10_000;

export class Cursor {
  private readonly positions = new Map<string, { epoch: number; seq: number }>();
  private readonly ids = new Set<string>();

  constructor(private readonly file?: string) {
    if (!file) return;
    let raw: string;
    try {
      raw = readFileSync(file, 'utf8');
    } catch {
      return;
    }
    const state = JSON.parse(raw) as CursorState;
    for (const [s, p] of Object.entries(state.positions ?? {})) this.positions.set(s, p);
    for (const id of state.recentIds ?? []) this.ids.add(id);
  }

  /** True when a resume position exists (the sidecar then replays with `from=all` and dedupes). */
  get resumable(): boolean {
    return this.positions.size > 0 || this.ids.size > 0;
  }

  /** True when this event was already accepted by the sink (same id, or at/before the session position). */
  seen(event: AepEvent): boolean {
    if (this.ids.has(event.id)) return true;
    if (typeof event.session !== 'string' || typeof event.seq !== 'number') return false;
    const p = this.positions.get(event.session);
    if (!p) return false;
    const epoch = event.epoch ?? 0;
    return epoch < p.epoch || (epoch === p.epoch && event.seq <= p.seq);
  }

  /**
   * The gap before `event`, judged the way the relay judges a resume position (AEP-0003 §5):
   * when this session has a position and the event, the first the relay sent of the session on
   * a subscription, lies after it without being its successor (same epoch, seq + 1), the events
   * in between were no longer held. Returns the cursor's position and the event's, or undefined.
   */
  gapBefore(event: AepEvent): { after: { epoch: number; seq: number }; earliest: { epoch: number; seq: number } } | undefined {
    if (typeof event.session !== 'string' || typeof event.seq !== 'number') return undefined;
    const p = this.positions.get(event.session);
    if (!p) return undefined;
    const earliest = { epoch: event.epoch ?? 0, seq: event.seq };
    const later = earliest.epoch > p.epoch || (earliest.epoch === p.epoch && earliest.seq > p.seq);
    const successor = earliest.epoch === p.epoch && earliest.seq === p.seq + 1;
    return later && !successor ? { after: { ...p }, earliest } : undefined;
  }

  /** Record accepted events and persist. */
  accept(events: readonly AepEvent[]): void {
    for (const e of events) {
      this.ids.add(e.id);
      if (typeof e.session === 'string' && typeof e.seq === 'number') {
        const epoch = e.epoch ?? 0;
        const p = this.positions.get(e.session);
        if (!p || epoch > p.epoch || (epoch === p.epoch && e.seq > p.seq)) this.positions.set(e.session, { epoch, seq: e.seq });
      }
    }
    while (this.ids.size > MAX_IDS) this.ids.delete(this.ids.values().next().value as string);
    this.save();
  }

  snapshot(): CursorState {
    return { positions: Object.fromEntries(this.positions), recentIds: [...this.ids] };
  }

  private save(): void {
    if (!this.file) return;
    ensureDir(dirname(this.file));
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.snapshot()));
    renameSync(tmp, this.file);
  }
}
