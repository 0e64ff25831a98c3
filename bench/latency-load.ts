/**
 * The `latency` load generator (a separate process, see `load-process.ts`): it POSTs events at a
 * steady rate and holds the SSE subscribers, so one clock times each event from the POST to its
 * arrival at every subscriber.
 *
 *   {kind:'connect', streamUrl, postUrl, tag, subscribers, ceilings}  opens `subscribers` SSE
 *       streams (unfiltered), the first `ceilings` of them with `capture=metadata` -> {kind:'ready'}
 *   {kind:'run', events, rate, checkCeilings}  POSTs `events` ~600 B events at `rate` events/s
 *       (a tick every 2 ms sends the events due, as one NDJSON body), waits for every subscriber
 *       to have them all -> {kind:'done', latencies: ms per delivery}
 *
 * Checked: each subscriber gets each event exactly once, in order; with `checkCeilings`, a
 * `metadata` subscriber never sees the planted content and the others always do.
 */
import { request, type ClientRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import { PLANTED, toolCompleted } from './fanout-events.js';
import { NdjsonPoster } from './http-client.js';
import { serveLoad } from './load-process.js';

const TICK_MS = 2;

interface Sub {
  readonly ceiling: boolean;
  readonly req: ClientRequest;
  pending: string;
  /** Next seq expected. */
  next: number;
  problem?: string;
}

let subs: Sub[] = [];
let poster: NdjsonPoster | undefined;
let session = '';
let seq = 0;
let sentAt: number[] = [];
let base = 0;
let latencies: number[] = [];
let checkCeilings = false;
let wake: (() => void) | undefined;

function onChunk(sub: Sub, chunk: string): void {
  const now = performance.now();
  const text = sub.pending === '' ? chunk : sub.pending + chunk;
  let start = 0;
  // One pass of indexOf over whole messages; the same work on both sides (every check runs for both).
  for (let end = text.indexOf('\n\n'); end !== -1; end = text.indexOf('\n\n', start)) {
    if (text.startsWith('id: ', start)) {
      const nl = text.indexOf('\n', start);
      const s = Number(text.slice(text.lastIndexOf(':', nl) + 1, nl));
      if (s !== sub.next && sub.problem === undefined) sub.problem = `a subscriber got seq ${s}, expected ${sub.next}`;
      sub.next = s + 1;
      latencies.push(now - sentAt[s - base]!);
      if (checkCeilings && sub.problem === undefined) {
        const planted = text.slice(nl, end).includes(PLANTED);
        if (sub.ceiling && planted) sub.problem = 'a metadata-ceiling subscriber received the planted content';
        else if (!sub.ceiling && !planted) sub.problem = 'an unceiled subscriber lost the event content';
      }
    }
    start = end + 2;
  }
  sub.pending = text.slice(start);
  wake?.();
}

function open(url: string, ceiling: boolean): Promise<Sub> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${ceiling ? '?capture=metadata' : ''}`, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`GET ${url} answered ${res.statusCode}`));
      res.setEncoding('utf8');
      res.socket.setNoDelay(true);
      const sub: Sub = { ceiling, req, pending: '', next: 0 };
      res.on('data', (chunk: string) => onChunk(sub, chunk));
      resolve(sub);
    });
    req.on('error', reject);
    req.end();
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function run(events: number, rate: number): Promise<number[]> {
  latencies = [];
  base = seq;
  sentAt = [];
  const start = performance.now();
  const posts: Promise<void>[] = [];
  let sent = 0;
  for (let tick = 1; sent < events; tick++) {
    const due = Math.min(events, Math.floor(((performance.now() - start) * rate) / 1000)) - sent;
    if (due > 0) {
      let body = '';
      const at = performance.now();
      for (let i = 0; i < due; i++, seq++, sent++) {
        body += `${toolCompleted(session, seq)}\n`;
        sentAt.push(at);
      }
      posts.push(
        poster!.post(body).then((r) => {
          if (r.status !== 202) throw new Error(`POST answered ${r.status}: ${r.body.slice(0, 200)}`);
        }),
      );
    }
    const wait = start + tick * TICK_MS - performance.now();
    if (wait > 0) await sleep(wait);
  }
  await Promise.all(posts);
  const done = (): boolean => subs.every((s) => s.problem !== undefined || s.next >= seq);
  if (!done()) {
    await new Promise<void>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`deliveries incomplete after 10 s: ${subs.map((s) => s.next).join(' ')} of ${seq}`)), 10_000);
      wake = () => {
        if (!done()) return;
        clearTimeout(timer);
        wake = undefined;
        ok();
      };
    });
  }
  for (const s of subs) if (s.problem) throw new Error(s.problem);
  if (latencies.length !== events * subs.length) throw new Error(`${latencies.length} deliveries timed, expected ${events * subs.length}`);
  return latencies;
}

serveLoad(
  import.meta.url,
  async (msg) => {
    if (msg.kind === 'connect') {
      session = `${String(msg.tag)}-latency`;
      poster = new NdjsonPoster(String(msg.postUrl));
      const n = Number(msg.subscribers);
      subs = await Promise.all(Array.from({ length: n }, (_, i) => open(String(msg.streamUrl), i < Number(msg.ceilings))));
      return { kind: 'ready' };
    }
    if (msg.kind === 'run') {
      checkCeilings = msg.checkCeilings === true;
      return { kind: 'done', latencies: await run(Number(msg.events), Number(msg.rate)) };
    }
    throw new Error(`unknown request ${msg.kind}`);
  },
  () => {
    for (const s of subs) s.req.destroy();
    poster?.close();
  },
);
