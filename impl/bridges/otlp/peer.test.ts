/**
 * The outbound OTLP sidecar against real peers: its batches (the relay → sidecar → `otlpExporter`
 * path) are POSTed into our own OTel-inbound receiver (`aep bridge otlp-in`), and every body is
 * decoded by the OpenTelemetry JS packages' own OTLP definitions (`@opentelemetry/otlp-transformer`'s
 * generated `ExportLogsServiceRequest`): the JSON is read into the protobuf message, encoded to
 * protobuf bytes, decoded back and compared member by member, so a misnamed field (dropped by
 * the reader), a wrong scalar type or a bad id encoding fails here.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { useRelay } from '../../relay/test-utils/use-relay.js';
import { post } from '../../relay/test-utils/testing.js';
import type { AepEvent } from '../../core/event.js';
import { validateEvent } from '../../core/envelope.js';
import { createEmitter } from '../../bridge-kit/emitter.js';
import { useTempHome } from '../../bridge-kit/test-utils/bridge-tests.js';
import { startSidecar, type RunningSidecar } from '../ce/sidecar.js';
import { startReceiver, type RunningReceiver } from '../otlp-in/receiver.js';
import type { OtelRecord, VendorProfile } from '../otlp-in/profile.js';
import { otlpExporter } from './exporter.js';
import { exportRequest } from './wire.js';

interface ProtoType {
  fromObject(o: unknown): unknown;
  encode(m: unknown): { finish(): Uint8Array };
  decode(b: Uint8Array): unknown;
  toObject(m: unknown, o: Record<string, unknown>): Record<string, unknown>;
}
const require = createRequire(import.meta.url);
const root = require('@opentelemetry/otlp-transformer/build/src/generated/root.js') as { opentelemetry: { proto: { collector: { logs: { v1: { ExportLogsServiceRequest: ProtoType } } } } } };
const Request = root.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;

const GOLDEN: AepEvent[] = readFileSync(new URL('../../../conformance/fixtures/golden/golden.jsonl', import.meta.url), 'utf8')
  .split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as AepEvent);

/** OTLP/JSON ids are hex (an exception to the proto3 JSON mapping); protobufjs reads bytes as base64. */
function hexIdsToBase64(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body), (k, v) => ((k === 'traceId' || k === 'spanId') && typeof v === 'string' ? Buffer.from(v, 'hex').toString('base64') : v));
}

/** The body through the official OTLP message: JSON → message → protobuf bytes → message → JSON. */
function protoRoundTrip(body: unknown): Record<string, unknown> {
  const bytes = Request.encode(Request.fromObject(hexIdsToBase64(body))).finish();
  const back = Request.toObject(Request.decode(bytes), { longs: String, enums: Number, bytes: String, defaults: false, arrays: false, objects: false });
  return JSON.parse(JSON.stringify(back), (k, v) => ((k === 'traceId' || k === 'spanId') && typeof v === 'string' ? Buffer.from(v, 'base64').toString('hex') : v)) as Record<string, unknown>;
}

/** `eventName` is LogRecord field 12, newer than the proto revision these packages carry (0.57.2). */
const withoutEventName = (body: unknown): unknown => JSON.parse(JSON.stringify(body), (k, v) => (k === 'eventName' ? undefined : v));

