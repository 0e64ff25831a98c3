/** The claude-code adapter's names against adapters.md (Claude Code) and Annex A.1 (rendered into README.md by `npm run gen:matrices`). */
import type { Deviation } from '../../integrations/descriptor.js';
import { deviation, unnamed } from '../../integrations/deviation.js';

export const DEVIATIONS: readonly Deviation[] = [
  deviation("compaction moment", "adapters.md: PreCompact emits nothing; session.compacted at PostCompact", "the same (recorded here because Annex A asks every deviation from a strict mapping to be stated)", "the post moment is the one that says compaction happened"),
  deviation("AskUserQuestion", "Annex A.1: a permission request (kind permission)", "attention.requested kind form, one per tool call (AEP-0006)", "the tool is the agent asking the human, not a permission gate (adapters.md says so)"),
  deviation("a remotely denied call", "Annex A.1: the vendor's PermissionDenied hook closes a denied call", "tool.denied {by: \"runtime\"} emitted by the adapter itself", "a remote deny gets no post-tool hook; without it the call would stay open"),
  deviation("URL-mode elicitation", "adapters.md: elicitations are answered through control", "attention.requested with respond_via [\"oob\"]", "the vendor answers URL-mode elicitation in its own UI only"),
  deviation("WorktreeCreate", "every hook mapped or falling back to x.claude-code.session.<hook>", "not wired in the example settings", "a neutral reply would break worktree creation"),
  unnamed("session.started data.trigger", "the hook's `source` (startup, resume, clear, compact)", "the standard's pins use the same member for the other hook adapters"),
];
