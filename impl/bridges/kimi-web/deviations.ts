/** The kimi-web bridge's names against adapter-kimi-code-design.md (the wire modes) (rendered into README.md by `npm run gen:matrices`). */
import type { Deviation } from '../../integrations/descriptor.js';
import { deviation, unnamed } from '../../integrations/deviation.js';

export const DEVIATIONS: readonly Deviation[] = [
  deviation("the opt-in gate", "design record: ws_modes (primary, companion)", "the gate is honored in primary mode only", "in companion mode the hook adapter owns the session's control"),
  deviation("question answers", "design record: question answers deferred", "not actuated (read-only)", "the record defers them"),
];
