/**
 * The `fanout` load generator, run as a separate process (`child_process.fork`) so the
 * subscribers' parsing and the POSTs do not share the relay's event loop. Commands arrive over
 * IPC; each reply is one message.
 *
 *   {kind:'connect', streamUrl, postUrl, subscribers:[{query, session, ceiling}], checkCeilings}
 *       opens one SSE stream per subscriber (`streamUrl` + query) -> {kind:'ready'}
 *   {kind:'run', batches}  POSTs `batches` NDJSON batches one at a time, then waits until every
 *       subscriber has exactly what its filter selects -> {kind:'done', deliveries}
 *   any failure -> {kind:'error', message}; {kind:'stop'} closes everything and exits.
 *
 * The check is strict: a subscriber with more or fewer events than its filter selects, a
 * ceiling subscriber that sees the planted content (or no `"capture":"metadata"`), or an
 * unceiled one that does not see it, fails the run.
 */
import { request, type ClientRequest } from 'node:http';
import { NdjsonPoster } from './http-client.js';
import { SseCounter } from './sse-count.js';
import { FANOUT_BATCH, FANOUT_SESSIONS, FanoutBatches, PLANTED } from './fanout-events.js';

export { FANOUT_BATCH, FANOUT_SESSIONS, PLANTED, FanoutBatches, toolCompleted } from './fanout-events.js';

export interface SubscriberSpec {
  readonly query: string;
  /** The session the filter selects, or null for every session. */
  readonly session: string | null;
  readonly ceiling: boolean;
}

interface Live {
  readonly spec: SubscriberSpec;
  readonly counter: SseCounter;
  req: ClientRequest;
  problem?: string;
}

const send = (msg: unknown): void => void process.send?.(msg);

if (process.send) {
  let subs: Live[] = [];
  let poster: NdjsonPoster | undefined;
  let batches: FanoutBatches | undefined;
  let tag = '';
  let posted = 0;
  let wake: (() => void) | undefined;
  let checkCeilings = false;

  const expectedFor = (spec: SubscriberSpec): number => (spec.session === null ? posted : posted / FANOUT_SESSIONS.length);

  const connect = (streamUrl: string, specs: readonly SubscriberSpec[]): Promise<void> =>
    Promise.all(
      specs.map(
        (spec) =>
          new Promise<void>((resolve, reject) => {
            const live: Live = { spec, counter: new SseCounter(), req: undefined as unknown as ClientRequest };
            live.req = request(`${streamUrl}${spec.query}`, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
              if (res.statusCode !== 200) return reject(new Error(`GET ${spec.query} answered ${res.statusCode}`));
              res.setEncoding('utf8');
              let pending = '';
              res.on('data', (chunk: string) => {
                live.counter.feed(chunk);
                // Whole messages only (a chunk may split one); both sides pay this split alike.
                const text = pending + chunk;
                const end = text.lastIndexOf('\n\n');
                pending = end === -1 ? text : text.slice(end + 2);
                if (end !== -1 && live.problem === undefined) {
                  for (const message of text.slice(0, end).split('\n\n')) {
                    if (!checkCeilings || !message.includes('\ndata: ')) continue;
                    if (spec.ceiling && message.includes(PLANTED)) live.problem = `a metadata-ceiling subscriber (${spec.query}) received the planted content`;
                    else if (spec.ceiling && !message.includes('"capture":"metadata"')) live.problem = `a metadata-ceiling subscriber (${spec.query}) received an event not down-leveled to metadata`;
                    else if (!spec.ceiling && !message.includes(PLANTED)) live.problem = `an unceiled subscriber (${spec.query}) lost the event content`;
                  }
                }
                wake?.();
              });
              subs.push(live);
              resolve();
            });
            live.req.on('error', reject);
            live.req.end();
          }),
      ),
    ).then(() => undefined);

  const settled = (): boolean => subs.every((s) => s.problem !== undefined || s.counter.events >= expectedFor(s.spec));

  const run = async (count: number): Promise<number> => {
    for (let b = 0; b < count; b++) {
      const reply = await poster!.post(batches!.next());
      if (reply.status !== 202) throw new Error(`POST answered ${reply.status}: ${reply.body.slice(0, 200)}`);
      posted += FANOUT_BATCH;
    }
    if (!settled()) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`deliveries incomplete after 10 s: ${subs.map((s) => `${s.counter.events}/${expectedFor(s.spec)}`).join(' ')}`)), 10_000);
        wake = () => {
          if (!settled()) return;
          clearTimeout(timer);
          wake = undefined;
          resolve();
        };
      });
    }
    let deliveries = 0;
    for (const s of subs) {
      if (s.problem) throw new Error(s.problem);
      if (s.counter.events !== expectedFor(s.spec)) throw new Error(`subscriber ${s.spec.query} has ${s.counter.events} events, its filter selects ${expectedFor(s.spec)}`);
    }
    for (const s of subs) deliveries += s.spec.session === null ? count * FANOUT_BATCH : (count * FANOUT_BATCH) / FANOUT_SESSIONS.length;
    return deliveries;
  };

  process.on('message', (msg: { kind: string; [k: string]: unknown }) => {
    void (async () => {
      try {
        if (msg.kind === 'connect') {
          checkCeilings = msg.checkCeilings === true;
          tag = String(msg.tag);
          batches = new FanoutBatches(tag);
          poster = new NdjsonPoster(String(msg.postUrl));
          await connect(String(msg.streamUrl), msg.subscribers as SubscriberSpec[]);
          send({ kind: 'ready' });
        } else if (msg.kind === 'run') {
          send({ kind: 'done', deliveries: await run(Number(msg.batches)) });
        } else if (msg.kind === 'stop') {
          for (const s of subs) s.req.destroy();
          subs = [];
          poster?.close();
          process.disconnect?.();
        }
      } catch (err) {
        send({ kind: 'error', message: err instanceof Error ? err.message : String(err) });
      }
    })();
  });
}
