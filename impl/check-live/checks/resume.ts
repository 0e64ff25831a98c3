import { expectThat, pass, type Check } from '../check.js';
import type { CheckContext } from '../context.js';
import { freshSession, statusEvent, type Json } from '../events.js';
import { sleep, sseEvents, sseWaitId } from '../probe.js';

/** Opens a resumed stream, waits for the last event, and returns the seqs delivered for `session`. */
async function resumed(ctx: CheckContext, session: string, last: Json, query: { from?: unknown }, headers: Record<string, string> = {}) {
  const stream = await ctx.sse({ filter: { session }, ...query }, headers);
  await sseWaitId(stream, last.id as string, 5000, `seq ${String(last.seq)} on the resumed stream`);
  await sleep(300); // late duplicates would show up here
  stream.close();
  return sseEvents(stream)
    .filter(({ event }) => event.session === session)
    .map(({ event }) => event.seq);
}

export const check: Check = {
  name: 'resume',
  section: 'AEP-0003 §3.3, §7',
  timeoutMs: () => 15_000,
  async run(ctx) {
    const session = freshSession();
    const events = [0, 1, 2, 3].map((seq) => statusEvent(session, seq));
    await ctx.postEvents(events);
    const last = events[3]!;

    const viaFrom = await resumed(ctx, session, last, { from: [{ session, epoch: 0, seq: 0 }] });
    expectThat(
      JSON.stringify(viaFrom) === '[1,2,3]',
      `from=[{seq:0}] must replay exactly seq 1, 2, 3 (strictly after, no gap, no duplicate); got [${viaFrom.join(', ')}]`,
    );
    const viaHeader = await resumed(ctx, session, last, {}, { 'last-event-id': `${session}:0:1` });
    expectThat(
      JSON.stringify(viaHeader) === '[2,3]',
      `Last-Event-ID: ${session}:0:1 must replay exactly seq 2, 3; got [${viaHeader.join(', ')}]`,
    );
    return pass();
  },
};
