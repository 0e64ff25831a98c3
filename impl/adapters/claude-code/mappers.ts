/** The Claude Code adapter's pure mappers, as the conformance families call them (impl/integrations/mappers.ts); loaded lazily by the registry. */
import type { SourceMappers } from '../../integrations/mappers.js';
import { DEFAULT_POSTURE } from '../../adapter-kit/capture.js';
import { mapHook } from './map-hooks.js';
import { mapAskUserQuestion } from './map-ask-user-question.js';
import { mapElicitation } from './map-elicitation.js';

export const mappers: SourceMappers = {
  mapHook: (input) => mapHook(input, DEFAULT_POSTURE),
  mapAskUserQuestion: (questions, opts) => mapAskUserQuestion(questions as Parameters<typeof mapAskUserQuestion>[0], opts),
  mapElicitation: (message, schema, opts) => mapElicitation(message, schema, opts),
};
