/**
 * Subscribe-with-resume (I/O), shared by `aep tail` and `aep sink`: opens `/stream` from the
 * saved positions, drops redeliveries on (source, id) and what the saved `(source, session)`
 * positions already cover (the `from` list carries one position per session name, the
 * earliest of its sources: positions.ts), advances the positions, turns
 * `replay-exhausted` into a warning, and reconnects with backoff when the relay ends the stream.
 */
import { Resume, SeenIds, type Positions } from './positions.js';
import { openStream, type StreamEnd } from './stream.js';
import type { RelayTarget } from './relay-opts.js';

type Json = Record<string, unknown>;

export interface FollowOptions {
  target: RelayTarget;
  filter?: unknown;
  /** Positions to resume from (mutated as events arrive). Empty = see `fromAll`. */
  positions: Positions;
  /** With no positions: replay everything the relay holds (`from=all`) instead of live only. */
  fromAll: boolean;
  /** Always `from=all`, also on reconnects (the caller dedupes against what it holds: the sink). */
  alwaysAll?: boolean;
  seen?: SeenIds;
  /** The resume core to use (it owns `positions` then); default: a new one over `positions`. */
  resume?: Resume;
  /** A first-seen event: its exact data line and its parse. */
  onEvent(raw: string, event: Json): void;
  /** A line for stderr: warnings (replay-exhausted) and progress (connects, reconnects). */
  onNotice(line: string): void;
  stop: Promise<unknown>;
  backoffMs?: { min: number; max: number };
}

/** Runs until `stop` resolves (ok) or the relay refuses us (not ok; fatal errors are not retried). */
export async function follow(o: FollowOptions): Promise<{ ok: true } | { ok: false; error: string }> {
  const resume = o.resume ?? new Resume(o.positions, o.seen ?? new SeenIds());
  const { min, max } = o.backoffMs ?? { min: 250, max: 5000 };
  let stopping = false;
  let current: { close(): void } | undefined;
  let wake: (() => void) | undefined;
  void o.stop.then(() => {
    stopping = true;
    current?.close();
    wake?.();
  });
  let delay = min;
  let connected = false;
  while (!stopping) {
    const from = o.alwaysAll ? [] : resume.from();
    const s = openStream(
      o.target,
      { ...(o.filter === undefined ? {} : { filter: o.filter }), ...(from.length > 0 ? { from } : o.fromAll ? { from: 'all' as const } : {}) },
      {
        open() {
          delay = min;
          o.onNotice(
            `${connected ? 'reconnected to' : 'connected to'} ${o.target.relay}/stream${from.length > 0 ? ` resuming ${from.length} session${from.length === 1 ? '' : 's'}` : o.fromAll ? ' from everything the relay holds' : ' (live only)'}`,
          );
          connected = true;
        },
        comment(text) {
          const m = /^replay-exhausted (\S+) (\d+):(\d+)/.exec(text);
          if (m) {
            o.onNotice(
              `warning: the relay no longer holds session ${m[1]} from the saved position; the earliest it still holds is ${m[2]}:${m[3]}, so the events in between are missing here. Read them from a durable capture ('aep sink --out DIR' files, or the adapter's log) with 'aep timeline ${m[1]} --file F'`,
            );
          } else if (text.startsWith('shutting-down')) o.onNotice(`the relay at ${o.target.relay} is shutting down`);
        },
        event(raw, e) {
          if (!e || !resume.admit(e)) return;
          o.onEvent(raw, e);
        },
      },
    );
    current = s;
    const end: StreamEnd = await s.done;
    if (stopping) break;
    if (!end.ok && (end.status === 400 || end.status === 401 || end.status === 403 || !connected)) return { ok: false, error: end.error };
    o.onNotice(`${end.ok ? 'the stream ended' : end.error}; reconnecting in ${delay} ms`);
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, delay);
      wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
    delay = Math.min(max, delay * 2);
  }
  return { ok: true };
}
