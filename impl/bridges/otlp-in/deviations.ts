/** The otlp-in bridge's names against bridge-otlp-inbound-design.md (rendered into README.md by `npm run gen:matrices`). */
import type { Deviation } from '../../integrations/descriptor.js';
import { deviation, unnamed } from '../../integrations/deviation.js';

export const DEVIATIONS: readonly Deviation[] = [
  deviation("records with no session key", "design record: the session key identifies the record", "answered as OTLP partialSuccess (rejected records counted)", "an event without a session cannot be emitted"),
  deviation("runs", "design record: primary mode emits the core subset", "no runs are synthesized", "the OTel records carry no run boundary"),
  unnamed("tool.completed / tool.failed data.duration_ms", "the record's duration_ms attribute", "the schema member for it"),
  deviation("originator", "design record: originator as metadata", "not carried in data", "the standard's pins (codex-otel.json) drop it with the other identity attributes; pins are the more precise statement"),
  deviation("host.name", "design record: host.name at redacted", "not carried in data", "the same pins drop it; it is envelope source material, not a payload fact"),
  unnamed("x.codex.otel.unknown data[\"event.name\"]", "the unknown record's event name, verbatim", "the record names the type only"),
];
