/**
 * `POST /events` (AEP-0003 §3.2): version gate, media type, size bounds, whole-batch
 * validation, then every event is published in body order.
 *
 * Check order: `AEP-Version` (missing: 400 `version-required`; anything but `0.1`: 426 with
 * exactly the body AEP-0003 §3.2 names, `{"versions":["0.1"]}`, so a strict client can compare it),
 * media type (415), body size (413 `payload-too-large`), UTF-8 (400 `invalid-event`, rule
 * `stream.line.encoding`: never decoded with U+FFFD), batch size (413 `too-many-events`),
 * every event valid and none a command (400 `invalid-event`, 403 `control-requires-duplex`),
 * then 202 `{accepted, duplicates}`. Authentication is checked by the router before this.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseBatch, parseLines, type BodyKind } from './batch.js';
import { readBodyLines } from './body-lines.js';
import type { RelayConfig } from './config.js';
import { VERSIONS } from './discovery.js';
import { mediaType, readBody, refuseTooLarge, sendJson } from './http-util.js';
import type { HubLike } from './hub.js';

const KINDS: Readonly<Record<string, BodyKind>> = { 'application/json': 'json', 'application/x-ndjson': 'ndjson' };

/** The version gate, shared by tests: null when the header names a supported version. */
export function versionRefusal(header: string | string[] | undefined): { status: number; body: Record<string, unknown> } | null {
  if (header === undefined) {
    return { status: 400, body: { error: 'version-required', versions: [...VERSIONS], detail: 'send the AEP-Version: 0.1 request header (AEP-0003 §3.2)' } };
  }
  const value = (Array.isArray(header) ? header.join(',') : header).trim();
  // Tolerant reading: a comma-separated list naming a supported version is accepted too.
  if (value.split(',').some((v) => VERSIONS.includes(v.trim()))) return null;
  // The body is exactly the one AEP-0003 §3.2 specifies; the Upgrade header names what to send.
  return { status: 426, body: { versions: [...VERSIONS] } };
}

export async function handleIngest(req: IncomingMessage, res: ServerResponse, config: RelayConfig, hub: HubLike): Promise<void> {
  const version = versionRefusal(req.headers['aep-version']);
  if (version) return sendJson(res, version.status, version.body, version.status === 426 ? { upgrade: 'AEP/0.1' } : {});
  const kind = KINDS[mediaType(req)];
  if (kind === undefined) {
    return sendJson(res, 415, {
      error: 'unsupported-media-type',
      detail: `Content-Type ${JSON.stringify(req.headers['content-type'] ?? '')} is not accepted: send application/json (one event) or application/x-ndjson (one event per line)`,
    });
  }
  // NDJSON arrives as its lines, never as one string (`body-lines.ts`).
  const body = kind === 'ndjson' ? await readBodyLines(req, config.maxBody) : await readBody(req, config.maxBody);
  if (!body.ok) {
    if (body.reason === 'too-large') refuseTooLarge(req, res, config.maxBody);
    if (body.reason === 'encoding') {
      sendJson(res, 400, {
        error: 'invalid-event',
        detail: `the body is not valid UTF-8 (first bad byte at offset ${body.offset}); AEP events are UTF-8 JSON, and the relay never substitutes U+FFFD; nothing was ingested`,
        issues: [{ rule: 'stream.line.encoding', section: 'AEP-0001 §5', path: '$', message: `invalid UTF-8 at byte ${body.offset}` }],
      });
    }
    return;
  }
  const verdict = 'lines' in body ? parseLines(body.lines, config.maxBatch) : parseBatch(body.text, kind, config.maxBatch);
  if (!verdict.ok) return sendJson(res, verdict.refusal.status, verdict.refusal.body);
  const accepted = verdict.events.length;
  const stored = await hub.ingest(verdict.events);
  if (stored.ok) return sendJson(res, 202, { accepted, duplicates: accepted - stored.fresh });
  sendJson(res, 503, { error: 'unavailable', detail: `${stored.detail}; nothing of this request is acknowledged: send the whole batch again later (events already stored are dropped as duplicates by (source, id))` }, { 'retry-after': '1' });
}
