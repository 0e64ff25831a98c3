/**
 * The `aep-reference/reference-api` subpath: this package's functions under the standard's
 * reference module names (`shared/aep`, `shared/ce-bridge`, `shared/redact`, `shared/otlp`,
 * `shared/ocsf`), with the reference's names and parameter lists, so a harness written
 * against the reference stack can drive this implementation unchanged.
 *
 * Every function is pure except `loadCaptureAnnotations`, which reads schema files; all may
 * be called at any time, in any order. Each function's `length` is its parameter count in
 * the reference signature (optional parameters included).
 */
import type { AepEvent, CaptureLevel } from './core/event.js';
import { canonicalJson as canonical } from './core/canonical.js';
import { downlevel as down, loadCaptureAnnotations as loadAnnotations, CAPTURE_ANNOTATIONS, type CaptureAnnotations } from './core/capture.js';
import { attrMatch as match, validateFilter as checkFilter } from './core/filter.js';
import { gateFormValues as gate } from './core/forms.js';
import { redactText as redactString, redactValue as redactAny, type RedactOptions } from './core/redact.js';
import { fromCloudEvent as fromCe, toCloudEvent as toCe } from './core/project/cloudevents.js';
import { toOtlp as otlpRecord, type OtlpOptions } from './core/project/otlp.js';
import { toOcsf as ocsfRecord, type OcsfOptions } from './core/project/ocsf.js';
import { mapAskUserQuestion } from './adapters/claude-code/map-ask-user-question.js';
import { mapElicitation } from './adapters/claude-code/map-elicitation.js';
import { mapHook as mapCodexHook } from './adapters/codex/map-hooks.js';
import { mapHook as mapClineHook } from './adapters/cline/map-hooks.js';
import { mapHook as mapHermesHook } from './adapters/hermes/map-hooks.js';
import { mapHook as mapAntigravityHook, type JoinResult } from './adapters/antigravity/map-hooks.js';
import { mapHook as mapGeminiCliHook } from './adapters/gemini-cli/map-hooks.js';
import { mapHook as mapKimiCodeHook } from './adapters/kimi-code/map-hooks.js';
import { mapHook as mapVscodeHook } from './adapters/vscode/map-hooks.js';
import { mapHook as mapQwenCodeHook } from './adapters/qwen-code/map-hooks.js';
import { diffTodos as diffOpenCodeTodos, mapMoment as mapOpenCodeMoment } from './adapters/opencode/map-hooks.js';
import { diffTodos as diffKiloCodeTodos, mapMoment as mapKiloCodeMoment } from './adapters/kilocode/map-hooks.js';
import { mapEvent as mapPiEvent, type PiInput } from './adapters/pi/map-events.js';
import * as bridges from './bridge-api.js';

/**
 * Projection options: an options object, or a bare capture level, which is read as
 * `{ maxCapture: level }` (the reference's `toOtlp(ev, maxCapture)` form). Default: `metadata`.
 */
export type ProjectionOptions<T> = T | CaptureLevel | undefined;

function projectionOptions<T extends { maxCapture?: CaptureLevel }>(opts: ProjectionOptions<T>): T {
  return (typeof opts === 'string' ? { maxCapture: opts } : (opts ?? {})) as T;
}

/** `shared/aep`: filters, canonical JSON, form gating, down-leveling, capture annotations. */
export const aep = {
  /** `null` when `filter` is an acceptable attr-match filter, else why it is refused (AEP-0003 §6). */
  validateFilter: function validateFilter(filter: unknown): string | null {
    return checkFilter(filter);
  },
  /** Whether `event` passes `filter`; the filter must have passed `validateFilter`. */
  attrMatch: function attrMatch(filter: unknown, event: Readonly<Record<string, unknown>>): boolean {
    return match(filter, event);
  },
  /** RFC 8785-shaped canonical JSON text. Throws TypeError on cycles and BigInts. */
  canonicalJson: function canonicalJson(value: unknown): string {
    return canonical(value);
  },
  /** AEP-0006 gating of `answer.values` for `ceiling`; `redact` (optional) is applied to kept free text. */
  gateFormValues: function gateFormValues(fields: unknown, values: unknown, ceiling: CaptureLevel, redact?: (text: string) => string): Record<string, unknown> {
    return gate(fields, values, ceiling, redact);
  },
  /** AEP-0001 §8.2 hop down-leveling. `annotations` default: this package's own (`spec/schemas/types`). */
  downlevel: function downlevel(event: AepEvent, ceiling: CaptureLevel, annotations?: CaptureAnnotations): AepEvent {
    return down(event, ceiling, annotations ?? CAPTURE_ANNOTATIONS);
  },
  /** Reads the `x-aep-capture` annotations of every `<type>.schema.json` in a folder. Throws naming a missing or bad file. */
  loadCaptureAnnotations: function loadCaptureAnnotations(schemaTypesDir: string): CaptureAnnotations {
    return loadAnnotations(schemaTypesDir);
  },
};

