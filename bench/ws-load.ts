/**
 * The `ingest-ws` load generator (a separate process, see `load-process.ts`): one emitter
 * WebSocket sending events as text frames, one at a time in a tight loop, and, for ours, an SSE
 * subscriber that counts what the relay delivered.
 *
 *   {kind:'connect', wsUrl, streamUrl?, tag}  opens the socket, sends the emitter hello, waits for
 *       the peer's hello; with `streamUrl`, also subscribes -> {kind:'ready'}
 *   {kind:'run', events}  sends `events` valid events and, with a subscriber, one planted invalid
 *       event among them; then a `ping` frame, and waits for its `pong` (the peer handles frames
 *       in order, so every earlier frame has been judged). With a subscriber the run also demands
 *       exactly one `invalid-event` error naming the planted event and every valid event
 *       delivered, in order -> {kind:'done', accepted}
 */
import { request, type ClientRequest } from 'node:http';
import WebSocket from 'ws';
import { serveLoad } from './load-process.js';
import { SseCounter } from './sse-count.js';
import { plantedInvalid, wsEvent } from './fanout-events.js';

let ws: WebSocket | undefined;
let sse: ClientRequest | undefined;
const counter = new SseCounter();
let lastSeq = -1;
let orderProblem: string | undefined;
/** The unterminated tail of the last SSE chunk: an `id:` line may be cut between two chunks. */
let partial = '';
let session = '';
let seq = 0;
let runs = 0;
const frames: string[] = [];
let wake: (() => void) | undefined;

function until(test: () => boolean, what: () => string, ms = 10_000): Promise<void> {
  if (test()) return Promise.resolve();
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => {
      wake = undefined;
      fail(new Error(`${what()} after ${ms} ms`));
    }, ms);
    wake = () => {
      if (!test()) return;
      clearTimeout(timer);
      wake = undefined;
      ok();
    };
  });
}

function subscribe(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    sse = request(url, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`GET ${url} answered ${res.statusCode}`));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        counter.feed(chunk);
        // Order check on the SSE ids (`session:epoch:seq`), which the relay writes per event. Only
        // whole lines are read: a chunk may end inside one, and its digits are not yet the seq.
        const text = partial + chunk;
        const cut = text.lastIndexOf('\n') + 1;
        partial = text.slice(cut);
        for (const m of text.slice(0, cut).matchAll(/^id: [^\n]*:(\d+)$/gm)) {
          const s = Number(m[1]);
          if (s !== lastSeq + 1 && orderProblem === undefined) orderProblem = `the subscriber got seq ${s} after ${lastSeq}`;
          lastSeq = s;
        }
        wake?.();
      });
      resolve();
    });
    sse.on('error', reject);
    sse.end();
  });
}

serveLoad(
  import.meta.url,
  async (msg) => {
    if (msg.kind === 'connect') {
      session = `${String(msg.tag)}-ws`;
      const socket = new WebSocket(String(msg.wsUrl), { perMessageDeflate: false });
      ws = socket;
      socket.on('message', (data) => {
        frames.push(data.toString());
        wake?.();
      });
      await new Promise<void>((ok, fail) => {
        socket.once('open', ok);
        socket.once('error', fail);
      });
      socket.send(JSON.stringify({ type: 'hello', versions: ['0.1'], role: 'emitter', identity: { agent: 'loom', instance: 'bench/ws' } }));
      await until(() => frames.some((f) => f.includes('"type":"hello"')), () => 'no hello from the peer');
      frames.length = 0;
      if (typeof msg.streamUrl === 'string') await subscribe(`${msg.streamUrl}?filter=${encodeURIComponent(JSON.stringify({ session }))}`);
      return { kind: 'ready' };
    }
    if (msg.kind !== 'run') throw new Error(`unknown request ${msg.kind}`);
    const count = Number(msg.events);
    const checked = sse !== undefined;
    const run = ++runs;
    const plantAt = Math.floor(count / 2);
    for (let i = 0; i < count; i++) {
      if (checked && i === plantAt) ws!.send(plantedInvalid(session, run));
      ws!.send(wsEvent(session, seq++));
    }
    ws!.send(`{"type":"ping","t":${run}}`);
    await until(() => frames.some((f) => f === `{"type":"pong","t":${run}}`), () => `no pong for run ${run} (frames: ${frames.slice(-3).join(' ')})`);
    if (checked) {
      const errors = frames.filter((f) => f.includes('"type":"error"'));
      const want = `${session}-planted-${run}`;
      if (errors.length !== 1 || !errors[0]!.includes(`"cause":"${want}"`) || !errors[0]!.includes('"code":"invalid-event"')) {
        throw new Error(`expected exactly one invalid-event error naming ${want}, got ${errors.length}: ${errors.join(' ').slice(0, 300)}`);
      }
      await until(() => counter.events >= seq, () => `the subscriber has ${counter.events} events, ${seq} were sent`);
      if (orderProblem) throw new Error(orderProblem);
      if (counter.events !== seq) throw new Error(`the subscriber has ${counter.events} events, ${seq} valid ones were sent (the planted one must not be delivered)`);
    }
    frames.length = 0;
    return { kind: 'done', accepted: count };
  },
  () => {
    ws?.close();
    sse?.destroy();
  },
);
