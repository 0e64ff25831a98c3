/** `run.*` payloads (AEP-0002 §5.3, §5.4). */
import { z } from 'zod';
import { cost, errorInfo, mCount, mEnum, mStr, open, rStr, usageFields } from './common.js';

export const runPayloads = {
  'run.started': open({
    trigger: mEnum(['user', 'schedule', 'agent', 'control', 'resume']).optional(),
    prompt: rStr().optional(),
    ...usageFields(),
    cost: cost().optional(),
  }),
  'run.finished': open({
    duration_ms: mCount().optional(),
    ...usageFields(),
    cost: cost().optional(),
    summary: rStr().optional(),
  }),
  'run.failed': open({
    reason: mStr(),
    error: errorInfo().optional(),
    duration_ms: mCount().optional(),
  }),
  'run.cancelled': open({
    by: mEnum(['user', 'control', 'policy', 'shutdown']).optional(),
    reason: rStr().optional(),
    duration_ms: mCount().optional(),
  }),
  'run.step.started': open({
    name: rStr().optional(),
    initial_num_steps: mCount().optional(),
  }),
  'run.step.finished': open({
    status: mStr().optional(),
  }),
} satisfies Record<string, z.ZodType>;