/** `shared/ce-bridge`: the AEP-0005 §1-§2 CloudEvents mapping, both directions. */
export const ceBridge = {
  toCloudEvent: function toCloudEvent(event: AepEvent): Record<string, unknown> {
    return toCe(event);
  },
  /** The inverse; `null` for a CloudEvent that is not an AEP profile event. */
  fromCloudEvent: function fromCloudEvent(ce: unknown): AepEvent | null {
    return fromCe(ce);
  },
};

/** `shared/redact`: the AEP-0003 §9.4 pipeline. Options: `home`, `secretValues`, `pii` (default true). */
export const redact = {
  redactText: function redactText(text: string, opts?: RedactOptions): string {
    return redactString(text, opts);
  },
  redactValue: function redactValue<T>(value: T, opts?: RedactOptions): T {
    return redactAny(value, opts);
  },
};

/** `shared/otlp`: the AEP-0005 §3 LogRecord projection. */
export const otlp = {
  toOtlp: function toOtlp(event: AepEvent, opts?: ProjectionOptions<OtlpOptions>) {
    return otlpRecord(event, projectionOptions(opts));
  },
};

/** `shared/ocsf`: the AEP-0005 §4 OCSF projection; `null` for events with no OCSF class. */
export const ocsf = {
  toOcsf: function toOcsf(event: AepEvent, opts?: ProjectionOptions<OcsfOptions>) {
    return ocsfRecord(event, projectionOptions(opts));
  },
};

/** `adapter-claude-code/map-ask-user-question`: one AskUserQuestion call → one `kind:"form"` request (AEP-0006). */
export const claudeCodeAskUserQuestion = { mapAskUserQuestion };

/** `adapter-claude-code/map-elicitation`: an MCP elicitation schema → a `kind:"form"` request (AEP-0006). */
export const claudeCodeElicitation = { mapElicitation };

/** `adapter-codex/map-hooks`: one Codex hook input → `{type, data, subject?}`, or null for a deliberate silence. */
export const codexHooks = {
  mapHook: function mapHook(input: Parameters<typeof mapCodexHook>[0]) {
    return mapCodexHook(input);
  },
};

/** `adapter-cline/map-hooks`: one Cline subprocess hook input → an array of `{type, data, subject?, step?}`. */
export const clineHooks = {
  mapHook: function mapHook(input: Parameters<typeof mapClineHook>[0]) {
    return mapClineHook(input);
  },
};

/** `adapter-hermes/map-hooks`: one Hermes shell hook envelope → an array of `{type, data, subject?}`. */
export const hermesHooks = {
  mapHook: function mapHook(input: Parameters<typeof mapHermesHook>[0]) {
    return mapHermesHook(input);
  },
};

/**
 * `adapter-antigravity/map-hooks`: `mapHook(hook, input, {join})` → an array. `hook` is the event
 * name the registration passes; `join` is the daemon's (conversationId, stepIdx) join result for a
 * PostToolUse, `{name}` (the tool name its PreToolUse carried), absent when nothing joined.
 */
export const antigravityHooks = {
  mapHook: function mapHook(hook: string, input: Record<string, unknown>, opts: { join?: JoinResult } | undefined) {
    return mapAntigravityHook(hook, input, opts?.join ? { join: opts.join } : {});
  },
};

