import { CheckSkip, fail, pass, type Check } from '../check.js';
import { isRefusal } from '../control.js';
import { command, freshSession, sessionEvent } from '../events.js';
import { requireSocket, wsSubscribe, wsWaitId } from '../probe.js';
import { WsOpenError, type WsConn } from '../ws-client.js';

const ACCEPTS = ['control.attention.respond', 'control.cancel', 'control.pause', 'control.resume'];

export const check: Check = {
  name: 'control-auth-gate',
  section: 'AEP-0004 §4.1, AEP-0003 §8.1',
  timeoutMs: (ctx) => Math.min(ctx.opts.ackWindowMs, 3000) + 20_000,
  async run(ctx) {
    if (ctx.opts.token) throw new CheckSkip('skipped: authenticated run (probe the dev posture without --token)');
    await requireSocket(ctx);

    // A would-be target on an unauthenticated socket: claims a fresh session, declares every core verb.
    let target: WsConn;
    try {
      target = await ctx.helloWs('emitter', { control: { accepts: ACCEPTS, ack_window_ms: 10_000 } }, { withToken: false });
    } catch (err) {
      if (err instanceof WsOpenError && err.status !== undefined) {
        return pass(`the socket endpoint refuses unauthenticated connections (HTTP ${err.status}), so no control can flow`);
      }
      throw err;
    }
    const session = freshSession();
    const sender = await ctx.helloWs('both', {}, { withToken: false });
    await wsSubscribe(sender, { id: 'gate-watch', filter: { session } });
    const claim = sessionEvent(session, 'session.started', 0, { capture: 'metadata', data: { client: { name: 'aep-check-live' } } });
    target.send(claim);
    // Wait until the claim is visibly ingested, so a router would know the owner.
    await wsWaitId(sender, claim.id as string, 5000, 'the target session.started on the watching socket').catch(() => undefined);

    const cmd = command('control.cancel', session, { reason: 'aep check-live auth-gate probe' });
    const id = cmd.id as string;
    const since = sender.log.mark();
    sender.send(cmd);
    const window = Math.min(ctx.opts.ackWindowMs, 3000);
    const reached = await target.log.collect((f) => f.json?.id === id, window);
    if (reached.length) return fail('a command sent on an unauthenticated binding reached the target: control must flow only on authenticated bindings');
    const refusal = sender.log.items.slice(since).find((f) => isRefusal(f, id));
    return pass(
      refusal
        ? `the command was refused in-band with code '${String(refusal.json?.code)}' and never reached the target`
        : 'the command never reached the target (no cause-linked refusal frame was seen)',
    );
  },
};
