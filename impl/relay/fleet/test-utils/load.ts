/**
 * Test-only: steady load and its accounting for the cluster tests. A posting client that retries
 * a 503 (after its `Retry-After`) with the same events, and the loss and duplicate counts taken at
 * the consumers: loss counts acknowledged events a consumer never saw; duplicates count copies
 * beyond one, less the copies the client itself caused by re-posting (AEP-0003 §5: a re-posted
 * event is forwarded live again; consumers dedupe by `(source, id)`).
 */
import { makeEvent, post, sleep } from '../../test-utils/testing.js';

export interface PostLog {
  /** Events (by id) answered 202, in order. */
  readonly acknowledged: string[];
  /** How many times each id was posted. */
  readonly posts: Map<string, number>;
  /** 503 answers, and how many of them carried `Retry-After`. */
  unavailable: number;
  retryAfter: number;
  /** Other non-202 answers, as `status body`. */
  readonly other: string[];
  /** The longest single POST, in ms. */
  slowestMs: number;
  /** When each 202 arrived (epoch ms), in order. */
  readonly ackedAt: number[];
  /** When the POST answered by each 202 was sent (epoch ms), parallel to `ackedAt`. */
  readonly sentAt: number[];
  /** The distinct `detail`s of the 503 answers, and how long each such POST took (the first 20). */
  readonly refusals: string[];
}

export const newPostLog = (): PostLog => ({ acknowledged: [], posts: new Map(), unavailable: 0, retryAfter: 0, other: [], slowestMs: 0, ackedAt: [], sentAt: [], refusals: [] });

/** The time from `at` to the first 202 that arrived after it, in ms (-1 when none did). */
export function firstAckAfter(log: PostLog, at: number): number {
  const t = log.ackedAt.find((a) => a >= at);
  return t === undefined ? -1 : t - at;
}

/**
 * The node's own part of the wait once the broker could acknowledge again at `brokerAt`: for the
 * first 202 that arrived after it, the time from `brokerAt` or from the POST's sending, whichever
 * is later (-1 when none did). A client pausing for `Retry-After` before its next try is not the
 * node's delay.
 */
export function nodeLagAfter(log: PostLog, brokerAt: number): number {
  const i = log.ackedAt.findIndex((a) => a >= brokerAt);
  return i < 0 ? -1 : log.ackedAt[i]! - Math.max(log.sentAt[i]!, brokerAt);
}

/** Median and worst of a list of durations (ms). */
export function medianWorst(values: readonly number[]): { median: number; worst: number } {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length === 0 ? 0 : sorted.length % 2 === 1 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
  return { median, worst: sorted.length === 0 ? 0 : sorted[sorted.length - 1]! };
}

/** One event line of session `session` at `seq`, with a stable id. */
export function loadEvent(session: string, seq: number): { id: string; line: string } {
  const id = `${session}-${seq}`;
  return { id, line: JSON.stringify(makeEvent({ id, session, seq })) };
}

/**
 * Post `events` in batches of `batch`; a 503 is retried (same batch) after its Retry-After (capped
 * at `maxWaitMs`), any other non-202 is recorded and retried too, until `deadline`. `onBatch` runs
 * after each acknowledged batch (a test kills a server from there).
 */
export async function postAll(
  url: string,
  events: ReadonlyArray<{ id: string; line: string }>,
  log: PostLog,
  opts: { batch?: number; pauseMs?: number; maxWaitMs?: number; deadline?: number; onBatch?: (done: number) => Promise<void> | void } = {},
): Promise<void> {
  const size = opts.batch ?? 10;
  const deadline = opts.deadline ?? Date.now() + 90_000;
  for (let first = 0; first < events.length; first += size) {
    const batch = events.slice(first, first + size);
    for (;;) {
      if (Date.now() > deadline) throw new Error(`postAll: events ${first}..${first + batch.length - 1} still unacknowledged at the deadline (${log.unavailable} 503s, other: ${log.other.slice(-3).join(' | ')})`);
      for (const e of batch) log.posts.set(e.id, (log.posts.get(e.id) ?? 0) + 1);
      const t0 = Date.now();
      let res: Awaited<ReturnType<typeof post>>;
      try {
        res = await post(url, batch.map((e) => e.line));
      } catch (err) {
        log.other.push(`network ${(err as Error).message}`);
        await sleep(200);
        continue;
      }
      log.slowestMs = Math.max(log.slowestMs, Date.now() - t0);
      if (res.status === 202) {
        log.ackedAt.push(Date.now());
        log.sentAt.push(t0);
        log.acknowledged.push(...batch.map((e) => e.id));
        break;
      }
      if (res.status === 503) {
        log.unavailable++;
        if (log.refusals.length < 20) log.refusals.push(`${Date.now() - t0} ms: ${String((res.body as { detail?: unknown } | null)?.detail ?? '')}`);
        const after = Number(res.headers['retry-after']);
        if (Number.isFinite(after) && after > 0) log.retryAfter++;
        await sleep(Math.min((Number.isFinite(after) ? after : 1) * 1000, opts.maxWaitMs ?? 1000));
        continue;
      }
      log.other.push(`${res.status} ${JSON.stringify(res.body)}`);
      await sleep(200);
    }
    await opts.onBatch?.(first + batch.length);
    if (opts.pauseMs) await sleep(opts.pauseMs);
  }
}

/** The `data:` payloads of the complete SSE messages in `text`. */
export function sseData(text: string): string[] {
  const complete = text.slice(0, text.lastIndexOf('\n\n') + 2);
  return complete
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => l.slice(6));
}

/** Loss and duplicates of `ids` (what one consumer received) against the client's log. */
export function account(received: readonly string[], log: PostLog): { loss: number; duplicates: number } {
  const counts = new Map<string, number>();
  for (const id of received) counts.set(id, (counts.get(id) ?? 0) + 1);
  let loss = 0;
  for (const id of log.acknowledged) if (!counts.has(id)) loss++;
  let duplicates = 0;
  for (const [id, n] of counts) duplicates += Math.max(0, n - (log.posts.get(id) ?? 1));
  return { loss, duplicates };
}

/** Ids of the events in SSE text. */
export const idsOf = (text: string): string[] => sseData(text).map((d) => (JSON.parse(d) as { id: string }).id);

/** Copies beyond one, per id: what a replay (one copy per stored event) must show as 0. */
export function extraCopies(ids: readonly string[]): number {
  return ids.length - new Set(ids).size;
}
