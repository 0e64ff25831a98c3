import { CheckFailure, CheckSkip, pass, type Check } from '../check.js';
import { controlSession, controlTimeout, describeAnswer, sendAndAwait, senderFor, settleMs } from '../control.js';
import { command, parseObject } from '../events.js';

export const check: Check = {
  name: 'control-cancel',
  section: 'AEP-0004 §5, §6',
  timeoutMs: controlTimeout,
  async run(ctx) {
    const session = controlSession(ctx);
    const run = ctx.opts.controlCancel;
    if (!run) throw new CheckSkip('skipped: no --control-cancel RUN given (the cancel check is destructive, so it is opt-in)');
    const conn = await senderFor(ctx, session);
    const cmd = command('control.cancel', session, { run, reason: 'aep check-live control-cancel' });
    const id = cmd.id as string;
    const since = conn.log.mark();
    const answer = await sendAndAwait(ctx, conn, JSON.stringify(cmd), id);
    if (answer.kind === 'refusal' || answer.event.type !== 'control.accepted') {
      throw new CheckFailure(`control.cancel for run ${run} was ${describeAnswer(answer)}, not accepted (is the run still open?)`);
    }
    const ackId = answer.event.id;
    const linked = (f: { json?: Record<string, unknown> | undefined }): boolean =>
      f.json?.type === 'run.cancelled' && (f.json.cause === id || f.json.cause === ackId);
    let outcome;
    try {
      outcome = (await conn.log.waitFor(linked, ctx.opts.ackWindowMs, 'run.cancelled', since)).item;
    } catch {
      throw new CheckFailure(`no run.cancelled cause-linked to the command (or its ack) within ${ctx.opts.ackWindowMs} ms of the command`);
    }
    const event = parseObject(outcome.raw) ?? {};
    if (event.run !== undefined && event.run !== run) throw new CheckFailure(`run.cancelled names run '${String(event.run)}', not the cancelled run '${run}'`);
    const all = await conn.log.collect(linked, settleMs(ctx), since);
    const distinct = new Set(all.map((f) => String(f.json?.id)));
    if (distinct.size > 1) throw new CheckFailure(`the cancel produced ${distinct.size} distinct run.cancelled events, not exactly one`);
    return pass(`accepted in ${answer.ms} ms, then one run.cancelled cause-linked to the ${event.cause === id ? 'command' : 'ack'}`);
  },
};
