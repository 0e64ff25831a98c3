/**
 * WebSocket frames (AEP-0003 §2, §4, §6.5): judging the frames a peer sends and building
 * the ones the relay sends. Pure. Frames are JSON objects whose `type` has no dot.
 *
 * Error codes the relay sends: `hello-required`, `version-unsupported` (connection level,
 * then close); `invalid-filter`, `unknown-dialect`, `unauthorized`, `limit-exceeded`
 * (subscribe and roster, `id` echoed, connection survives); `unauthorized`, `no-route`,
 * `ambiguous`, `unsupported` (commands, `cause` = command id); and three relay-level codes
 * outside the spec's closed sets: `invalid-frame` (not JSON, not an object, binary, a
 * repeated hello, a roster without id), `invalid-event` (an event that fails validation,
 * `cause` = its id) and `internal` (the relay failed on the frame; the connection stays).
 */
import { MAX_FILTER_TERMS, compileFilter, filterTerms, validateFilter, type FilterMatch } from '../core/filter.js';
import { isPlainObject, type CaptureLevel } from '../core/event.js';
import { isFromProblem, parseFrom, type ReplayRequest } from './positions.js';
import { isCaptureLevel } from './render.js';
import { VERSIONS } from './discovery.js';

export type Role = 'emitter' | 'consumer' | 'both';

/** What the relay keeps from a peer's hello. */
export interface PeerHello {
  readonly version: string;
  readonly role: Role;
  /** `identity.agent`, when declared. */
  readonly agent: string | undefined;
  /** `identity.instance`, when declared. */
  readonly instance: string | undefined;
  /** `capabilities.control`, verbatim, when declared as an object. */
  readonly control: Readonly<Record<string, unknown>> | undefined;
  /** `capabilities.emits`, verbatim, when declared. */
  readonly emits: unknown;
}

export type Frame = Readonly<Record<string, unknown>>;

/** Serialize a frame. */
export const frame = (f: Frame): string => JSON.stringify(f);

export function errorFrame(code: string, detail: string, correlate: { id?: unknown; cause?: unknown } = {}): string {
  const f: Record<string, unknown> = { type: 'error' };
  if (correlate.id !== undefined) f.id = correlate.id;
  if (correlate.cause !== undefined) f.cause = correlate.cause;
  f.code = code;
  f.detail = detail;
  return frame(f);
}

const ROLES: readonly string[] = ['emitter', 'consumer', 'both'];

/**
 * Judge a peer's first frame. Returns the hello, or the error frame to send before closing:
 * `hello-required` when it is not a hello, `version-unsupported` (with `versions`) when its
 * `versions` (an array, or one version as a string) shares nothing with ours. A missing or
 * unknown `role` counts as `consumer`.
 */
export function acceptHello(value: unknown): { ok: true; hello: PeerHello } | { ok: false; error: string } {
  if (!isPlainObject(value) || value.type !== 'hello') {
    return { ok: false, error: errorFrame('hello-required', 'the first frame on /socket must be a hello (AEP-0003 §3.5)') };
  }
  // A bare string is read as a one-element preference list (tolerant of a common client slip).
  const versions = typeof value.versions === 'string' ? [value.versions] : value.versions;
  const offered = Array.isArray(versions) ? versions.filter((v): v is string => typeof v === 'string') : [];
  const version = offered.find((v) => VERSIONS.includes(v));
  if (version === undefined) {
    return {
      ok: false,
      error: frame({ type: 'error', code: 'version-unsupported', versions: [...VERSIONS], detail: `no version in common: offered ${JSON.stringify(value.versions ?? null)}, this relay speaks ${VERSIONS.join(', ')}` }),
    };
  }
  const identity = isPlainObject(value.identity) ? value.identity : {};
  const caps = isPlainObject(value.capabilities) ? value.capabilities : {};
  return {
    ok: true,
    hello: {
      version,
      role: typeof value.role === 'string' && ROLES.includes(value.role) ? (value.role as Role) : 'consumer',
      agent: typeof identity.agent === 'string' ? identity.agent : undefined,
      instance: typeof identity.instance === 'string' ? identity.instance : undefined,
      control: isPlainObject(caps.control) ? caps.control : undefined,
      emits: caps.emits,
    },
  };
}

/** The declared `control.accepts` as a list of types, or undefined when none was declared. */
export function declaredAccepts(hello: PeerHello): readonly string[] | undefined {
  const accepts = hello.control?.accepts;
  return Array.isArray(accepts) ? accepts.filter((t): t is string => typeof t === 'string') : undefined;
}

/** A checked `subscribe` request. */
export interface SubscribeRequest {
  /** The subscriber's id, echoed in `subscribed` and `replay-exhausted`; undefined when it sent none. */
  readonly id: string | number | undefined;
  readonly filter: Readonly<Record<string, unknown>>;
  /** `filter` compiled once, here. */
  readonly match: FilterMatch;
  readonly ceiling: CaptureLevel | undefined;
  readonly replay: ReplayRequest;
}

const isId = (v: unknown): v is string | number => (typeof v === 'string' && v !== '') || (typeof v === 'number' && Number.isFinite(v));

/**
 * Judge a `subscribe` frame (AEP-0003 §6.5). Refusals carry a code from the closed set and
 * never a partial subscription. `id` may be absent (the spec marks it REQUIRED only for
 * `roster`): such a subscription is answered `{"type":"subscribed"}` and cannot be
 * unsubscribed by id; a present `id` must be a non-empty string or a number.
 */
export function parseSubscribe(f: Frame, maxFrom: number): { ok: true; sub: SubscribeRequest } | { ok: false; code: string; detail: string } {
  if (f.id !== undefined && !isId(f.id)) return { ok: false, code: 'invalid-filter', detail: 'a subscribe id must be a non-empty string or a number' };
  let filter: Record<string, unknown> = {};
  if (f.filter !== undefined) {
    const terms = filterTerms(f.filter);
    if (terms > MAX_FILTER_TERMS) return { ok: false, code: 'limit-exceeded', detail: `the filter holds more than ${MAX_FILTER_TERMS} terms (members plus list entries); this relay's limit is ${MAX_FILTER_TERMS}: split it across subscriptions or filter on a broader attribute` };
    const problem = validateFilter(f.filter);
    if (problem !== null) return { ok: false, code: 'invalid-filter', detail: problem };
    filter = f.filter as Record<string, unknown>;
  }
  let ceiling: CaptureLevel | undefined;
  if (f.capture !== undefined) {
    if (!isCaptureLevel(f.capture)) return { ok: false, code: 'invalid-filter', detail: `capture ${JSON.stringify(f.capture)} is not a capture level: use none, metadata, redacted or full` };
    ceiling = f.capture;
  }
  let replay: ReplayRequest = { kind: 'none' };
  if (f.from !== undefined) {
    const from = parseFrom(f.from, maxFrom);
    if (isFromProblem(from)) return { ok: false, code: from.code, detail: from.detail };
    replay = from;
  }
  return { ok: true, sub: { id: f.id as string | number | undefined, filter, match: compileFilter(filter), ceiling, replay } };
}

export { isId };
