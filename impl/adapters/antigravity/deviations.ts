/** The antigravity adapter's names against adapter-antigravity-design.md and Annex A.11 (rendered into README.md by `npm run gen:matrices`). */
import type { Deviation } from '../../integrations/descriptor.js';
import { deviation, unnamed } from '../../integrations/deviation.js';

export const DEVIATIONS: readonly Deviation[] = [
  deviation("path fields", "design record: transcriptPath, artifactDirectoryPath, workspacePaths are redacted+, digest-free", "never carried at any level; only the host marker is read from transcriptPath", "no core type has a member for them, and a workstation path adds nothing a console needs"),
  deviation("session end", "design record: no session end is exposed", "session.ended is never emitted", "stated honestly, as the record does"),
  deviation("tool.failed / run.failed error digest", "design record: tool.failed \"redacted+ with a digest at metadata\"; run.failed \"message digest at metadata\"", "no digest of the error text: the class (error.type) at metadata, the text as error.message at redacted+", "the standard's pins (mappings/antigravity.json post_tool_use_error_joined, stop_error) carry no digest member, and the pin is what the standard's runner judges"),
  unnamed("data.step_idx (tool trio and x.antigravity.step.completed)", "stepIdx, verbatim", "the record says \"stepIdx rides as vendor metadata\" without a member name; the member the standard's pins use"),
  unnamed("x.antigravity.step.completed data.failed", "true when the unjoined PostToolUse carries a non-empty error", "the record says \"the error fact only\"; the member the standard's pins use"),
  unnamed("run.finished data.termination_reason; run terminals data.execution_num / fully_idle", "terminationReason (run.finished only: run.failed's own reason says error), executionNum, fullyIdle verbatim", "the record says they ride as metadata; the members the standard's pins use"),
  unnamed("tool.failed data.error.type", "tool_error", "the record names no class for a tool's error; the class the standard's pin uses"),
  unnamed("fallback type", "x.antigravity.hook.<the hook name lower-cased as one segment>", "the record says x.antigravity.hook.<name>; the standard's pin lower-cases the name whole (SomeFutureHook → somefuturehook)"),
];