describe('OTLP wire bodies decoded by the OpenTelemetry JS OTLP definitions', () => {
  it('our golden corpus, 10 events a batch: every member survives the protobuf round trip, ids and int64 nanos exact', () => {
    expect(GOLDEN.length).toBeGreaterThan(40);
    for (let i = 0; i < GOLDEN.length; i += 10) {
      const body = exportRequest(GOLDEN.slice(i, i + 10));
      expect(protoRoundTrip(body), `golden[${i}..]`).toEqual(withoutEventName(body));
    }
    const traced = GOLDEN.find((e) => typeof e.traceparent === 'string')!;
    const record = (protoRoundTrip(exportRequest([traced])).resourceLogs as { scopeLogs: { logRecords: Record<string, unknown>[] }[] }[])[0]!.scopeLogs[0]!.logRecords[0]!;
    const [, trace, span] = (traced.traceparent as string).split('-');
    expect([record.traceId, record.spanId]).toEqual([trace, span]);
    expect(record.timeUnixNano).toBe(`${Date.parse(traced.time as string)}000000`);
  });

  it('the round trip is a real check: a misnamed member or a non-numeric nano count does not survive', () => {
    const body = exportRequest(GOLDEN.slice(0, 1)) as { resourceLogs: { scopeLogs: { logRecords: Record<string, unknown>[] }[] }[] };
    const bad = structuredClone(body);
    const rec = bad.resourceLogs[0]!.scopeLogs[0]!.logRecords[0]!;
    rec.severity_number = rec.severityNumber;
    delete rec.severityNumber;
    expect(protoRoundTrip(bad)).not.toEqual(withoutEventName(bad));
    const nan = structuredClone(body);
    nan.resourceLogs[0]!.scopeLogs[0]!.logRecords[0]!.timeUnixNano = 'soon';
    expect(protoRoundTrip(nan)).not.toEqual(withoutEventName(nan));
  });
});

const harness = useRelay();
const home = useTempHome();
const TOKEN = 'otlp-peer';
const closers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c.close();
});

describe('the OTLP sidecar into our own OTel-inbound receiver', () => {
  it('relay → sidecar → POST /v1/logs → otlp-in: the receiver decodes every LogRecord the sidecar sent, attributes typed', async () => {
    const relay = await harness.start({ token: TOKEN });
    // A profile that reads our own projection back: session = aep.session_id, one record kept per LogRecord.
    const seen: OtelRecord[] = [];
    const profile: VendorProfile = {
      agent: 'aep-otlp-peer',
      sessionOf: (r) => (typeof r.attributes?.['aep.session_id'] === 'string' ? (r.attributes['aep.session_id'] as string) : undefined),
      mapRecord: (r) => {
        seen.push(r);
        return null;
      },
    };
    const emitter = createEmitter({ agent: profile.agent, stateKey: 'otlp-peer', home: home(), emits: ['x'], writeLog: false, log: () => undefined });
    closers.push(emitter);
    const receiver: RunningReceiver = await startReceiver({ profile, mode: 'primary', emitter, port: 0, log: () => undefined });
    closers.push(receiver);
    const refused: string[] = [];
    const events = GOLDEN.filter((e) => validateEvent(e).length === 0 && typeof e.session === 'string' && !e.type.startsWith('control.')).slice(0, 12);
    expect(events.length).toBe(12);
    let sidecar: RunningSidecar | undefined;
    await new Promise<void>((resolve) => {
      sidecar = startSidecar({ relay, token: TOKEN, batchSize: 4, batchMs: 50, replay: true, initialBackoffMs: 20, maxBackoffMs: 80, log: () => undefined, deliver: otlpExporter({ endpoint: receiver.url, log: (l) => refused.push(l) }), onSubscribed: () => resolve() });
    });
    closers.push(sidecar!);
    const posted = await post(relay, events.map((e) => JSON.stringify(e)), { token: TOKEN });
    expect(posted.status, JSON.stringify(posted)).toBe(202);
    for (let i = 0; i < 300 && seen.length < events.length; i++) await new Promise((r) => setTimeout(r, 10));
    expect(refused).toEqual([]);
    expect(seen.map((r) => r.attributes!['aep.event_id'])).toEqual(events.map((e) => e.id));
    expect(seen.map((r) => r.attributes!['aep.session_id'])).toEqual(events.map((e) => e.session));
    // Typed AnyValues: seq is an int on the wire and a number once decoded; the resource names the agent.
    expect(seen.map((r) => r.attributes!['aep.sequence'])).toEqual(events.map((e) => e.seq));
    expect(seen.map((r) => r.resource!['service.name'])).toEqual(events.map((e) => e.agent));
  });
});
