import { expectThat, pass, type Check } from '../check.js';
import { freshSession, parseObject, statusEvent, type Json } from '../events.js';
import { sseEvents, sseWaitId } from '../probe.js';

export const check: Check = {
  name: 'reject-invalid',
  section: 'AEP-0003 §3.2',
  timeoutMs: () => 15_000,
  async run(ctx) {
    const session = freshSession();
    const stream = await ctx.sse({ filter: { session } });
    await stream.readyWithin(2000);

    // One broken envelope: `source` is REQUIRED (AEP-0001 §5).
    const invalid = statusEvent(session, 0);
    delete invalid.source;
    const bad = await ctx.post(JSON.stringify(invalid), 'application/json');
    expectThat(bad.status === 400, `POST of an event without \`source\` answered ${bad.status}, not 400`);
    // §3.2 gives the 400 body's shape: both members, `detail` free-form (any JSON value).
    const err = parseObject(bad.text);
    expectThat(
      err?.error === 'invalid-event' && err.detail !== undefined,
      `the 400 body must be {"error":"invalid-event","detail":...}; got ${bad.text.slice(0, 200) || 'an empty body'}`,
    );

    // A batch whose second line is broken: rejected whole (400) or reported per line (207).
    const good = statusEvent(session, 1);
    const broken: Json = { ...statusEvent(session, 2), type: 'Not A Type' };
    const batch = await ctx.post(`${JSON.stringify(good)}\n${JSON.stringify(broken)}\n`, 'application/x-ndjson');
    expectThat(batch.status === 400 || batch.status === 207, `an NDJSON batch with an invalid line answered ${batch.status}, not 400 (or a 207 per-line report)`);

    const garbage = await ctx.post('{"aep":"0.1",', 'application/json');
    expectThat(garbage.status === 400, `POST of truncated JSON answered ${garbage.status}, not 400`);

    // A valid marker proves the stream is live; nothing invalid may precede it.
    const marker = statusEvent(session, 3);
    await ctx.postEvents([marker]);
    await sseWaitId(stream, marker.id as string, 5000, 'the valid marker event on the stream');
    const leaked = sseEvents(stream).find(({ event }) => event.id === invalid.id || event.id === broken.id);
    expectThat(!leaked, `a rejected event was fanned out anyway: ${leaked?.msg.data.slice(0, 160)}`);
    return pass();
  },
};
