/** The cline adapter's names against adapter-cline-design.md and Annex A.9 (rendered into README.md by `npm run gen:matrices`). */
import type { Deviation } from '../../integrations/descriptor.js';
import { deviation, unnamed } from '../../integrations/deviation.js';

export const DEVIATIONS: readonly Deviation[] = [
  deviation("steering", "control steering design: x.cline.control.instruct with AEP_INSTRUCT=1", "AEP_INSTRUCT does not apply; input goes through x.cline.control.send_input on the hub leg", "the record itself rejects instruct for Cline: send_input is the user plane"),
  deviation("userId", "design record: userId is opaque, metadata", "not carried", "the standard's pins (cline.json agent_start) carry no user id; pins are the more precise statement"),
  deviation("a lost hub", "design record: hub failure degrades to observe-only", "the same, reconnecting every second", "stated so the 1 s reconnect is on record"),
  unnamed("run.started data.git_commit / data.git_branch", "workspaceInfo.latestGitCommitHash at metadata / latestGitBranchName at redacted+", "the record says \"commit hash at metadata; branch names redacted-gated\" without member names"),
  unnamed("session.compacted data.context_json_path / context_raw_path", "the two context paths at redacted+", "the record calls them content-bearing, redacted+ only, without member names"),
  unnamed("x.cline.prompt.submitted data.message_digest / data.prompt", "the prompt text's digest at metadata, the text at redacted+", "the record says \"text redacted-gated\"; the standard's hermes and acp pins name a prompt's digest message_digest and its text prompt"),
];
