/** The agui bridge's names against bridge-agui-design.md and Annex A.14 (rendered into README.md by `npm run gen:matrices`). */
import type { Deviation } from '../adapter-kit/descriptor.js';
import { deviation, unnamed } from '../adapter-kit/deviation.js';

export const DEVIATIONS: readonly Deviation[] = [
  deviation("control", "design record: a tee proxy", "read-only: no command reaches the upstream agent", "AG-UI has no write path to the agent"),
  deviation("RUN_ERROR message", "design record: run.failed {reason: code ?? \"error\"}, message redacted", "the message as data.message at redacted+ (not inside data.error)", "mapper owned by another engineer; renaming proposed in the audit report"),
  deviation("STATE_SNAPSHOT / STATE_DELTA payload", "design record: payload redacted; the schema names state.snapshot's member `state` and state.delta's `delta`", "data.snapshot / data.delta at full only", "mapper owned by another engineer; renaming proposed in the audit report"),
  deviation("CUSTOM value", "design record: data.name at metadata with value redacted", "data.name only; value is not carried", "mapper owned by another engineer; proposed in the audit report"),
  deviation("RUN_FINISHED outcome interrupt", "design record (0.0.57): interrupts unmapped until AG-UI 1.0", "attention.requested (respond_via oob) per interrupt, then run.cancelled {outcome: \"interrupt\"}; the thread's next run input (resume entries) resolves them", "an interrupted run stopped for a human: mapping it to run.finished said success"),
  unnamed("run.started data.trigger", "user", "run.started without a trigger says less than the siblings"),
  unnamed("x.agui.text_message.end data.message_id", "the messageId", "the record names the type, not its members"),
  unnamed("token-delta events data.delta", "the delta text at redacted+", "the record names the types only"),
  deviation("TEXT_MESSAGE_END content", "design record: the streamed content assembled by the receiver at redacted+ (assistant role only)", "no assembly; every TEXT_MESSAGE_END maps, carrying only message_id", "mapper owned by another engineer; proposed in the audit report"),
  deviation("TOOL_CALL_RESULT non-text content at redacted", "design record: content as result_redacted at redacted", "result_redacted only for string content", "mapper owned by another engineer; proposed in the audit report"),
];
