/** The openhands bridge's names against bridge-openhands-design.md and Annex A.15 (rendered into README.md by `npm run gen:matrices`). */
import type { Deviation } from '../../integrations/descriptor.js';
import { deviation, unnamed } from '../../integrations/deviation.js';

export const DEVIATIONS: readonly Deviation[] = [
  deviation("control.cancel", "design record: the control verbs of the server", "control.cancel is not declared", "no OpenHands write terminates a run"),
  deviation("tool.requested data.args at full", "AEP-0002 tool.requested schema: args is an object; the record: the action arguments digested as args_digest", "the canonical JSON text of the action, as a string", "the standard's openhands pins digest that text; at full the same text rides so digest(args) equals args_digest"),
  deviation("ActionEvent arguments at redacted", "design record: the action arguments are redaction-gated", "absent below full (no args_redacted)", "the arguments are a whole command line or file body; redaction of an opaque action text is not attempted"),
  unnamed("state.delta data.value", "the updated field's value at redacted+", "the record says \"value redaction-gated\" without a member name; state.delta's schema member `delta` is a JSON-patch list, which a key/value update is not"),
  unnamed("x.openhands.message.event data.skills", "the number of activated skills", "the record names role and sender only"),
  unnamed("tool.requested data.risk", "the security_risk when not UNKNOWN", "as the standard's openhands pin"),
  deviation("session.started server host", "design record: session.started carries the server host at metadata", "client.name openhands-agent-server only", "the host is the operator's machine name; the session's source already names the server it came from"),
];
