/** The acp bridge's names against bridge-acp-design.md and Annex A.13 (rendered into README.md by `npm run gen:matrices`). */
import type { Deviation } from '../../integrations/descriptor.js';
import { deviation, unnamed } from '../../integrations/deviation.js';

export const DEVIATIONS: readonly Deviation[] = [
  deviation("permission answers", "design record: read-only", "read-only: permission requests are observed, never answered", "the bridge observes the editor's gate"),
  deviation("port", "adapters: a loopback daemon port", "its descriptor's port is reserved, unused: the bridge speaks stdio", "it is a tee between editor and agent"),
  unnamed("attention.requested data.options_count", "the number of options", "the record says \"the option list rides as metadata counts only\"; the standard's pin names it"),
];
