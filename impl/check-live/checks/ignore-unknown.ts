import { pass, type Check } from '../check.js';
import { openOrSkip, requireSocket } from '../probe.js';

export const check: Check = {
  name: 'ignore-unknown',
  section: 'AEP-0003 §2, §4 rule 4',
  timeoutMs: () => 10_000,
  async run(ctx) {
    await requireSocket(ctx);
    // Unknown capability keys in hello are ignored: the hello still completes.
    const conn = await openOrSkip(ctx, () => ctx.helloWs('consumer', { zzfuture: { level: 3 }, filters: ['attr-match', 'zz-dialect'] }));
    const since = conn.log.mark();
    conn.send({ type: 'zz-future-frame', id: 'u1', payload: { nested: [1, 2] } });
    conn.send({ type: 'ping', t: 'after-unknown' });
    await conn.waitType('pong', 5000, (f) => f.t === 'after-unknown', since);
    const answered = conn.log.items.slice(since).find((f) => f.json?.id === 'u1');
    if (answered) return { status: 'fail', detail: `an unknown frame type must be ignored, but it was answered: ${answered.raw.slice(0, 160)}` };
    return pass();
  },
};
