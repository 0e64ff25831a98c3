import { expectThat, pass, type Check } from '../check.js';
import type { CheckContext } from '../context.js';
import { freshSession, statusEvent, type Json } from '../events.js';
import { isEventFrame, openOrSkip, sleep, sseEvents, sseWaitId, wsSubscribe, wsWaitId } from '../probe.js';

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
    // The WS carriage of the same contract: subscribe.from (§6.5), when a socket is advertised.
    if (!(await ctx.discovery()).socket) return pass('SSE from and Last-Event-ID (no socket advertised)');
    const ws = await openOrSkip(ctx, () => ctx.helloWs('consumer'));
    const since = ws.log.mark();
    await wsSubscribe(ws, { id: 'resume', filter: { session }, from: [{ session, epoch: 0, seq: 1 }] });
    await wsWaitId(ws, last.id as string, 5000, 'seq 3 on the resumed socket subscription', since);
    await sleep(300);
    const viaWs = ws.log.items.slice(since).filter((f) => isEventFrame(f) && f.json?.session === session).map((f) => f.json?.seq);
    expectThat(JSON.stringify(viaWs) === '[2,3]', `subscribe.from=[{seq:1}] must replay exactly seq 2, 3; got [${viaWs.join(', ')}]`);
    return pass();
  },
};
