import type { Check } from '../check.js';
import { check as captureDownlevel } from './capture-downlevel.js';
import { check as controlAck } from './control-ack.js';
import { check as controlAuthGate } from './control-auth-gate.js';
import { check as controlBehalfRefusal } from './control-behalf-refusal.js';
import { check as controlCancel } from './control-cancel.js';
import { check as controlDedupe } from './control-dedupe.js';
import { check as controlNackUnsupported } from './control-nack-unsupported.js';
import { check as discovery } from './discovery.js';
import { check as evictByteIdentity } from './evict-byte-identity.js';
import { check as evictReplayExhausted } from './evict-replay-exhausted.js';
import { check as helloWs } from './hello-ws.js';
import { check as ignoreUnknown } from './ignore-unknown.js';
import { check as ingestFanout } from './ingest-fanout.js';
import { check as rejectInvalid } from './reject-invalid.js';
import { check as replayAll } from './replay-all.js';
import { check as resume } from './resume.js';
import { check as roster } from './roster.js';
import { check as subscribeLimits } from './subscribe-limits.js';
import { check as versionGate } from './version-gate.js';

/** Every live check, in run order: collector checks, then control (cancel last: it is destructive), then eviction. */
export const CHECKS: readonly Check[] = [
  discovery,
  versionGate,
  rejectInvalid,
  ingestFanout,
  resume,
  captureDownlevel,
  helloWs,
  subscribeLimits,
  ignoreUnknown,
  roster,
  replayAll,
  controlAuthGate,
  controlBehalfRefusal,
  controlAck,
  controlNackUnsupported,
  controlDedupe,
  controlCancel,
  evictReplayExhausted,
  evictByteIdentity,
];

export const CHECK_NAMES: readonly string[] = CHECKS.map((c) => c.name);

/** Selects checks by name (from `--checks a,b`); returns the unknown names when there are any. */
export function selectChecks(list: string | undefined): { checks: Check[]; unknown: string[] } {
  if (list === undefined || list.trim() === '') return { checks: [...CHECKS], unknown: [] };
  const names = list.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !CHECK_NAMES.includes(n));
  return { checks: CHECKS.filter((c) => names.includes(c.name)), unknown };
}
