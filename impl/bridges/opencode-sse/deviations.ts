/** The opencode-sse bridge's names against adapter-opencode-design.md (the SSE channel) and Annex A.7 (rendered into README.md by `npm run gen:matrices`). */
import type { Deviation } from '../../integrations/descriptor.js';
import { deviation, unnamed } from '../../integrations/deviation.js';

export const DEVIATIONS: readonly Deviation[] = [
  deviation("the opt-in gate", "design record: sse_modes (primary, companion)", "the gate is honored in primary mode only", "in companion mode the plugin adapter owns the session's control"),
  unnamed("session.started data.parent / x.opencode.message.updated data.role", "the parent session and the message role", "as the standard's opencode pin"),
];
