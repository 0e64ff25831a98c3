/** The opencode adapter's names against adapter-opencode-design.md and Annex A.7 (rendered into README.md by `npm run gen:matrices`). */
import type { Deviation } from '../../integrations/descriptor.js';
import { deviation, unnamed } from '../../integrations/deviation.js';

export const DEVIATIONS: readonly Deviation[] = [
  deviation("permission ask", "design record: the hold-open permission.ask hook settles the ask", "asks arrive on the v2 bus as permission.asked and are answered over REST; permission.ask is still held when called", "OpenCode 1.18.x declares permission.ask but never calls it"),
  deviation("tool.failed", "design record: tool.execute.after splits to tool.failed on the typed error surface", "tool.failed only from a message.part.updated whose tool part is in state error", "the typed after-hook has no error surface; the part state is the vendor's own failure fact"),
  deviation("unknown bus types", "design record: unknown bus types \u2192 x.opencode.unknown", "x.opencode.<bus type> segment by segment (one-segment types under x.opencode.unknown.<type>)", "the standard's own pin (opencode.json fallback) expects x.opencode.some.future.event, and pins are the more precise statement (Annex A)"),
  deviation("steering", "control steering design: AEP_INSTRUCT on a context-accepting reply", "AEP_INSTRUCT is ignored", "no moment reply carries context"),
  unnamed("x.opencode.session.error data.type", "the error's `name`", "the record maps session.error to the vendor namespace without naming members; the standard's pin uses `type`"),
  unnamed("x.opencode.command.executed data.arguments", "the command arguments at redacted+", "the record names none; user content, so redacted-gated"),
];
