/**
 * The OTel-inbound receiver (port: its descriptor's): `POST /v1/logs` takes an OTLP/HTTP JSON export, each
 * LogRecord goes through the vendor profile's pure mapper in the configured mode (companion by
 * default, `primary` with --primary) and leaves as an ordinary AEP event toward the relay.
 * Identity: session = the profile's session key, agent = the profile's agent, no run.
 *
 * Answers: 200 `{}` when every record was taken; 200 `{"partialSuccess": {rejectedLogRecords,
 * errorMessage}}` for records with no session key (OTLP's partial-success form); 400 for a body
 * that is not an ExportLogsServiceRequest; 415 for protobuf (transcode through an OTel Collector
 * with the `otlphttp` exporter and `encoding: json`); 413 above 8 MiB. `GET /healthz` →
 * `{ok, relay}`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Emitter } from '../bridge-kit/emitter.js';
import { readBody } from '../http/body.js';
import type { CaptureLevel } from '../core/event.js';
import { readExport } from './otlp-json.js';
import type { Mode, VendorProfile } from './profile.js';
import { descriptor } from './descriptor.js';

export const DEFAULT_PORT = descriptor.port;
const MAX_BODY = 8 * 1024 * 1024;

export interface ReceiverOptions {
  profile: VendorProfile;
  mode: Mode;
  ceiling?: CaptureLevel;
  emitter: Emitter;
  port?: number;
  log(line: string): void;
}

export interface RunningReceiver {
  url: string;
  port: number;
  close(): Promise<void>;
}


/** Map and emit every record of one export; returns how many were rejected and why. */
export function ingestExport(body: unknown, opts: Pick<ReceiverOptions, 'profile' | 'mode' | 'ceiling' | 'emitter'>): { error?: string; rejected: number; emitted: number } {
  const { records, error } = readExport(body);
  if (error) return { error, rejected: 0, emitted: 0 };
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
  const server: Server = createServer((req, res) => {
    const json = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (req.method === 'GET' && path === '/healthz') return json(200, { ok: true, relay: opts.emitter.relayReady() });
    if (path !== '/v1/logs') return json(404, { error: 'not-found', detail: 'POST /v1/logs (OTLP/HTTP JSON) or GET /healthz' });
    if (req.method !== 'POST') return json(405, { error: 'method-not-allowed', detail: 'OTLP exports are POSTed to /v1/logs' });
    const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') {
      req.resume();
      return json(415, { error: 'unsupported-media-type', detail: `this receiver takes OTLP JSON (application/json), got '${type || 'none'}'; transcode protobuf through an OTel Collector (otlphttp exporter, encoding: json)` });
    }
    void readBody(req, MAX_BODY).then((read) => {
      if (!read.ok) {
        if (read.reason === 'aborted') return; // the exporter went away: nobody to answer
        if (read.reason === 'encoding') return json(400, { error: 'invalid-encoding', detail: `the body is not valid UTF-8 (first bad byte at offset ${read.offset}); OTLP JSON is UTF-8` });
        req.resume();
        return json(413, { error: 'payload-too-large', detail: `exports are limited to ${MAX_BODY} bytes; lower the exporter's batch size` });
      }
      let body: unknown;
      try {
        body = JSON.parse(read.text);
      } catch {
        return json(400, { error: 'invalid-json', detail: 'the body is not JSON: send an OTLP JSON ExportLogsServiceRequest' });
      }
      const result = ingestExport(body, opts);
      if (result.error) return json(400, { error: 'invalid-export', detail: result.error });
      if (result.rejected > 0) {
        opts.log(`rejected ${result.rejected} LogRecord(s) without a session key`);
        return json(200, { partialSuccess: { rejectedLogRecords: result.rejected, errorMessage: `${result.rejected} LogRecord(s) carried no session key (${opts.profile.agent === 'vscode' ? 'resource session.id' : 'conversation.id'}) and were dropped` } });
      }
      return json(200, {});
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? DEFAULT_PORT, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
