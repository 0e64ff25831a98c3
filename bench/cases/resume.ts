/**
 * `resume`: a subscriber reconnects with `from` into a session holding 10 000 buffered events
 * (~600 B each) and reads the replay to `: replay-complete` (`live=0`): time to the first event
 * and to the last, on a fresh connection each time, timed by a load generator in a separate
 * process (`../resume-load.ts`). Ours: an in-process `startRelay`, filled over `POST /events`
 * (one planted invalid event among the batches must be rejected and never replayed). Baseline:
 * a `node:http` server that writes the same 10 000 SSE messages from an in-memory array of
 * UTF-8 buffers (concatenated per request, one write), then `: replay-complete`. Both are checked alike: exactly seq 1..10000 of the
 * session, in order, each with its data.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startRelay, type RunningRelay } from '../../impl/relay/server.js';
import { sseEvent } from '../../impl/relay/sse-format.js';
import type { AepEvent } from '../../impl/core/event.js';
import { plantedInvalid, toolCompleted } from '../fanout-events.js';
import { NdjsonPoster } from '../http-client.js';
import { LoadProcess } from '../load-process.js';
import type { SampleBenchmark } from '../samples.js';
import { closeServer } from './pair.js';

export const RESUME_EVENTS = 10_000;
const SESSION = 'bench-resume';

/** The baseline: every GET gets the messages, then the replay-complete comment, and ends. */
function startArrayServer(messages: readonly Buffer[]): Promise<Server> {
  const tail = Buffer.from(': replay-complete\n\n');
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.socket?.setNoDelay(true);
    res.end(Buffer.concat([...messages, tail]));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

export const resumeBench: SampleBenchmark = {
  kind: 'samples',
  name: 'resume',
  unit: 'ms',
  what: `reconnect with from into a ${RESUME_EVENTS}-event session buffer of startRelay (live=0), time to the first and the last event, load in a separate process, vs writing the same SSE messages from an in-memory array`,
  budgetMs: 1500,
  metrics: ['first', 'last'],
  primary: { metric: 'last', quantile: 0.5 },
  async prepare() {
    let relay: RunningRelay | undefined;
    let server: Server | undefined;
    let load: LoadProcess | undefined;
    const close = async (): Promise<void> => {
      load?.stop();
      await relay?.close();
      if (server) await closeServer(server);
    };
    try {
      relay = await startRelay({ port: 0, drainMs: 1000 });
      // seq 0..10000: the buffer keeps the last 10 000; `from` seq 0 asks for 1..10000.
      const lines = Array.from({ length: RESUME_EVENTS + 1 }, (_, seq) => toolCompleted(SESSION, seq));
      const poster = new NdjsonPoster(`${relay.url}/events`);
      try {
        for (let i = 0; i < lines.length; i += 1000) {
          const batch = lines.slice(i, i + 1000);
          const reply = await poster.post(`${batch.join('\n')}\n`);
          const verdict = JSON.parse(reply.body) as { accepted?: number };
          if (reply.status !== 202 || verdict.accepted !== batch.length) {
            throw new Error(`resume: filling the relay, a batch answered ${reply.status} ${reply.body.slice(0, 300)}; expected ${batch.length} accepted`);
          }
          if (i === 5000) {
            // A planted invalid event mid-session: refused, so the replay check never meets it.
            const refused = await poster.post(`${plantedInvalid(SESSION, 1)}\n`);
            if (refused.status !== 400 || !refused.body.includes('"invalid-event"')) throw new Error(`resume: the planted invalid event was answered ${refused.status} ${refused.body.slice(0, 200)}; expected 400 invalid-event`);
          }
        }
      } finally {
        poster.close();
      }
      const messages = lines.slice(1).map((line) => Buffer.from(sseEvent(JSON.parse(line) as AepEvent, line), 'utf8'));
      server = await startArrayServer(messages);
      const from = encodeURIComponent(JSON.stringify([{ session: SESSION, epoch: 0, seq: 0 }]));
      const oursUrl = `${relay.url}/stream?from=${from}&live=0`;
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/stream?from=${from}&live=0`;
      const l = (load = new LoadProcess('resume-load.js', 'resume'));
      const side = (url: string) => ({
        async trial() {
          const reply = await l.ask({ kind: 'resume', url, session: SESSION, first: 1, last: RESUME_EVENTS });
          return { first: [Number(reply.firstMs)], last: [Number(reply.lastMs)] };
        },
      });
      return { ours: side(oursUrl), baseline: side(baseUrl), close };
    } catch (err) {
      await close();
      throw err;
    }
  },
};
