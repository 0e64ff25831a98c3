/** The antigravity adapter's names against adapter-antigravity-design.md and Annex A.11 (rendered into README.md by `npm run gen:matrices`). */
import type { Deviation } from '../adapter-kit/descriptor.js';
import { deviation, unnamed } from '../adapter-kit/deviation.js';

export const DEVIATIONS: readonly Deviation[] = [
  deviation("path fields", "design record: transcriptPath, artifactDirectoryPath, workspacePaths are redacted+, digest-free", "never carried at any level; only the host marker is read from transcriptPath", "no core type has a member for them, and a workstation path adds nothing a console needs"),
  deviation("session end", "design record: no session end is exposed", "session.ended is never emitted", "stated honestly, as the record does"),
  unnamed("data.step_idx (tool trio and x.antigravity.step.completed)", "stepIdx, verbatim", "the record says \"stepIdx rides as vendor metadata\" without a member name; snake_case of the vendor field"),
  unnamed("x.antigravity.step.completed data.failed", "true when the unjoined PostToolUse carries a non-empty error", "the record says \"the error fact only\""),
  unnamed("run terminal data.termination_reason / execution_num / fully_idle", "terminationReason, executionNum, fullyIdle verbatim", "the record says they ride as metadata; snake_case of the vendor fields"),
  unnamed("tool.failed data.message_digest", "the digest of the error text", "the record says \"a digest at metadata\"; named like run.failed's \"message digest\""),
  unnamed("tool.failed data.error.type", "tool_error", "the record names no class for a tool's error"),
];