/** `adapter-gemini-cli/map-hooks`: one Gemini CLI hook input → `{type, data, subject?}`. */
export const geminiCliHooks = {
  mapHook: function mapHook(input: Parameters<typeof mapGeminiCliHook>[0]) {
    return mapGeminiCliHook(input);
  },
};

/** `adapter-qwen-code/map-hooks`: one hook input → `{type, data, subject?}`, or null for a deliberate silence. */
export const qwenCodeHooks = {
  mapHook: function mapHook(input: Parameters<typeof mapQwenCodeHook>[0]) {
    return mapQwenCodeHook(input);
  },
};

/** `adapter-vscode/map-hooks`: one hook input → `{type, data, subject?}`, or null for a deliberate silence. */
export const vscodeHooks = {
  mapHook: function mapHook(input: Parameters<typeof mapVscodeHook>[0]) {
    return mapVscodeHook(input);
  },
};

/** `adapter-kimi-code/map-hooks`: one hook input → `{type, data, subject?}`, or null for a deliberate silence. */
export const kimiCodeHooks = {
  mapHook: function mapHook(input: Parameters<typeof mapKimiCodeHook>[0]) {
    return mapKimiCodeHook(input);
  },
};

/** `adapter-opencode/map-hooks`: one plugin moment → `{type, data, subject?}` or null; two todo snapshots → transition events. */
export const openCodeHooks = {
  mapMoment: function mapMoment(moment: unknown) {
    return mapOpenCodeMoment(moment);
  },
  diffTodos: function diffTodos(prev: unknown, next: unknown) {
    return diffOpenCodeTodos(prev, next);
  },
};

/** `adapter-kilocode/map-hooks`: the OpenCode table under the `kilocode` identity, both permission surfaces. */
export const kiloCodeHooks = {
  mapMoment: function mapMoment(moment: unknown) {
    return mapKiloCodeMoment(moment);
  },
  diffTodos: function diffTodos(prev: unknown, next: unknown) {
    return diffKiloCodeTodos(prev, next);
  },
};

/** `adapter-pi/map-events`: one `{session, event}` → `{type, data, subject?, step?}` or null; `{deltas: true}` is the stream-update opt-in. */
export const piEvents = {
  mapEvent: function mapEvent(input: PiInput, opts?: { deltas?: boolean }) {
    return mapPiEvent(input, opts ?? {});
  },
};

/** The reference module names mapped to their function tables. Each integration module is claimed by its descriptor's `reference` (runners/conformance/registry-coverage.test.ts holds the two equal). */
export const modules = {
  'shared/aep': aep,
  'shared/ce-bridge': ceBridge,
  'shared/redact': redact,
  'shared/otlp': otlp,
  'shared/ocsf': ocsf,
  'adapter-claude-code/map-ask-user-question': claudeCodeAskUserQuestion,
  'adapter-claude-code/map-elicitation': claudeCodeElicitation,
  'adapter-codex/map-hooks': codexHooks,
  'adapter-cline/map-hooks': clineHooks,
  'adapter-hermes/map-hooks': hermesHooks,
  'adapter-antigravity/map-hooks': antigravityHooks,
  'adapter-gemini-cli/map-hooks': geminiCliHooks,
  'adapter-kimi-code/map-hooks': kimiCodeHooks,
  'adapter-vscode/map-hooks': vscodeHooks,
  'adapter-qwen-code/map-hooks': qwenCodeHooks,
  'adapter-opencode/map-hooks': openCodeHooks,
  'adapter-kilocode/map-hooks': kiloCodeHooks,
  'adapter-pi/map-events': piEvents,
  'bridge-otlp-in/map-records': bridges.bridgeOtlpInCodex,
  'bridge-otlp-in/map-records-vscode': bridges.bridgeOtlpInVscode,
  'bridge-agui/map-events': bridges.bridgeAgui,
  'bridge-acp/map-frames': bridges.bridgeAcp,
  'bridge-openhands/map-events': bridges.bridgeOpenHands,
  'bridge-opencode-sse/mode-policy': bridges.bridgeOpenCodeSse,
  'bridge-kilocode-sse/mode-policy': bridges.bridgeKiloCodeSse,
  'bridge-kimi-code-web/mode-policy': bridges.bridgeKimiCodeWeb,
} as const;
