/** `tool.*` payloads (AEP-0002 §5.3). */
import { z } from 'zod';
import { at, cost, errorInfo, mCount, mEnum, mStr, obj, open, toolRef, usageFields } from './common.js';

/** A tool result: structured or plain text. */
const result = (level: 'redacted' | 'full') => at(level, z.union([z.looseObject({}), z.string()]));

export const toolPayloads = {
  'tool.requested': open({
    tool: toolRef(),
    args_digest: mStr().optional(),
    args: obj('full').optional(),
    args_redacted: obj('redacted').optional(),
  }),
  'tool.completed': open({
    tool: toolRef(),
    duration_ms: mCount().optional(),
    status: mStr().optional(),
    result_digest: mStr().optional(),
    result: result('full').optional(),
    result_redacted: result('redacted').optional(),
    ...usageFields(),
    cost: cost().optional(),
  }),
  'tool.failed': open({
    tool: toolRef(),
    error: errorInfo(),
    duration_ms: mCount().optional(),
  }),
  'tool.denied': open({
    tool: toolRef(),
    by: mEnum(['policy', 'user_setting', 'runtime']),
    rule: mStr().optional(),
  }),
} satisfies Record<string, z.ZodType>;
