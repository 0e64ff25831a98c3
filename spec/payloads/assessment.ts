/** `assessment.*` payloads, experimental (AEP-0009 §3, §4, §6). */
import { z } from 'zod';
import { guardrail, mNum, mStr, open, rStr } from './common.js';

export const assessmentPayloads = {
  'assessment.evaluation.recorded': open({
    'gen_ai.evaluation.name': mStr().optional(),
    'gen_ai.evaluation.score.value': mNum().optional(),
    'gen_ai.evaluation.score.label': mStr().optional(),
    'gen_ai.evaluation.explanation': rStr().optional(),
    evaluator: mStr().optional(),
  }),
  'assessment.feedback.received': open({
    rating: mNum().optional(),
    label: mStr().optional(),
    comment: rStr().optional(),
    correction: rStr().optional(),
    source: mStr().optional(),
  }),
  'assessment.guardrail.recorded': open({
    guardrail: guardrail().optional(),
  }),
} satisfies Record<string, z.ZodType>;
