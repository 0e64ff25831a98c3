/** The kilocode adapter's names against adapter-kilocode-design.md and Annex A.8 (rendered into README.md by `npm run gen:matrices`). */
import type { Deviation } from '../../integrations/descriptor.js';
import { deviation, unnamed } from '../../integrations/deviation.js';

export const DEVIATIONS: readonly Deviation[] = [
  deviation("ask moments from 7.4.6", "design record: the ask is held until answered", "from 7.4.6 an ask is a notification: Kilo's own prompt runs in parallel and nothing is held", "the vendor stopped awaiting the plugin"),
  deviation("failed REST delivery of an answer", "design record: the answer is delivered over REST", "x.kilocode.reply.failed; the ack stays control.accepted", "an ack is a will-try; the outcome settles on the stream"),
  deviation("unknown bus types", "design record (via OpenCode): unknown bus types \u2192 x.kilocode.unknown", "x.kilocode.<bus type> segment by segment", "the standard's pin (kilocode.json fallback) expects x.kilocode.some.future.event"),
  deviation("steering", "control steering design: AEP_INSTRUCT on a context-accepting reply", "AEP_INSTRUCT is ignored", "no moment reply carries context"),
  unnamed("x.kilocode.reply.failed", "the vendor type of a failed REST reply", "the record names no type for it"),
  deviation("tool.failed", "design record: no tool.failed (the typed hooks expose no error field; failures ride x.kilocode.session.error)", "tool.failed from a message.part.updated whose tool part is in state error (the mapping shared with OpenCode)", "an erroring tool gets no tool.execute.after, so without the part's error state its call would never close (seen on OpenCode 1.18.33 by the vendor lane)"),
];
