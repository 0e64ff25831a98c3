import { CheckFailure, pass, type Check } from '../check.js';
import { canonical } from '../control.js';
import { parseObject } from '../events.js';
import { probeOrFail } from '../evict.js';
import { envelopeDiff } from './ingest-fanout.js';

export const check: Check = {
  name: 'evict-byte-identity',
  section: 'AEP-0003 §10, AEP-0001 §4.2',
  timeoutMs: () => 45_000,
  async run(ctx) {
    const probe = await probeOrFail(ctx);
    let strict = true;
    let compared = 0;
    const seen = new Map<string, { binding: string; canon: string }>();
    for (const b of probe.bindings) {
      for (const { raw, event } of b.delivered) {
        const id = String(event.id);
        const line = probe.posted.get(id);
        if (line === undefined) throw new CheckFailure(`${b.binding} delivered an event that was never posted (id ${id})`);
        compared++;
        if (raw !== line) {
          strict = false;
          const diff = envelopeDiff(parseObject(line) ?? {}, event);
          if (diff) throw new CheckFailure(`${b.binding} altered event seq ${String(event.seq)}: ${diff}`);
        }
        const canon = canonical(event);
        const other = seen.get(id);
        if (other && other.binding !== b.binding && other.canon !== canon) {
          throw new CheckFailure(`${other.binding} and ${b.binding} delivered different objects for the same (source, id) ${id}`);
        }
        seen.set(id, { binding: b.binding, canon });
      }
    }
    if (compared === 0) throw new CheckFailure('nothing was delivered to compare');
    return pass(strict ? `strict: all ${compared} delivered payloads are byte-identical to the posted lines` : `core-envelope-intact: core attributes and data unchanged over ${compared} deliveries (re-serialized in flight)`);
  },
};
