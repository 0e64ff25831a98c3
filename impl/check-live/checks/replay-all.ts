import { CheckFailure, expectThat, pass, type Check } from '../check.js';
import { freshSession, parseObject, statusEvent, type Json } from '../events.js';
import { openOrSkip, requireSocket, sleep, sseEvents } from '../probe.js';
import type { WsConn } from '../ws-client.js';

const SUB_ID = 'replay-all';

export const check: Check = {
  name: 'replay-all',
  section: 'AEP-0003 §5, §6.5',
  timeoutMs: () => 20_000,
  async run(ctx) {
    const caps = (await ctx.discovery()).doc.capabilities as Json | undefined;
    const advertised = (caps?.replay as Json | undefined)?.all === true;
    const a = freshSession();
    const b = freshSession();
    const events = [statusEvent(a, 0), statusEvent(a, 1), statusEvent(b, 0)];
    await ctx.postEvents(events);
    const ids = events.map((e) => e.id as string);
    const filter = { session: [a, b] };

    let ws: WsConn | undefined;
    if ((await ctx.discovery()).socket) {
      await requireSocket(ctx);
      ws = await openOrSkip(ctx, () => ctx.helloWs('consumer'));
      const since = ws.log.mark();
      ws.send({ type: 'subscribe', id: SUB_ID, filter, from: 'all' });
      const { item } = await ws.log.waitFor((f) => (f.json?.type === 'subscribed' || f.json?.type === 'error') && f.json.id === SUB_ID, 5000, 'the answer to a from:"all" subscribe', since);
      if (item.json?.type === 'error') {
        if (advertised) throw new CheckFailure(`replay.all is advertised but a from:"all" subscribe was refused: ${item.raw.slice(0, 200)}`);
        expectThat(item.json.code === 'invalid-filter', `an unimplemented from:"all" must be refused with the closed-set invalid-filter; got code ${JSON.stringify(item.json.code)}`);
        return pass('replay.all is not advertised and from:"all" is refused deterministically (invalid-filter)');
      }
      await ws.log.waitFor((f) => f.json?.id === ids[2], 5000, 'every held session replayed on the socket', since);
      await sleep(200);
      const frames = ws.log.items.slice(since);
      if (frames.some((f) => f.json?.type === 'replay-exhausted' && f.json.sub === SUB_ID)) {
        throw new CheckFailure('from:"all" produced a replay-exhausted frame; it names no position that could predate a buffer');
      }
      const got = frames.filter((f) => typeof f.json?.id === 'string' && ids.includes(f.json.id as string)).map((f) => f.json!.id);
      expectThat(JSON.stringify(got.filter((id) => id !== ids[2])) === JSON.stringify(ids.slice(0, 2)) && got.includes(ids[2]), `WS from:"all" delivered ${got.length} of the 3 held events, or out of order`);
    }

    const stream = await ctx.sse({ filter, from: 'all' });
    const { item } = await stream.log.waitFor((i) => i.kind === 'message' && parseObject(i.data)?.id === ids[2], 5000, 'every held session replayed on the SSE stream').catch((err: Error) => {
      if (!advertised && /HTTP 4\d\d/.test(err.message)) return { item: undefined };
      throw err;
    });
    if (!item) return pass('replay.all is not advertised and from=all is refused deterministically');
    await sleep(200);
    if (stream.log.items.some((i) => i.kind === 'comment' && i.text.startsWith('replay-exhausted'))) {
      throw new CheckFailure('from=all produced a replay-exhausted comment; it names no position that could predate a buffer');
    }
    const got = sseEvents(stream).map(({ event }) => event.id as string).filter((id) => ids.includes(id));
    expectThat(got.length === 3 && got.indexOf(ids[0]!) < got.indexOf(ids[1]!), `SSE from=all delivered ${got.length} of the 3 held events, or out of order`);
    return pass(advertised ? undefined : 'replay.all is not advertised, yet from=all is honored');
  },
};
