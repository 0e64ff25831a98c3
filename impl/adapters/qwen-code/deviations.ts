/** The qwen-code adapter's names against adapters.md (Qwen Code) and Annex A.4 (rendered into README.md by `npm run gen:matrices`). */
import type { Deviation } from '../../integrations/descriptor.js';
import { deviation, unnamed } from '../../integrations/deviation.js';

export const DEVIATIONS: readonly Deviation[] = [
  deviation("runs", "Annex A.4: runs synthesized per prompt", "the same; a run left open at session end drains as run.cancelled", "no turn id exists on this surface, and every run needs a terminal"),
  deviation("PermissionDenied", "not in the standard's 16-hook pin", "tool.denied {by: \"policy\"}, as the Claude Code sibling", "Qwen Code 0.24 added the hook; the sibling's mapping fits it"),
  unnamed("session.started data.permission_mode", "the vendor's permission_mode, verbatim", "adapters.md asks for it at metadata without naming the member; the standard's pin uses this name"),
  unnamed("session.started data.trigger", "the hook's `source`", "as the standard's qwen-code pin"),
];
