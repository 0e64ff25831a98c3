import { CheckFailure, pass, type Check } from '../check.js';
import { probeOrFail, type BindingReplay } from '../evict.js';

const seqOf = (e: Record<string, unknown>): number => Number(e.seq);

/** The coherence rules for one binding; returns the earliest position it announced. */
function judge(b: BindingReplay, lastSeq: number): string {
  const m = b.marker;
  if (!m) throw new CheckFailure(`${b.binding}: resuming from seq 0 after the buffer evicted it produced no replay-exhausted marker (AEP-0003 §5)`);
  if (!m.beforeFirstEvent) throw new CheckFailure(`${b.binding}: the replay-exhausted marker arrived after a replayed event; it must come first`);
  if (!(m.epoch > 0 || m.seq > 0)) throw new CheckFailure(`${b.binding}: the earliest retained position ${m.epoch}:${m.seq} is not later than the requested 0:0`);
  const seqs = b.delivered.map((d) => seqOf(d.event));
  if (seqs.length === 0) throw new CheckFailure(`${b.binding}: nothing was delivered after the marker`);
  if (seqs[0] !== m.seq) throw new CheckFailure(`${b.binding}: delivery starts at seq ${seqs[0]}, not at the announced earliest ${m.seq}`);
  for (let i = 1; i < seqs.length; i++) {
    if (!(seqs[i]! > seqs[i - 1]!)) throw new CheckFailure(`${b.binding}: delivery does not ascend strictly (seq ${seqs[i - 1]} then ${seqs[i]})`);
  }
  if (seqs.at(-1) !== lastSeq) throw new CheckFailure(`${b.binding}: delivery ends at seq ${seqs.at(-1)}, not at the last posted seq ${lastSeq}`);
  return `${m.epoch}:${m.seq}`;
}

export const check: Check = {
  name: 'evict-replay-exhausted',
  section: 'AEP-0003 §5, §3.3.3',
  timeoutMs: () => 45_000,
  async run(ctx) {
    const probe = await probeOrFail(ctx);
    const earliest = probe.bindings.map((b) => judge(b, probe.lastSeq));
    if (new Set(earliest).size > 1) {
      throw new CheckFailure(`the bindings disagree on the earliest retained position: ${probe.bindings.map((b, i) => `${b.binding} ${earliest[i]}`).join(', ')}`);
    }
    const on = probe.bindings.map((b) => b.binding).join(' and ');
    return pass(`exhausted at ${earliest[0]} on ${on}${probe.bindings.length === 1 ? ' (no socket advertised)' : ''}`);
  },
};
