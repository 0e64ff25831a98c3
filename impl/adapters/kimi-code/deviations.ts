/** The kimi-code adapter's names against adapter-kimi-code-design.md and Annex A.6 (rendered into README.md by `npm run gen:matrices`). */
import type { Deviation } from '../../integrations/descriptor.js';
import { deviation, unnamed } from '../../integrations/deviation.js';

export const DEVIATIONS: readonly Deviation[] = [
  deviation("steering boundary", "control steering design: queued steering rides the next context-accepting reply", "only the next UserPromptSubmit reply, at most 4000 characters", "it is the one reply this vendor reads context from"),
  deviation("wire (WebSocket) modes", "design record: the ws modes", "served by the Kimi web bridge (kimi-web), not this adapter", "one channel per integration"),
  unnamed("attention.answered data.label", "the selected_label of PermissionResult", "as the standard's kimi-code pin"),
  unnamed("x.kimi-code.run.steer_submitted", "a steer submission that rides the running turn", "as the standard's kimi-code pin"),
];
