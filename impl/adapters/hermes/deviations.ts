/** The hermes adapter's names against adapter-hermes-design.md and Annex A.10 (rendered into README.md by `npm run gen:matrices`). */
import type { Deviation } from '../../integrations/descriptor.js';
import { deviation, unnamed } from '../../integrations/deviation.js';

export const DEVIATIONS: readonly Deviation[] = [
  deviation("a gate released by a closed socket", "design record: socket closed before release \u2192 attention.resolved (dismissed)", "a gate is released only by an answer, the timeout or the session's end", "the daemon cannot see the shim's socket close"),
  deviation("control.cancel, pause/resume", "design record: not adopted", "not adopted", "recorded so the hello is read right"),
  unnamed("x.hermes.api.error data.status_code / retry_count / reason", "the vendor's status code, retry count and reason", "as the standard's hermes pin"),
  unnamed("run.started data.message_digest", "the digest of user_message", "the record says \"digested at metadata\"; the standard's pin names it"),
];
