/**
 * `latency`: POST-to-SSE delivery time at a steady 2000 events/s. The load generator (a separate
 * process, `../latency-load.ts`) POSTs ~600 B `tool.completed` events every 2 ms and holds 5 SSE
 * subscribers (for ours one with a `metadata` ceiling); each delivery is one sample, timed on the
 * generator's own clock from the POST to the subscriber's receipt. Ours: an in-process
 * `startRelay`. Baseline: the bare `node:http` broadcaster of `fanout` (frames each line, writes
 * the same bytes to every socket). Value: the p99 over every delivery; ratio baseline p99 / ours.
 * Checked on both sides: every subscriber gets every event once, in order, with the planted
 * content, except ours' ceiling subscriber, which must never see it.
 *
 * Method: the sides alternate trial by trial within each round (`interleave: 'trials'`), each trial
 * starting on a collected heap (`collectGarbage`), at least four pairs per round.
 */
import { collectGarbage } from '../collect.js';
import type { LoadProcess } from '../load-process.js';
import type { SampleBenchmark } from '../samples.js';
import { startRelayPair } from './pair.js';

export const LATENCY_RATE = 2000;
const SUBSCRIBERS = 5;
/** Events per trial: half a second at 2000/s (a fifth of it in quick mode). */
const EVENTS = 1000;

export const latencyBench: SampleBenchmark = {
  kind: 'samples',
  name: 'latency',
  unit: 'ms',
  what: `POST-to-SSE delivery at a steady ${LATENCY_RATE} events/s to ${SUBSCRIBERS} subscribers of startRelay (one with a metadata ceiling), load in a separate process, vs the bare broadcaster`,
  budgetMs: 2000,
  // Four pairs of half-second trials at least per round, the sides alternating trial by trial, so a
  // stall of the machine falls on both sides of a round: 20 000 deliveries per side per round, the
  // p99 being the 200th slowest (issue 33: one run's rounds ranged from 0.04x to 5x).
  interleave: 'trials',
  minTrials: 4,
  metrics: ['latency'],
  primary: { metric: 'latency', quantile: 0.99 },
  async prepare({ quick }) {
    const { relayUrl, baseUrl, toRelay, toBase, close } = await startRelayPair('latency-load.js', 'latency');
    try {
      await toRelay.ask({ kind: 'connect', tag: 'ours', streamUrl: `${relayUrl}/stream`, postUrl: `${relayUrl}/events`, subscribers: SUBSCRIBERS, ceilings: 1 });
      await toBase.ask({ kind: 'connect', tag: 'base', streamUrl: `${baseUrl}/stream`, postUrl: `${baseUrl}/events`, subscribers: SUBSCRIBERS, ceilings: 0 });
      const events = quick ? EVENTS / 5 : EVENTS;
      const side = (load: LoadProcess, checkCeilings: boolean) => ({
        async trial() {
          // Both servers live in this process: each trial starts on a collected heap, so neither
          // side pays for the other's garbage (the trials alternate, below).
          collectGarbage();
          const reply = await load.ask({ kind: 'run', events, rate: LATENCY_RATE, checkCeilings });
          return { latency: reply.latencies as number[] };
        },
      });
      // Both sides run every check, so both load generators do the same work per delivery; the
      // baseline has no ceiling subscriber (it does not down-level), so all of its must carry the content.
      return { ours: side(toRelay, true), baseline: side(toBase, true), close };
    } catch (err) {
      await close();
      throw err;
    }
  },
};
