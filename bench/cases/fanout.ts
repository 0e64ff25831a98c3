/**
 * `fanout`: deliveries/s to 50 SSE subscribers with mixed filters (a third take every session,
 * the rest one of five sessions), 10% of them with a `metadata` capture ceiling below the events'
 * `full`. Batches of 100 ~600 B events are POSTed by a load generator in a separate process
 * (`../fanout-load.ts`), which also holds the subscribers and checks every delivery (exact
 * counts per filter; ceiling subscribers never see the planted content). Ours: an in-process
 * `startRelay`. Baseline: a bare `node:http` broadcaster that frames each line as the relay's SSE
 * message once per batch and writes the same bytes to the 50 sockets (no validation, no buffer,
 * no down-leveling: its ceiling subscribers get the full bytes, so only ours is content-checked).
 */
import type { LoadProcess } from '../load-process.js';
import { startRelayPair } from './pair.js';
import type { Benchmark } from '../harness.js';
import { FANOUT_BATCH, FANOUT_SESSIONS, type SubscriberSpec } from '../fanout-load.js';

export const FANOUT_SUBSCRIBERS = 50;
/** Batches per run of a side: 2000 events, 50k-ish deliveries. */
const BATCHES_PER_RUN = 20;

/** The 50 subscribers: mixed filters, every tenth with a metadata ceiling. */
export function fanoutSubscribers(tag: string): SubscriberSpec[] {
  const specs: SubscriberSpec[] = [];
  for (let i = 0; i < FANOUT_SUBSCRIBERS; i++) {
    const session = i % 3 === 0 ? null : `${tag}-${FANOUT_SESSIONS[i % FANOUT_SESSIONS.length]!}`;
    const ceiling = i % 10 === 1;
    const params = new URLSearchParams();
    if (session !== null) params.set('filter', JSON.stringify({ session }));
    if (ceiling) params.set('capture', 'metadata');
    const q = params.toString();
    specs.push({ query: q === '' ? '' : `?${q}`, session, ceiling });
  }
  return specs;
}

export const fanoutBench: Benchmark = {
  name: 'fanout',
  unit: 'deliveries',
  what: `${FANOUT_BATCH}-event batches POSTed to startRelay with ${FANOUT_SUBSCRIBERS} SSE subscribers (mixed filters, 10% metadata ceiling), load in a separate process, vs a bare node:http broadcaster writing the same bytes`,
  budgetMs: 400,
  async prepare() {
    const { relayUrl, baseUrl, toRelay, toBase, close } = await startRelayPair('fanout-load.js', 'fanout');
    try {
      await toRelay.ask({ kind: 'connect', tag: 'ours', streamUrl: `${relayUrl}/stream`, postUrl: `${relayUrl}/events`, subscribers: fanoutSubscribers('ours'), checkCeilings: true });
      await toBase.ask({ kind: 'connect', tag: 'base', streamUrl: `${baseUrl}/stream`, postUrl: `${baseUrl}/events`, subscribers: fanoutSubscribers('base'), checkCeilings: false });
      const side = (load: LoadProcess) => ({
        async run() {
          const reply = await load.ask({ kind: 'run', batches: BATCHES_PER_RUN });
          return Number(reply.deliveries);
        },
      });
      return { ours: side(toRelay), baseline: side(toBase), close };
    } catch (err) {
      await close();
      throw err;
    }
  },
};
