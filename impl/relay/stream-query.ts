/**
 * The SSE subscription request (AEP-0003 §3.3): `filter`, `capture`, `from`, `live`, and the
 * `Last-Event-ID` header, checked before any response header is sent. Pure.
 *
 * Refusals are 400 with `{error, detail}`, `error` from the AEP-0003 §6.5 vocabulary:
 * `invalid-filter` (malformed or illegal filter, malformed `from`, unknown capture level,
 * bad `live`) or `limit-exceeded` (more `from` positions than AEP_MAX_FROM).
 * `from` takes precedence over `Last-Event-ID`; a `Last-Event-ID` that is not
 * `{session}:{epoch}:{seq}` is ignored (it may come from another server).
 */
import { MAX_FILTER_TERMS, compileFilter, filterTerms, validateFilter, type FilterMatch } from '../core/filter.js';
import type { CaptureLevel } from '../core/event.js';
import { isFromProblem, parseEventId, parseFrom, type ReplayRequest } from './positions.js';
import { isCaptureLevel } from './render.js';

export interface StreamRequest {
  readonly filter: Readonly<Record<string, unknown>>;
  /** `filter` compiled once, here. */
  readonly match: FilterMatch;
  readonly ceiling: CaptureLevel | undefined;
  readonly replay: ReplayRequest;
  /** False for `live=0`: replay, then `: replay-complete`, then the stream ends. */
  readonly live: boolean;
}

export type StreamQuery = { readonly ok: true; readonly request: StreamRequest } | { readonly ok: false; readonly code: 'invalid-filter' | 'limit-exceeded'; readonly detail: string };

function parseJsonParam(name: string, raw: string): { ok: true; value: unknown } | { ok: false; detail: string } {
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch {
    return { ok: false, detail: `the ${name} parameter is not JSON: URL-encode a JSON ${name === 'filter' ? 'object' : 'array or the word all'}` };
  }
}

export function parseStreamQuery(params: URLSearchParams, lastEventId: string | undefined, maxFrom: number): StreamQuery {
  let filter: Record<string, unknown> = {};
  const rawFilter = params.get('filter');
  if (rawFilter !== null && rawFilter.trim() !== '') {
    const parsed = parseJsonParam('filter', rawFilter);
    if (!parsed.ok) return { ok: false, code: 'invalid-filter', detail: parsed.detail };
    if (filterTerms(parsed.value) > MAX_FILTER_TERMS) {
      return { ok: false, code: 'limit-exceeded', detail: `the filter holds more than ${MAX_FILTER_TERMS} terms (members plus list entries); this relay's limit is ${MAX_FILTER_TERMS}` };
    }
    const problem = validateFilter(parsed.value);
    if (problem !== null) return { ok: false, code: 'invalid-filter', detail: problem };
    filter = parsed.value as Record<string, unknown>;
  }

  const rawCapture = params.get('capture');
  let ceiling: CaptureLevel | undefined;
  if (rawCapture !== null && rawCapture !== '') {
    if (!isCaptureLevel(rawCapture)) return { ok: false, code: 'invalid-filter', detail: `capture=${JSON.stringify(rawCapture)} is not a capture level: use none, metadata, redacted or full` };
    ceiling = rawCapture;
  }

  const rawLive = params.get('live');
  let live = true;
  if (rawLive !== null) {
    if (rawLive === '0' || rawLive === 'false') live = false;
    else if (rawLive !== '1' && rawLive !== 'true' && rawLive !== '') return { ok: false, code: 'invalid-filter', detail: `live=${JSON.stringify(rawLive)} is not 0 or 1` };
  }

  let replay: ReplayRequest = { kind: 'none' };
  const rawFrom = params.get('from');
  if (rawFrom !== null) {
    let value: unknown = 'all';
    if (rawFrom.trim() !== 'all') {
      const parsed = parseJsonParam('from', rawFrom);
      if (!parsed.ok) return { ok: false, code: 'invalid-filter', detail: parsed.detail };
      value = parsed.value;
    }
    const from = parseFrom(value, maxFrom);
    if (isFromProblem(from)) return { ok: false, code: from.code, detail: from.detail };
    replay = from;
  } else if (lastEventId !== undefined) {
    const point = parseEventId(lastEventId);
    if (point) replay = { kind: 'positions', points: [point] };
  }
  return { ok: true, request: { filter, match: compileFilter(filter), ceiling, replay, live } };
}
