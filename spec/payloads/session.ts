/** `session.*` payloads (AEP-0002 §5.3, §5.4). */
import { z } from 'zod';
import { at, mCount, mEnum, mStr, open, rStr, usageFields } from './common.js';

export const sessionPayloads = {
  'session.started': open({
    label: rStr().optional(),
    parent: at('metadata', open({ session: mStr(), run: mStr().optional(), agent: mStr().optional() })).optional(),
    client: at('metadata', open({ name: mStr(), version: mStr().optional() })).optional(),
    'gen_ai.request.model': mStr().optional(),
    cwd: rStr().optional(),
  }),
  'session.ended': open({
    reason: mEnum(['normal', 'error', 'timeout', 'killed', 'compaction']).optional(),
    duration_ms: mCount().optional(),
    runs: mCount().optional(),
  }),
  'session.compacted': open({
    trigger: mStr().optional(),
    strategy: mStr().optional(),
    estimated_token_count: mCount().optional(),
    forgotten: mCount().optional(),
    ...usageFields(),
  }),
} satisfies Record<string, z.ZodType>;
