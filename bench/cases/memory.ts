/**
 * `memory`: the relay's resident memory holding 100 sessions x 10 000 buffered `tool.completed`
 * events of ~600 B (1 000 000 events), against the raw bytes of those events. The relay runs in
 * its own process (`../relay-child.ts`, `--expose-gc`) and reads its RSS after forced collections;
 * this process fills it over `POST /events` (1000-event batches). Ratio raw bytes / RSS (> 1
 * would be less than the raw bytes; the target RSS <= 2.5x the raw bytes is a ratio >= 0.4).
 * Quick mode: 5 sessions x 1000 events. One trial, one round: a fill takes tens of seconds.
 *
 * Checked: every batch accepted whole, a planted invalid event refused, and afterwards one
 * session replays (`from`, `live=0`) exactly its buffered events, the last one included.
 */
import { request } from 'node:http';
import { toolCompleted, plantedInvalid } from '../fanout-events.js';
import { NdjsonPoster } from '../http-client.js';
import { LoadProcess } from '../load-process.js';
import type { SampleBenchmark } from '../samples.js';
import { SseCounter } from '../sse-count.js';

const FULL = { sessions: 100, events: 10_000 };
const QUICK = { sessions: 5, events: 1000 };
const BATCH = 1000;

/** Count the events a `live=0` replay of one session carries. */
function replayCount(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const counter = new SseCounter();
    const req = request(url, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (c: string) => counter.feed(c));
      res.on('end', () => resolve(counter.events));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export const memoryBench: SampleBenchmark = {
  kind: 'samples',
  name: 'memory',
  unit: 'bytes',
  what: `resident memory of a relay process holding ${FULL.sessions} sessions x ${FULL.events} buffered ~600 B events, vs the raw bytes of those events`,
  budgetMs: 0,
  maxRounds: 1,
  metrics: ['rss'],
  primary: { metric: 'rss', quantile: 0.5 },
  async prepare({ quick }) {
    const { sessions, events } = quick ? QUICK : FULL;
    let raw = 0;
    for (let s = 0; s < sessions; s++) for (let seq = 0; seq < events; seq++) raw += Buffer.byteLength(toolCompleted(`mem-${String(s).padStart(3, '0')}`, seq));
    return {
      ours: {
        async trial() {
          const child = new LoadProcess('relay-child.js', 'memory', ['--expose-gc']);
          try {
            const { url } = (await child.ask({ kind: 'start', buffer: FULL.events, maxSessions: 500 })) as { url: string };
            const idle = await child.ask({ kind: 'rss' });
            const poster = new NdjsonPoster(`${url}/events`);
            try {
              for (let s = 0; s < sessions; s++) {
                const session = `mem-${String(s).padStart(3, '0')}`;
                for (let first = 0; first < events; first += BATCH) {
                  let body = '';
                  for (let seq = first; seq < Math.min(events, first + BATCH); seq++) body += `${toolCompleted(session, seq)}\n`;
                  const reply = await poster.post(body, 60_000);
                  if (reply.status !== 202 || (JSON.parse(reply.body) as { accepted?: number }).accepted !== Math.min(BATCH, events - first)) {
                    throw new Error(`memory: filling ${session} at seq ${first}, the relay answered ${reply.status} ${reply.body.slice(0, 200)}`);
                  }
                }
                if (s === 0) {
                  const refused = await poster.post(`${plantedInvalid(session, 1)}\n`);
                  if (refused.status !== 400) throw new Error(`memory: the planted invalid event was answered ${refused.status}, expected 400`);
                }
              }
            } finally {
              poster.close();
            }
            const full = await child.ask({ kind: 'rss' });
            const last = `mem-${String(sessions - 1).padStart(3, '0')}`;
            const got = await replayCount(`${url}/stream?from=${encodeURIComponent(JSON.stringify([{ session: last, epoch: 0, seq: 0 }]))}&live=0`);
            if (got !== events - 1) throw new Error(`memory: session ${last} replays ${got} events after seq 0; it holds ${events - 1}`);
            const mib = (v: unknown): string => `${(Number(v) / 2 ** 20).toFixed(0)} MiB`;
            process.stderr.write(`  memory: raw ${mib(raw)}; relay RSS idle ${mib(idle.rss)}, full ${mib(full.rss)} (heap used ${mib(full.heapUsed)}, external ${mib(full.external)}, array buffers ${mib(full.arrayBuffers)})\n`);
            return { rss: [Number(full.rss)] };
          } finally {
            child.stop();
          }
        },
      },
      baseline: { trial: async () => ({ rss: [raw] }) },
    };
  },
};
