/**
 * The `peer-fanout` baseline's load generator (a separate process, see `load-process.ts`): the
 * fan-out workload over a `nats-server` with the `nats` client (`@nats-io/transport-node`) on
 * both ends: one publishing connection and one connection per subscriber. Each event is one core
 * pub/sub message on `fan.{tag}.{session}`; an unfiltered subscriber takes `fan.{tag}.>`, a
 * session-filtered one its session's subject (the same selection as the relay's filters).
 *
 *   {kind:'connect', servers, tag, subscribers:[{session}]}  -> {kind:'ready'}
 *   {kind:'run', batches}  publishes `batches` x 100 events (the same ~600 B bytes as `fanout`),
 *       flushes, and waits until every subscriber has exactly what its subject selects, with the
 *       exact bytes published -> {kind:'done', deliveries}
 */
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { FANOUT_BATCH, FANOUT_SESSIONS, toolCompleted } from './fanout-events.js';
import { serveLoad } from './load-process.js';

interface Sub {
  readonly session: string | null;
  readonly nc: NatsConnection;
  count: number;
  bytes: number;
}

let pub: NatsConnection | undefined;
let subs: Sub[] = [];
let tag = '';
let n = 0;
let posted = 0;
let postedBytes = 0;
const perSessionBytes = new Map<string, number>();
let wake: (() => void) | undefined;

const expected = (s: Sub): number => (s.session === null ? posted : posted / FANOUT_SESSIONS.length);
const expectedBytes = (s: Sub): number => (s.session === null ? postedBytes : (perSessionBytes.get(s.session) ?? 0));

serveLoad(
  import.meta.url,
  async (msg) => {
    if (msg.kind === 'connect') {
      tag = String(msg.tag);
      const servers = String(msg.servers);
      pub = await connect({ servers });
      subs = await Promise.all(
        (msg.subscribers as Array<{ session: string | null }>).map(async ({ session }) => {
          const nc = await connect({ servers });
          const sub: Sub = { session, nc, count: 0, bytes: 0 };
          nc.subscribe(session === null ? `fan.${tag}.>` : `fan.${tag}.${session}`, {
            callback: (err, m) => {
              if (err) return;
              sub.count++;
              sub.bytes += m.data.length;
              wake?.();
            },
          });
          await nc.flush();
          return sub;
        }),
      );
      return { kind: 'ready' };
    }
    if (msg.kind !== 'run') throw new Error(`unknown request ${msg.kind}`);
    const batches = Number(msg.batches);
    for (let b = 0; b < batches; b++) {
      for (let i = 0; i < FANOUT_BATCH; i++, n++) {
        const short = FANOUT_SESSIONS[n % FANOUT_SESSIONS.length]!;
        const session = `${tag}-${short}`;
        const payload = Buffer.from(toolCompleted(session, Math.floor(n / FANOUT_SESSIONS.length)), 'utf8');
        pub!.publish(`fan.${tag}.${session}`, payload);
        postedBytes += payload.length;
        perSessionBytes.set(session, (perSessionBytes.get(session) ?? 0) + payload.length);
      }
      posted += FANOUT_BATCH;
    }
    await pub!.flush();
    const settled = (): boolean => subs.every((s) => s.count >= expected(s));
    if (!settled()) {
      await new Promise<void>((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`deliveries incomplete after 10 s: ${subs.map((s) => `${s.count}/${expected(s)}`).join(' ')}`)), 10_000);
        wake = () => {
          if (!settled()) return;
          clearTimeout(timer);
          wake = undefined;
          ok();
        };
      });
    }
    let deliveries = 0;
    for (const s of subs) {
      if (s.count !== expected(s) || s.bytes !== expectedBytes(s)) throw new Error(`a subscriber (${s.session ?? 'all'}) has ${s.count} messages and ${s.bytes} bytes; its subject selects ${expected(s)} and ${expectedBytes(s)}`);
      deliveries += s.session === null ? batches * FANOUT_BATCH : (batches * FANOUT_BATCH) / FANOUT_SESSIONS.length;
    }
    return { kind: 'done', deliveries };
  },
  async () => {
    await Promise.all([pub, ...subs.map((s) => s.nc)].map((nc) => nc?.close()));
  },
);
