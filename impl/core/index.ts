/**
 * The package's main export: the AEP 0.1 protocol library. Every module below is pure (no
 * sockets, timers or `process`) except `loadCaptureAnnotations`, which reads schema files.
 * Module map and contracts: ARCHITECTURE.md.
 */
export * from './event.js';
export * from './issue.js';
export * from '../../spec/registry.js';
export * from './payload.js';
export * from './envelope.js';
export * from './stream.js';
export * from './rules.js';
export * from './forms.js';
export * from './canonical.js';
export * from './json-shape.js';
export * from './ulid.js';
export * from './redact.js';
export * from './digest.js';
export * from './capture.js';
export * from './honesty.js';
export * from './filter.js';
export * from './project/cloudevents.js';
export * from './project/otlp.js';
export * from './project/ocsf.js';
