/** The pi adapter's names against adapter-pi-design.md and Annex A.12 (rendered into README.md by `npm run gen:matrices`). */
import type { Deviation } from '../adapter-kit/descriptor.js';
import { deviation, unnamed } from '../adapter-kit/deviation.js';

export const DEVIATIONS: readonly Deviation[] = [
  deviation("aborted loop", "design record: aborted \u2192 run.cancelled", "run.cancelled with no `by`", "the bus does not say who aborted (the record asks for no by claim)"),
  deviation("control.cancel, steering", "design record: no adopting surface for cancel", "no control.cancel; AEP_INSTRUCT is ignored", "no moment reply carries context"),
  deviation("type checking", "design record: verified against the published type declarations", "the extension is plain JS, not type-checked against pi", "the published package is the whole agent, not a types package"),
  unnamed("session.started / session.compacted data.trigger", "the vendor's typed reason", "session.compacted's schema member, and the member the standard's pins give a SessionStart source"),
  unnamed("session.compacted data.will_retry", "willRetry", "the record says \"as metadata\" without a member name"),
  unnamed("run.finished / x.pi.message.replied data.stop_reason", "the raw stopReason", "the record says \"the raw value rides as metadata\"; the ACP pin uses the same name"),
  unnamed("x.pi.message.* data.message_digest / data.message", "the message text: digest at metadata, the text at redacted+ (redacted at redacted)", "the record says \"content digest at metadata, whole content at redacted+\"; message_digest is the name the standard's pins (hermes, acp) give a message text's digest"),
  unnamed("run.failed error.type, tool.failed error.type", "error / tool_error", "the record says \"a generic class\""),
  unnamed("x.pi.model.select data.model / provider / source", "the selection facts", "the record maps the event without naming members"),
  unnamed("run.started data.trigger", "user", "the record names no trigger; every run opener the standard pins (cline agent_start, hermes, acp, kimi-code) carries one, and a pi loop starts on a prompt or a queued follow-up"),
  deviation("session.ended reason", "design record: session_shutdown → session.ended with its typed reason", "reason \"normal\" only; the vendor reason is not carried", "quit/reload/new/resume/fork are not members of the schema enum; the standard's pins collapse vendor session-end reasons to normal with nothing beside it (gemini-cli, qwen-code SessionEnd)"),
];
