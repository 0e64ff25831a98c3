/** The gemini-cli adapter's names against adapters.md (Gemini CLI) and Annex A.3 (rendered into README.md by `npm run gen:matrices`). */
import type { Deviation } from '../../integrations/descriptor.js';
import { deviation, unnamed } from '../../integrations/deviation.js';

export const DEVIATIONS: readonly Deviation[] = [
  deviation("human in the loop", "adapters.md: Notification maps to progress.status, never attention.requested", "the same; nothing is held and AEP_INSTRUCT is ignored", "no Gemini hook can grant or deny, so a respond affordance would be a lie"),
  deviation("AfterModel", "adapters.md: AfterModel lands in x.gemini-cli.session.after_model at debug", "the same, but left unregistered in the example settings", "it fires per streamed chunk"),
  deviation("compaction moment", "adapters.md: PreCompress is the only compaction moment", "session.compacted at PreCompress (the pre moment)", "the vendor exposes no post moment"),
  unnamed("session.started data.trigger", "the hook's `source`", "as the standard's gemini-cli pin"),
];
