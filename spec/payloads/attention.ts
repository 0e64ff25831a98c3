/** `attention.*` payloads (AEP-0002 §5.3, §5.4, §7; AEP-0006 forms; AEP-0008 `respond_via`). */
import { z } from 'zod';
import { answer, at, choice, fieldSpec, mCount, mEnum, mStr, obj, open, starred } from './common.js';

export const attentionPayloads = {
  'attention.requested': open({
    kind: mEnum(['permission', 'input', 'auth', 'review', 'form', 'other']),
    prompt: starred(z.string(), 'at capture metadata synthesized from structural metadata only (AEP-0003 §9.2); hook text at redacted and above, through the AEP-0003 §9.4 pipeline'),
    options: at('metadata', z.array(choice())).optional(),
    fields: at('metadata', z.array(fieldSpec())).optional(),
    expires_at: at('metadata', z.iso.datetime({ offset: true })).optional(),
    respond_via: at('metadata', z.array(z.enum(['control', 'oob']))).optional(),
    context: obj('full').optional(),
  }),
  'attention.answered': open({
    answer: answer(),
    by: mStr().optional(),
    via: mEnum(['control', 'oob']).optional(),
  }),
  'attention.resolved': open({
    resolution: mEnum(['answered', 'auto', 'dismissed']),
    latency_ms: mCount().optional(),
  }),
  'attention.timeout': open({
    after_ms: mCount().optional(),
  }),
  'attention.routed': open({
    to: mStr().optional(),
    via: mStr().optional(),
  }),
} satisfies Record<string, z.ZodType>;
