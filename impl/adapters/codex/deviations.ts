/** The codex adapter's names against adapters.md (Codex) and Annex A.2 (rendered into README.md by `npm run gen:matrices`). */
import type { Deviation } from '../../integrations/descriptor.js';
import { deviation, unnamed } from '../../integrations/deviation.js';

export const DEVIATIONS: readonly Deviation[] = [
  deviation("tool failure", "adapters.md: a failed tool still produces tool.completed", "the same; tool.failed is never emitted", "the hook surface reports no tool failure"),
  deviation("a turn that ends with no hook", "Annex A.2: Stop closes the turn", "run.cancelled without `by`", "a model/API error or an unwired interrupt ends the turn with no hook; the run must still close, and nothing says who ended it"),
  deviation("a remotely denied call", "Annex A.2: PostToolUse closes a call", "tool.denied {by: \"runtime\"} emitted by the adapter", "a remote deny gets no PostToolUse"),
  unnamed("session.started data.trigger", "the hook's `source`", "as the standard's codex pin"),
];
