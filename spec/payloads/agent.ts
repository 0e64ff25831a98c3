/** `agent.*` (agent-scoped), `error.*` and `state.*` payloads (AEP-0002 §5.4). */
import { z } from 'zod';
import { at, errorInfo, mBool, mCount, mEnum, mStr, obj, open, rStr } from './common.js';

export const agentPayloads = {
  'agent.presence': open({ state: mEnum(['online', 'offline', 'busy']) }),
  'agent.idle': open({ since_ms: mCount().optional(), reason: mStr().optional() }),
  'agent.health': open({ status: mEnum(['ok', 'degraded', 'failing']), detail: rStr().optional() }),
  'agent.heartbeat': open({ tick: mCount().optional(), interval_ms: mCount().optional() }),
  'error.raised': open({ error: errorInfo().optional(), code: mStr().optional(), fatal: mBool().optional() }),
  'state.snapshot': open({ state: obj('redacted').optional(), key: mStr().optional(), rev: mCount().optional() }),
  'state.delta': open({
    /** RFC 6902 operations against the last snapshot for `key`. */
    delta: at('redacted', z.array(z.looseObject({}))).optional(),
    key: mStr().optional(),
    rev: mCount().optional(),
  }),
} satisfies Record<string, z.ZodType>;
