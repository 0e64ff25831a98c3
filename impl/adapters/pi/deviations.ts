/** The pi adapter's names against adapter-pi-design.md and Annex A.12 (rendered into README.md by `npm run gen:matrices`). */
import type { Deviation } from '../../integrations/descriptor.js';
import { deviation, unnamed } from '../../integrations/deviation.js';

export const DEVIATIONS: readonly Deviation[] = [
  deviation("aborted loop", "design record: aborted \u2192 run.cancelled", "run.cancelled with no `by`", "the bus does not say who aborted (the record asks for no by claim)"),
  deviation("control.cancel, steering", "design record: no adopting surface for cancel", "no control.cancel; AEP_INSTRUCT is ignored", "no moment reply carries context"),
  deviation("type checking", "design record: verified against the published type declarations", "the extension is plain JS, not type-checked against pi", "the published package is the whole agent, not a types package"),
  deviation("session.ended reason", "design record: session_shutdown \u2192 session.ended with its typed reason", "reason \"normal\", the vendor's reason beside it as vendor_reason", "quit/reload/new/resume/fork are not members of the schema enum; the standard's pin (mappings/pi.json session_shutdown) says every vendor teardown is orderly and carries the vendor value alongside"),
  unnamed("session.started / session.compacted data.reason", "the vendor's typed reason", "the record says \"typed reason as metadata\"; the member the standard's pins use (session_start, session_compact)"),
  unnamed("session.started data.session_file / cwd / previous_session_file", "the machine paths, at redacted+ only", "the record says getSessionFile() is \"redacted+ only, digest-free\"; the standard's pin drops them at the default ceiling"),
  unnamed("session.compacted data.will_retry", "willRetry", "the record says \"as metadata\" without a member name; the member the standard's pin uses"),
  unnamed("run terminals / x.pi.message.replied data.stop_reason", "the raw stopReason, on every run terminal it decides", "the record says \"the raw value rides as metadata\"; the member the standard's pins use (agent_end_*, message_end_assistant)"),
  unnamed("x.pi.message.* data.content_digest / data.content", "the message text: digest at metadata, the text at redacted+ (redacted at redacted)", "the record says \"content digest at metadata, whole content at redacted+\"; content_digest is the member the standard's pins use"),
  unnamed("x.pi.tool.update data.partial_digest / data.partial", "the partial result: digest at metadata, whole at full (redacted at redacted)", "the record names the type only; partial_digest is the member the standard's pin uses"),
  unnamed("run.failed error.type, tool.failed error.type", "error", "the record says \"a generic class\"; the class the standard's pins use"),
  unnamed("x.pi.model.select data.model / provider / source", "the selection facts", "the record maps the event without naming members"),
  unnamed("x.pi.session.info data.name", "the session name, at redacted+ only", "the standard's pin (session_info_changed) calls it user content, redacted-gated, without a member name"),
];
