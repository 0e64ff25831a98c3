import { CheckFailure, CheckSkip, expectThat, pass, type Check } from '../check.js';
import { isRefusal } from '../control.js';
import { command, freshSession, statusEvent } from '../events.js';
import { openOrSkip, requireSocket, sleep, sseEvents, sseWaitId, wsSubscribe } from '../probe.js';

const BEHALF_CODES = ['unauthorized', 'unsupported', 'ambiguous', 'no-route'];

export const check: Check = {
  name: 'control-behalf-refusal',
  section: 'AEP-0004 §4.2, §8',
  timeoutMs: (ctx) => ctx.opts.ackWindowMs + 20_000,
  async run(ctx) {
    if (!ctx.opts.token) throw new CheckSkip('skipped: needs --token (a relay-behalf refusal is probed on an authenticated binding)');
    await requireSocket(ctx);
    // A session with history and no live claimant: the command has no route.
    const session = freshSession();
    await ctx.postEvents([statusEvent(session, 0), statusEvent(session, 1)]);
    const live = await ctx.sse({ filter: { session } });
    await live.readyWithin(2000);
    const sender = await openOrSkip(ctx, () => ctx.helloWs('both'));
    await wsSubscribe(sender, { id: 'behalf-watch', filter: { session } });

    const cmd = command('control.pause', session);
    const id = cmd.id as string;
    const since = sender.log.mark();
    sender.send(cmd);
    const { item } = await sender.log
      .waitFor((f) => isRefusal(f, id), ctx.opts.ackWindowMs, 'a cause-linked error frame refusing the unroutable command', since)
      .catch(() => {
        throw new CheckFailure(`a command to a session with no live claimant got no error frame with cause = the command id within ${ctx.opts.ackWindowMs} ms`);
      });
    expectThat(BEHALF_CODES.includes(item.json?.code as string), `the refusal code '${String(item.json?.code)}' is not one of ${BEHALF_CODES.join(', ')}`);

    // The refusal never enters the session's history: not live, not on replay.
    const marker = statusEvent(session, 2);
    await ctx.postEvents([marker]);
    await sseWaitId(live, marker.id as string, 5000, 'the marker on the live stream');
    const replay = await ctx.sse({ filter: { session }, from: [{ session, epoch: 0, seq: 0 }] });
    await sseWaitId(replay, marker.id as string, 5000, 'the marker on the replayed stream');
    await sleep(200);
    const touched = [...sseEvents(live), ...sseEvents(replay)].find(({ event }) => event.cause === id);
    expectThat(!touched, `a refusal entered the session's history as an Event (${touched?.msg.data.slice(0, 160)}); relay-behalf refusals are connection-scoped frames`);
    const wsTouched = sender.log.items.slice(since).find((f) => f.json?.cause === id && f.json.type !== 'error');
    expectThat(!wsTouched, `a refusal reached the session's subscribers as an Event: ${wsTouched?.raw.slice(0, 160)}`);
    return pass(`refused in-band with code '${String(item.json?.code)}'; the session's history is untouched`);
  },
};
