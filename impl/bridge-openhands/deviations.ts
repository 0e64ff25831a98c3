/** The openhands bridge's names against bridge-openhands-design.md and Annex A.15 (rendered into README.md by `npm run gen:matrices`). */
import type { Deviation } from '../adapter-kit/descriptor.js';
import { deviation, unnamed } from '../adapter-kit/deviation.js';

export const DEVIATIONS: readonly Deviation[] = [
  deviation("control.cancel", "design record: the control verbs of the server", "control.cancel is not declared", "no OpenHands write terminates a run"),
  unnamed("tool.requested data.risk", "the security_risk when not UNKNOWN", "as the standard's openhands pin"),
];
