/** The vscode adapter's names against adapters.md (VS Code agent) and Annex A.5 (rendered into README.md by `npm run gen:matrices`). */
import type { Deviation } from '../../integrations/descriptor.js';
import { deviation, unnamed } from '../../integrations/deviation.js';

export const DEVIATIONS: readonly Deviation[] = [
  deviation("session end", "adapters.md: the editor target has no session-end event", "session.ended is never emitted, and queued steering is never dropped", "the surface has no end to emit or to drop at"),
  deviation("runs", "Annex A.5: runs synthesized per prompt", "the same", "no turn id exists"),
  deviation("compaction moment", "adapters.md: compaction at the PRE moment", "session.compacted at PreCompact", "no post-compaction hook exists"),
  deviation("hook field casing", "the standard's pin uses hook_event_name / session_id", "both snake_case and camelCase (hookEventName / sessionId) are read", "the VS Code Local harness sends camelCase beside snake_case tool fields"),
  unnamed("session.started data.agent_type", "the vendor's agent_type", "as the standard's vscode pin"),
];
