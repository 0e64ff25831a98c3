/** The ce bridge's names against bridges.md and AEP-0005 (rendered into README.md by `npm run gen:matrices`). */
import type { Deviation } from '../../integrations/descriptor.js';
import { deviation, unnamed } from '../../integrations/deviation.js';

export const DEVIATIONS: readonly Deviation[] = [
  deviation("port and hello", "bridges.md: a sidecar subscribing to the relay", "no listening port (0 here) and no hello", "a consumer: it sends nothing to the relay but a subscription"),
];
