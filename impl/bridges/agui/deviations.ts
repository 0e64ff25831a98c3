/** The agui bridge's names against bridge-agui-design.md and Annex A.14 (rendered into README.md by `npm run gen:matrices`). */
import type { Deviation } from '../../integrations/descriptor.js';
import { deviation, unnamed } from '../../integrations/deviation.js';

export const DEVIATIONS: readonly Deviation[] = [
  deviation("control", "design record: a tee proxy", "read-only: no command reaches the upstream agent", "AG-UI has no write path to the agent"),
  deviation("RUN_FINISHED outcome interrupt", "design record (0.0.57): interrupts unmapped until AG-UI 1.0", "attention.requested (respond_via oob) per interrupt, then run.cancelled {outcome: \"interrupt\"}; the thread's next run input (resume entries) resolves them", "an interrupted run stopped for a human: mapping it to run.finished said success"),
  unnamed("run.started data.trigger", "user", "the record names none; the value the standard's pins give (mappings/agui.json run_started)"),
  unnamed("subjects: run.step.* the stepName, tool.completed the call id, x.agui.text_message.* the messageId", "as listed", "the record names no subject; the subjects the standard's pins give (step_*, tool_call_result_*, text_message_*)"),
  unnamed("x.agui.text_message.start data.role", "the vendor role", "the record names the type, not its members; the member the standard's pin gives (text_message_start)"),
  unnamed("x.agui.text_message.end data.content", "the text the receiver assembled from the message's TEXT_MESSAGE_CONTENT deltas, at redacted+ (at most 64 KiB)", "the record says \"the streamed content assembled by the receiver at redacted+\" without a member name"),
  unnamed("run.failed data.error.message", "RUN_ERROR's message, redacted+", "the record says \"message redacted\"; the schema's error member"),
  unnamed("x.agui.custom.event data.value", "CUSTOM's value, redacted+", "the record says \"value redacted\" without a member name"),
  unnamed("token-delta events data.delta", "the delta text at redacted+", "the record names the types only"),
];
