import { CheckFailure, pass, type Check } from '../check.js';
import { canonical, controlSession, controlTimeout, describeAnswer, distinctDecisions, isDecision, sendAndAwait, senderFor, settleMs } from '../control.js';
import { command, parseObject } from '../events.js';

export const check: Check = {
  name: 'control-dedupe',
  section: 'AEP-0004 §2.3, §3',
  timeoutMs: controlTimeout,
  async run(ctx) {
    const session = controlSession(ctx);
    const conn = await senderFor(ctx, session);
    const cmd = command(ctx.opts.controlAccepts, session);
    const id = cmd.id as string;
    const raw = JSON.stringify(cmd);
    const first = await sendAndAwait(ctx, conn, raw, id);
    if (first.kind === 'refusal') throw new CheckFailure(`the command was ${describeAnswer(first)}, so retransmission cannot be probed`);

    // Retransmit the identical bytes: the same command, so the recorded ack comes back, byte-identical.
    const since = conn.log.mark();
    conn.send(raw);
    let again;
    try {
      again = (await conn.log.waitFor((f) => isDecision(f, id), ctx.opts.ackWindowMs, 'the re-ack', since)).item;
    } catch {
      throw new CheckFailure(`a retransmitted command got no re-ack within ${ctx.opts.ackWindowMs} ms: a target still holding the command re-emits its recorded ack`);
    }
    const extra = await distinctDecisions(conn, id, first.frame, settleMs(ctx));
    if (again.raw !== first.frame.raw) {
      const same = canonical(parseObject(again.raw)) === canonical(parseObject(first.frame.raw));
      if (!same) {
        throw new CheckFailure(`the retransmitted command was re-decided: a second DISTINCT ack (${again.raw.slice(0, 160)}) instead of the recorded one (${first.frame.raw.slice(0, 160)})`);
      }
    }
    if (extra.length) throw new CheckFailure(`the command got more than one ack decision: ${extra[0]!.raw.slice(0, 200)}`);
    return pass(again.raw === first.frame.raw ? 'the recorded ack was re-emitted byte-identically' : 'the recorded ack was re-emitted (same event, re-serialized in flight)');
  },
};
