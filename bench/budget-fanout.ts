/**
 * The fan-out stages of the per-event cost budget (`budget-stages.ts`): the hub's fan-out of the
 * `fanout` bench's events to its 50 subscribers (mixed filters, 10% with a `metadata` ceiling),
 * writes discarded, beside what the bare broadcaster (`cases/pair.ts`) computes for the same
 * bytes. Per event fanned out, so a row is the cost of ~24 deliveries.
 */
import type { ServerResponse } from 'node:http';
import { compileFilter } from '../impl/core/filter.js';
import { parseBatch } from '../impl/relay/batch.js';
import type { Received } from '../impl/relay/buffer.js';
import { Hub } from '../impl/relay/hub.js';
import { SseWriter } from '../impl/relay/sse.js';
import { fanoutSubscribers } from './cases/fanout.js';
import { FANOUT_BATCH, FANOUT_SESSIONS, toolCompleted } from './fanout-events.js';
import type { Stage } from './budget-stage.js';

/** `n` events (a multiple of `FANOUT_BATCH`) per set, as NDJSON batches of `FANOUT_BATCH`, over `FANOUT_SESSIONS`. */
function fanoutBodies(n: number, sets: number): string[][] {
  let k = 0;
  return Array.from({ length: sets }, () =>
    Array.from({ length: Math.max(1, Math.round(n / FANOUT_BATCH)) }, () => {
      let body = '';
      for (let i = 0; i < FANOUT_BATCH; i++, k++) body += `${toolCompleted(`budget-${FANOUT_SESSIONS[k % FANOUT_SESSIONS.length]!}`, Math.floor(k / FANOUT_SESSIONS.length))}\n`;
      return body;
    }),
  );
}

/** A response stand-in that counts what would be written. */
function countingResponse(): ServerResponse & { written: number } {
  const res = { writableLength: 0, written: 0, write(chunk: string | Buffer): boolean {
    res.written += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    return true;
  } };
  return res as unknown as ServerResponse & { written: number };
}

function expect(ok: boolean, what: string): void {
  if (!ok) throw new Error(`budget: ${what}`);
}

export const FANOUT_STAGES: readonly Stage[] = [
  {
    name: 'fanout50',
    group: 'ingest',
    what: 'Hub.publishAll of 100-event batches (5 sessions, ~600 B, capture full) to the fanout bench\'s 50 live SSE subscribers (mixed filters, 10% metadata ceiling), writes discarded',
    async prepare(n, sets) {
      const all = fanoutBodies(n, sets).map((batches) =>
        batches.map((b) => {
          const verdict = parseBatch(b, 'ndjson', 1_000_000);
          if (!verdict.ok) throw new Error('budget: a fanout batch was refused');
          return verdict.events as Received[];
        }),
      );
      const hub = new Hub(1000, 1000);
      const responses: Array<ServerResponse & { written: number }> = [];
      for (const spec of fanoutSubscribers('budget')) {
        const filter = spec.session === null ? {} : { session: spec.session };
        const ceiling = spec.ceiling ? ('metadata' as const) : undefined;
        const res = countingResponse();
        responses.push(res);
        hub.subscribe({ filter, match: compileFilter(filter), ceiling, replay: { kind: 'none' }, live: true, slowBytes: 1 << 30 }, new SseWriter(res, ceiling, () => {}));
      }
      await new Promise((r) => setImmediate(r)); // the (empty) replays end: the subscriptions go live
      return {
        run(i) {
          const before = responses.map((r) => r.written);
          for (const recs of all[i]!) hub.publishAll(recs);
          expect(responses.every((r, j) => r.written > before[j]!), 'a subscriber got nothing');
        },
      };
    },
  },
  {
    name: 'fanout50 bare',
    group: 'limit',
    what: 'the bare broadcaster\'s work for the same batches and 50 subscribers: JSON.parse, one message per line, one buffer per session and one for all, 50 writes discarded',
    async prepare(n, sets) {
      const all = fanoutBodies(n, sets);
      const sessions = fanoutSubscribers('budget').map((s) => s.session);
      const res = countingResponse();
      return {
        run(i) {
          const before = res.written;
          for (const body of all[i]!) {
            const msgs: string[] = [];
            const per = new Map<string, string[]>();
            for (const line of body.split('\n')) {
              if (line === '') continue;
              const e = JSON.parse(line) as { session: string; type: string; seq: number; epoch: number };
              const msg = `id: ${e.session}:${e.epoch}:${e.seq}\nevent: ${e.type}\ndata: ${line}\n\n`;
              msgs.push(msg);
              let list = per.get(e.session);
              if (!list) per.set(e.session, (list = []));
              list.push(msg);
            }
            const allBytes = Buffer.from(msgs.join(''), 'utf8');
            const perBytes = new Map([...per].map(([s, l]) => [s, Buffer.from(l.join(''), 'utf8')]));
            for (const s of sessions) {
              const bytes = s === null ? allBytes : perBytes.get(s);
              if (bytes) res.write(bytes);
            }
          }
          expect(res.written > before, 'the bare fan-out wrote nothing');
        },
      };
    },
  },
];
