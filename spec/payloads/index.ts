/** Every payload schema, keyed by registered type. The registry test keeps this map and `TYPES` in step. */
import type { z } from 'zod';
import { agentPayloads } from './agent.js';
import { assessmentPayloads } from './assessment.js';
import { attentionPayloads } from './attention.js';
import { controlPayloads } from './control.js';
import { progressPayloads } from './progress.js';
import { resourcePayloads } from './resource.js';
import { runPayloads } from './run.js';
import { sessionPayloads } from './session.js';
import { toolPayloads } from './tool.js';

export const PAYLOAD_SCHEMAS: Readonly<Record<string, z.ZodType>> = Object.freeze({
  ...sessionPayloads,
  ...runPayloads,
  ...toolPayloads,
  ...attentionPayloads,
  ...progressPayloads,
  ...agentPayloads,
  ...resourcePayloads,
  ...assessmentPayloads,
  ...controlPayloads,
});
