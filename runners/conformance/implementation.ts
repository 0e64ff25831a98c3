/**
 * The implementation the runner checks by default: this package's own core. Self-tests
 * build their own `Implementation` objects (deliberately broken ones included) instead.
 */
import type { AepEvent, CaptureLevel } from '../../impl/core/event.js';
import { validateEvent } from '../../impl/core/envelope.js';
import { parseJsonl, validateStream } from '../../impl/core/stream.js';
import { attrMatch, validateFilter } from '../../impl/core/filter.js';
import { redactText, redactValue } from '../../impl/core/redact.js';
import { gateFormValues } from '../../impl/core/forms.js';
import { downlevel } from '../../impl/core/capture.js';
import { fromCloudEvent, toCloudEvent } from '../../impl/core/project/cloudevents.js';
import { toOtlp } from '../../impl/core/project/otlp.js';
import { toOcsf } from '../../impl/core/project/ocsf.js';
import type { Implementation } from './types.js';

/** The reference core, adapted to the runner's loosely typed interface. */
export const referenceImplementation: Implementation = {
  validateEvent: (value) => validateEvent(value),
  validateStream: (events) => validateStream(events),
  parseJsonl: (text) => parseJsonl(text),
  validateFilter: (filter) => validateFilter(filter),
  attrMatch: (filter, event) => attrMatch(filter, event as Record<string, unknown>),
  redactText: (text, opts) => redactText(text, opts),
  redactValue: (value, opts) => redactValue(value, opts),
  gateFormValues: (fields, values, ceiling, redact) => gateFormValues(fields, values, ceiling as CaptureLevel, redact),
  downlevel: (event, ceiling) => downlevel(event as AepEvent, ceiling as CaptureLevel),
  toCloudEvent: (event) => toCloudEvent(event as AepEvent),
  fromCloudEvent: (ce) => fromCloudEvent(ce),
  toOtlp: (event) => toOtlp(event as AepEvent),
  toOcsf: (event) => toOcsf(event as AepEvent),
};
