/** `control.*` payloads, experimental: commands (AEP-0004 §5) and acknowledgements (AEP-0004 §3). */
import { z } from 'zod';
import { NACK_REASONS } from '../registry.js';
import { answer, mEnum, open, rStr } from './common.js';

export const controlPayloads = {
  'control.attention.respond': open({ answer: answer() }),
  'control.cancel': open({ scope: mEnum(['run', 'session']), reason: rStr().optional() }),
  'control.pause': open({}),
  'control.resume': open({}),
  'control.accepted': open({}),
  'control.rejected': open({ reason: mEnum(NACK_REASONS), detail: rStr().optional() }),
} satisfies Record<string, z.ZodType>;
