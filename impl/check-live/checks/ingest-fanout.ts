import { CheckFailure, expectThat, pass, type Check } from '../check.js';
import { freshSession, sessionEvent, statusEvent, type Json } from '../events.js';
import { sleep, sseEvents, sseWaitId } from '../probe.js';

/** Compares the core attributes and data of a delivered event with the posted one. */
export function envelopeDiff(posted: Json, delivered: Json): string | undefined {
  for (const [k, v] of Object.entries(posted)) {
    if (JSON.stringify(delivered[k]) !== JSON.stringify(v)) return `\`${k}\` changed from ${JSON.stringify(v)} to ${JSON.stringify(delivered[k])}`;
  }
  return undefined;
}

export const check: Check = {
  name: 'ingest-fanout',
  section: 'AEP-0003 §3.2, §3.3, §6',
  timeoutMs: () => 15_000,
  async run(ctx) {
    const session = freshSession();
    const other = freshSession();
    const stream = await ctx.sse({ filter: { session } });
    await stream.readyWithin(2000);
    const mine = [
      sessionEvent(session, 'session.started', 0, { capture: 'metadata', data: { client: { name: 'aep-check-live' } } }),
      statusEvent(session, 1),
      statusEvent(session, 2),
    ];
    const foreign = statusEvent(other, 0);
    await ctx.postEvents([mine[0]!, foreign, mine[1]!, mine[2]!]);
    await sseWaitId(stream, mine[2]!.id as string, 5000, 'the last event of the batch on the filtered stream');
    await sleep(200);

    const got = sseEvents(stream).filter(({ event }) => event.session === session || event.session === other);
    if (got.some(({ event }) => event.session === other)) throw new CheckFailure(`the filter {"session":"${session}"} let an event of another session through`);
    const ids = got.map(({ event }) => event.id);
    expectThat(
      JSON.stringify(ids) === JSON.stringify(mine.map((e) => e.id)),
      `expected the 3 batch events once each in batch order, got ${got.length} (${got.map(({ event }) => `seq ${String(event.seq)}`).join(', ')})`,
    );
    for (const [i, { msg, event }] of got.entries()) {
      const posted = mine[i]!;
      const diff = envelopeDiff(posted, event);
      if (diff) throw new CheckFailure(`event seq ${i} was altered in flight: ${diff}`);
      expectThat(msg.dataLines === 1, `event seq ${i} spans ${msg.dataLines} data: lines; the Event JSON goes on one line (§3.3)`);
      expectThat(msg.event === posted.type, `SSE event: field is '${msg.event ?? ''}', not the AEP type '${String(posted.type)}'`);
      expectThat(msg.id === `${session}:0:${i}`, `SSE id: field is '${msg.id ?? ''}', not '${session}:0:${i}' ({session}:{epoch}:{seq})`);
    }
    return pass();
  },
};
