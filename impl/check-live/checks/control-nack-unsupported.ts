import { CheckFailure, pass, type Check } from '../check.js';
import { controlSession, controlTimeout, describeAnswer, sendAndAwait, senderFor } from '../control.js';
import { command } from '../events.js';

export const check: Check = {
  name: 'control-nack-unsupported',
  section: 'AEP-0004 §4.2',
  timeoutMs: controlTimeout,
  async run(ctx) {
    const session = controlSession(ctx);
    const conn = await senderFor(ctx, session);
    const type = ctx.opts.controlUndeclared;
    const cmd = command(type, session);
    const answer = await sendAndAwait(ctx, conn, JSON.stringify(cmd), cmd.id as string);
    if (answer.kind === 'refusal') {
      if (answer.code === 'unsupported') return pass(`nacked 'unsupported' by the relay on the target's behalf`);
      throw new CheckFailure(`the undeclared ${type} was ${describeAnswer(answer)}; expected code 'unsupported'`);
    }
    const reason = (answer.event.data as { reason?: unknown } | undefined)?.reason;
    if (answer.event.type === 'control.rejected' && reason === 'unsupported') return pass(`nacked 'unsupported' by the target`);
    throw new CheckFailure(`the undeclared ${type} was ${describeAnswer(answer)}; commands outside control.accepts MUST be nacked 'unsupported'`);
  },
};
