/**
 * The OTel-inbound receiver (port: its descriptor's): `POST /v1/logs` takes an OTLP/HTTP JSON export, each
 * LogRecord goes through the vendor profile's pure mapper in the configured mode (companion by
 * default, `primary` with --primary) and leaves as an ordinary AEP event toward the relay.
 * Identity: session = the profile's session key, agent = the profile's agent, no run.
 *
 * Answers: 200 `{}` when every record was taken; 200 `{"partialSuccess": {rejectedLogRecords,
 * errorMessage}}` for records with no session key (OTLP's partial-success form); 400 for a body
 * that is not an ExportLogsServiceRequest; 415 for protobuf (transcode through an OTel Collector
 * with the `otlphttp` exporter and `encoding: json`); 413 above `AEP_OTLP_IN_MAX_BODY` (8 MiB);
 * 400 `too-deep` past `AEP_OTLP_IN_MAX_DEPTH` (64) levels of JSON, or attribute values nested
 * past 32 kvlist/array levels; 408 when the head or the whole request is slower than
 * `AEP_OTLP_IN_HEADERS_TIMEOUT_MS` / `AEP_OTLP_IN_BODY_TIMEOUT_MS` (impl/http/limits.ts).
 * `GET /healthz` → `{ok, relay}`.
 */
import type { Emitter } from '../../bridge-kit/emitter.js';
import { readJsonBody, type EdgeRefusal } from '../../http/json-body.js';
import type { EdgeLimits } from '../../http/limits.js';
import { lingerClose } from '../../http/reply.js';
import { closeServer, createEdgeServer, listenLoopback } from '../../http/server.js';
import { requestUrl } from '../../http/target.js';
import type { CaptureLevel } from '../../core/event.js';
import { readExport } from './otlp-json.js';
import type { Mode, VendorProfile } from './profile.js';
import { descriptor, EDGE } from './descriptor.js';

export const DEFAULT_PORT = descriptor.port;

export interface ReceiverOptions {
  profile: VendorProfile;
  mode: Mode;
  ceiling?: CaptureLevel;
  emitter: Emitter;
  port?: number;
  /** Body, depth and timeout limits (default: the descriptor's, AEP_OTLP_IN_MAX_BODY and friends). */
  limits?: EdgeLimits;
  log(line: string): void;
}

export interface RunningReceiver {
  url: string;
  port: number;
  close(): Promise<void>;
}


/** Map and emit every record of one export; returns how many were rejected and why. */
export function ingestExport(body: unknown, opts: Pick<ReceiverOptions, 'profile' | 'mode' | 'ceiling' | 'emitter'>): { error?: string; tooDeep?: true; rejected: number; emitted: number } {
  const { records, error, tooDeep } = readExport(body);
  if (error) return { error, ...(tooDeep ? { tooDeep } : {}), rejected: 0, emitted: 0 };
  let rejected = 0;
  let emitted = 0;
  for (const record of records) {
    const session = opts.profile.sessionOf(record);
    if (!session) {
      rejected += 1;
      continue;
    }
    const mapped = opts.profile.mapRecord(record, { mode: opts.mode, ...(opts.ceiling ? { ceiling: opts.ceiling } : {}) });
    if (mapped === null) continue;
    opts.emitter.emit(session, mapped);
    emitted += 1;
  }
  return { rejected, emitted };
}

export async function startReceiver(opts: ReceiverOptions): Promise<RunningReceiver> {
  const limits = opts.limits ?? EDGE.defaults;
  const server = createEdgeServer(limits, async (req, res) => {
    const json = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      if (res.headersSent || res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const refused = (r: EdgeRefusal): void => {
      // The receiver's own words for these two (unchanged bytes); the shared ones for the limits.
      if (r.body.error === 'invalid-encoding') return json(400, { error: 'invalid-encoding', detail: `the body is not valid UTF-8 (first bad byte at offset ${String(r.body.offset)}); OTLP JSON is UTF-8` });
      if (r.body.error === 'invalid-json') return json(400, { error: 'invalid-json', detail: 'the body is not JSON: send an OTLP JSON ExportLogsServiceRequest' });
      if (r.status !== 413) return json(r.status, r.body);
      lingerClose(req);
      json(413, { ...r.body, detail: `${r.body.detail}; lower the exporter's batch size` }, { connection: 'close' });
    };
    const path = requestUrl(req)?.pathname;
    if (req.method === 'GET' && path === '/healthz') return json(200, { ok: true, relay: opts.emitter.relayReady() });
    if (path !== '/v1/logs') return json(404, { error: 'not-found', detail: 'POST /v1/logs (OTLP/HTTP JSON) or GET /healthz' });
    if (req.method !== 'POST') return json(405, { error: 'method-not-allowed', detail: 'OTLP exports are POSTed to /v1/logs' });
    const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') {
      req.resume();
      return json(415, { error: 'unsupported-media-type', detail: `this receiver takes OTLP JSON (application/json), got '${type || 'none'}'; transcode protobuf through an OTel Collector (otlphttp exporter, encoding: json)` });
    }
    const read = await readJsonBody(req, limits, EDGE.prefix);
    if (!read.ok) {
      if (read.aborted) return; // the exporter went away: nobody to answer
      return refused(read.refusal);
    }
    const result = ingestExport(read.value, opts);
    if (result.error) return json(400, { error: result.tooDeep ? 'too-deep' : 'invalid-export', detail: result.error });
    if (result.rejected > 0) {
      opts.log(`rejected ${result.rejected} LogRecord(s) without a session key`);
      return json(200, { partialSuccess: { rejectedLogRecords: result.rejected, errorMessage: `${result.rejected} LogRecord(s) carried no session key (${opts.profile.agent === 'vscode' ? 'resource session.id' : 'conversation.id'}) and were dropped` } });
    }
    return json(200, {});
  }, opts.log);
  const port = await listenLoopback(server, opts.port ?? DEFAULT_PORT);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () => closeServer(server),
  };
}
