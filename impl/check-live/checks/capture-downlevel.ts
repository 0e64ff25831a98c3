import { CAPTURE_ORDER, captureRank, type CaptureLevel } from '../../core/event.js';
import { expectThat, pass, type Check } from '../check.js';
import { canary, freshSession, parseObject, sessionEvent } from '../events.js';
import { sseWaitId } from '../probe.js';

/** The capture level an event claims; absent means the default `metadata` (AEP-0001 §8.2). */
const claimed = (v: unknown): number => captureRank(CAPTURE_ORDER.includes(v as CaptureLevel) ? (v as CaptureLevel) : 'metadata');

export const check: Check = {
  name: 'capture-downlevel',
  section: 'AEP-0003 §6.4, AEP-0001 §8.2',
  timeoutMs: () => 15_000,
  async run(ctx) {
    const session = freshSession();
    const secret = canary('label');
    const fullArgs = canary('args');
    const redactedArgs = canary('args-redacted');
    // A `redacted` event whose `label` is gated at redacted, and a `full` one with full- and redacted-gated args.
    const labelled = sessionEvent(session, 'session.started', 0, {
      capture: 'redacted',
      data: { label: secret, client: { name: 'aep-check-live' } },
    });
    const tool = sessionEvent(session, 'tool.requested', 1, {
      capture: 'full',
      data: { tool: { name: 'probe' }, args: { text: fullArgs }, args_redacted: { text: redactedArgs } },
    });
    const atMetadata = await ctx.sse({ filter: { session }, capture: 'metadata' });
    const atRedacted = await ctx.sse({ filter: { session }, capture: 'redacted' });
    await Promise.all([atMetadata.readyWithin(2000), atRedacted.readyWithin(2000)]);
    await ctx.postEvents([labelled, tool]);

    const m0 = await sseWaitId(atMetadata, labelled.id as string, 5000, 'the redacted event on the metadata-ceiling stream');
    const m1 = await sseWaitId(atMetadata, tool.id as string, 5000, 'the full event on the metadata-ceiling stream');
    const r1 = await sseWaitId(atRedacted, tool.id as string, 5000, 'the full event on the redacted-ceiling stream');

    expectThat(!m0.data.includes(secret), 'a `redacted`-gated field (session.started.label) reached a `metadata`-ceiling subscriber');
    expectThat(!m1.data.includes(fullArgs) && !m1.data.includes(redactedArgs), 'tool.requested args above the ceiling reached a `metadata`-ceiling subscriber');
    for (const [msg, what] of [[m0, 'the redacted event'], [m1, 'the full event']] as const) {
      const level = parseObject(msg.data)?.capture;
      expectThat(claimed(level) <= captureRank('metadata'), `${what} was delivered to a metadata ceiling still claiming capture '${String(level)}' (never up-level)`);
    }
    expectThat(!r1.data.includes(fullArgs), 'a `full`-gated field (tool.requested.args) reached a `redacted`-ceiling subscriber');
    const r1Level = parseObject(r1.data)?.capture;
    expectThat(
      claimed(r1Level) <= captureRank('metadata') && !r1.data.includes(redactedArgs),
      `a full event under a redacted ceiling must land on metadata: a mechanical hop never mints \`redacted\` (AEP-0001 §8.2(e)); it claimed '${String(r1Level)}'`,
    );
    return pass();
  },
};
