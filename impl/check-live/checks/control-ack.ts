import { CheckFailure, pass, type Check } from '../check.js';
import { controlSession, controlTimeout, describeAnswer, distinctDecisions, sendAndAwait, senderFor, settleMs } from '../control.js';
import { command } from '../events.js';

export const check: Check = {
  name: 'control-ack',
  section: 'AEP-0004 §3, §4.2',
  timeoutMs: controlTimeout,
  async run(ctx) {
    const session = controlSession(ctx);
    const conn = await senderFor(ctx, session);
    const cmd = command(ctx.opts.controlAccepts, session);
    const id = cmd.id as string;
    const answer = await sendAndAwait(ctx, conn, JSON.stringify(cmd), id);
    if (answer.kind === 'refusal') throw new CheckFailure(`a declared ${ctx.opts.controlAccepts} was ${describeAnswer(answer)}, not acked by the target`);
    const reason = (answer.event.data as { reason?: unknown } | undefined)?.reason;
    if (answer.event.type === 'control.rejected' && reason === 'unsupported') {
      throw new CheckFailure(`the declared type ${ctx.opts.controlAccepts} was nacked 'unsupported': control.accepts is authoritative (check --control-accepts)`);
    }
    const extra = await distinctDecisions(conn, id, answer.frame, settleMs(ctx));
    if (extra.length) {
      throw new CheckFailure(`one command got ${extra.length + 1} distinct ack decisions (exactly one per deduplicated command); second: ${extra[0]!.raw.slice(0, 200)}`);
    }
    return pass(`${ctx.opts.controlAccepts} ${describeAnswer(answer)} in ${answer.ms} ms`);
  },
};
