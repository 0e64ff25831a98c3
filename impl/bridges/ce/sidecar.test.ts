import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useRelay } from '../../relay/test-utils/use-relay.js';
import { makeEvent, post } from '../../relay/test-utils/testing.js';
import { toCloudEvent } from '../../core/project/cloudevents.js';
import type { AepEvent } from '../../core/event.js';
import { startSidecar, type RunningSidecar, type SidecarOptions } from './sidecar.js';
import { httpSink } from './sink.js';
import { otlpExporter } from '../otlp/exporter.js';
import { readExport } from '../otlp-in/otlp-json.js';

const harness = useRelay();
const TOKEN = 'sidecar-test-token';

/** A local HTTP sink: records every request; `failNext` answers that many requests with 503. */
interface Sink {
  url: string;
  requests: { path: string; type: string; body: string }[];
  failNext: number;
  server: Server;
}
const sinks: Sink[] = [];
const sidecars: RunningSidecar[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of sidecars.splice(0)) await s.close();
  for (const s of sinks.splice(0)) await new Promise((r) => s.server.close(r));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function sink(): Promise<Sink> {
  const s: Sink = { url: '', requests: [], failNext: 0, server: createServer() };
  s.server.on('request', (req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (s.failNext > 0) {
        s.failNext -= 1;
        res.writeHead(503).end('down');
        return;
      }
      s.requests.push({ path: req.url ?? '', type: String(req.headers['content-type']), body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => s.server.listen(0, '127.0.0.1', r));
  const addr = s.server.address();
  s.url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  sinks.push(s);
  return s;
}

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

function run(opts: Partial<SidecarOptions> & Pick<SidecarOptions, 'relay' | 'deliver'>): Promise<RunningSidecar> {
  return new Promise((resolve) => {
    const s = startSidecar({ token: TOKEN, batchSize: 1, batchMs: 0, log: () => undefined, initialBackoffMs: 20, maxBackoffMs: 80, replay: true, ...opts, onSubscribed: () => resolve(s) });
    sidecars.push(s);
  });
}

const series = (session: string, n: number, from = 0): AepEvent[] => Array.from({ length: n }, (_, i) => makeEvent({ session, seq: from + i }) as unknown as AepEvent);
const send = async (relay: string, events: AepEvent[]) => expect((await post(relay, events.map((e) => JSON.stringify(e)), { token: TOKEN })).status).toBe(202);

describe('CloudEvents sidecar against a real relay and a local sink', () => {
  it('delivers each event as one structured-mode CloudEvent, exactly toCloudEvent, in order', async () => {
    const relay = await harness.start({ token: TOKEN });
    const s = await sink();
    const log: string[] = [];
    await run({ relay, deliver: httpSink({ url: s.url, projection: 'ce', log: (l) => log.push(l) }) });
    const events = series('ce-1', 4);
    await send(relay, events);
    await until(() => s.requests.length === 4);
    expect(s.requests.map((r) => r.type)).toEqual(Array(4).fill('application/cloudevents+json'));
    expect(s.requests.map((r) => r.body)).toEqual(events.map((e) => JSON.stringify(toCloudEvent(e))));
    expect(log).toEqual([]);
  });

  it('loses nothing and duplicates nothing while the sink is briefly down', async () => {
    const relay = await harness.start({ token: TOKEN });
    const s = await sink();
    s.failNext = 5;
    const side = await run({ relay, deliver: httpSink({ url: s.url, projection: 'ce', log: () => undefined }) });
    const events = series('ce-2', 6);
    await send(relay, events.slice(0, 3));
    await until(() => s.requests.length >= 1);
    await send(relay, events.slice(3));
    await until(() => s.requests.length === 6);
    await new Promise((r) => setTimeout(r, 150));
    expect(s.requests.map((r) => JSON.parse(r.body).id)).toEqual(events.map((e) => e.id));
    expect(side.failures()).toBe(5);
    expect(side.delivered()).toBe(6);
  });

  it('resumes from its cursor file after a restart: only what it had not delivered, nothing twice', async () => {
    const relay = await harness.start({ token: TOKEN });
    const s = await sink();
    const dir = mkdtempSync(join(tmpdir(), 'aep-sidecar-'));
    dirs.push(dir);
    const statePath = join(dir, 'ce.cursor.json');
    const deliver = httpSink({ url: s.url, projection: 'ce', log: () => undefined });
    const first = await run({ relay, deliver, statePath });
    const events = [...series('ce-3', 3), ...series('ce-4', 2)];
    await send(relay, events.slice(0, 3));
    await until(() => s.requests.length === 3);
    await first.close();
    sidecars.splice(sidecars.indexOf(first), 1);
    await send(relay, events.slice(3)); // a new session, while the sidecar is stopped
    await run({ relay, deliver, statePath, replay: false });
    await until(() => s.requests.length === 5);
    await new Promise((r) => setTimeout(r, 150));
    expect(s.requests.map((r) => JSON.parse(r.body).id)).toEqual(events.map((e) => e.id));
  });

  it('subscribes with its filter and capture ceiling; a permanent 4xx skips that event and says so', async () => {
    const relay = await harness.start({ token: TOKEN });
    const s = await sink();
    const log: string[] = [];
    await run({ relay, filter: { session: 'keep' }, capture: 'metadata', deliver: httpSink({ url: `${s.url}`, projection: 'ce', log: (l) => log.push(l) }) });
    const keep = series('keep', 2);
    await send(relay, [...series('drop', 2), ...keep, makeEvent({ session: 'keep', seq: 2, capture: 'redacted', data: { phase: 'x' } }) as unknown as AepEvent]);
    await until(() => s.requests.length === 3);
    const got = s.requests.map((r) => JSON.parse(r.body));
    expect(got.map((c) => c.aepsessionid)).toEqual(['keep', 'keep', 'keep']);
    expect(got[2].aepcapture).toBe('metadata'); // down-leveled by the relay to the asked ceiling
    const refusing = createServer((_req, res) => res.writeHead(400).end('bad event'));
    await new Promise<void>((r) => refusing.listen(0, '127.0.0.1', r));
    const port = (refusing.address() as { port: number }).port;
    try {
      await httpSink({ url: `http://127.0.0.1:${port}`, projection: 'ce', log: (l) => log.push(l) })(keep.slice(0, 1));
    } finally {
      await new Promise((r) => refusing.close(r));
    }
    expect(log).toEqual([`sink refused event ${keep[0]!.id} (progress.status) permanently: HTTP 400 bad event; skipped`]);
  });
});

const subscribers = async (relay: string): Promise<number> => ((await (await fetch(`${relay}/healthz`)).json()) as { subscribers: number }).subscribers;

/** A `deliver` that records accepted ids and throws while `down`. */
function switchable(): { ids: string[]; down: boolean; deliver: (batch: AepEvent[]) => Promise<void> } {
  const d = { ids: [] as string[], down: false, deliver: async (batch: AepEvent[]) => {
    if (d.down) throw new Error('sink down');
    d.ids.push(...batch.map((e) => e.id));
  } };
  return d;
}

describe('a sink down longer than the relay holds a session', () => {
  async function outage(filter?: Record<string, unknown>): Promise<{ ids: string[]; log: string[]; a: AepEvent[]; b: AepEvent[] }> {
    const relay = await harness.start({ token: TOKEN, buffer: 5 });
    const d = switchable();
    const log: string[] = [];
    const side = await run({ relay, deliver: d.deliver, log: (l) => log.push(l), initialBackoffMs: 5, maxBackoffMs: 5, ...(filter ? { filter } : {}) });
    const a = series('gap-a', 20);
    const b = series('gap-b', 3); // a session that begins while the sidecar is away
    await send(relay, a.slice(0, 3));
    await until(() => d.ids.length === 3);
    d.down = true;
    await send(relay, a.slice(3, 4));
    await until(() => side.failures() > 0);
    for (let t = 0; t < 100 && (await subscribers(relay)) > 0; t++) await new Promise((r) => setTimeout(r, 10)); // intake stopped
    await send(relay, [...a.slice(4), ...b]);
    d.down = false;
    await until(() => d.ids.length === 12);
    await new Promise((r) => setTimeout(r, 150));
    return { ids: d.ids, log: log.filter((l) => !l.startsWith('sink delivery failed')), a, b };
  }

  it('logs the gap once, naming the session and the earliest held position; delivers the rest and the new session, once each', async () => {
    const { ids, log, a, b } = await outage();
    expect(ids).toEqual([...a.slice(0, 4), ...a.slice(15), ...b].map((e) => e.id));
    expect(log).toEqual(['relay: replay-exhausted gap-a 0:15: the relay no longer held the events after 0:3 up to that position; they were not delivered']);
  });

  it('with a filter, judges no gap (the events it skips would look like one)', async () => {
    const { ids, log, a, b } = await outage({ session: ['gap-a', 'gap-b'] });
    expect(ids).toEqual([...a.slice(0, 4), ...a.slice(15), ...b].map((e) => e.id));
    expect(log).toEqual([]);
  });
});

describe('stopping', () => {
  it('close() while a delivery hangs returns after closeTimeoutMs and says what it left', async () => {
    const relay = await harness.start({ token: TOKEN });
    const log: string[] = [];
    let calls = 0;
    const side = await run({ relay, log: (l) => log.push(l), closeTimeoutMs: 200, deliver: () => (calls++, new Promise<void>(() => undefined)) });
    await send(relay, series('hang', 2));
    await until(() => calls === 1);
    const t0 = Date.now();
    await side.close();
    const took = Date.now() - t0;
    expect(took).toBeGreaterThanOrEqual(190);
    expect(took).toBeLessThan(1_000);
    expect(log).toEqual([
      'stopped with a delivery still in flight after 200 ms; if the sink accepts it, the cursor may not record it and the next start delivers it again',
      'stopped with 2 event(s) not yet accepted by the sink; the cursor does not record them, so the next start replays what the relay still holds',
    ]);
  });

  it('close() while the sink is down returns at once, without retrying again', async () => {
    const relay = await harness.start({ token: TOKEN });
    const d = switchable();
    d.down = true;
    const side = await run({ relay, deliver: d.deliver, initialBackoffMs: 10_000, maxBackoffMs: 10_000 });
    await send(relay, series('down', 3));
    await until(() => side.failures() === 1);
    const t0 = Date.now();
    await side.close();
    expect(Date.now() - t0).toBeLessThan(500);
    await new Promise((r) => setTimeout(r, 50));
    expect(side.failures()).toBe(1);
    expect(side.delivered()).toBe(0);
  });
});

describe('OTLP sidecar against a real relay and a local collector', () => {
  it('batches by count into POST <endpoint>/v1/logs, decodable as OTLP JSON', async () => {
    const relay = await harness.start({ token: TOKEN });
    const s = await sink();
    await run({ relay, batchSize: 3, batchMs: 60_000, deliver: otlpExporter({ endpoint: s.url, log: () => undefined }) });
    const events = series('otlp-1', 6);
    await send(relay, events);
    await until(() => s.requests.length === 2);
    expect(s.requests.map((r) => [r.path, r.type])).toEqual([['/v1/logs', 'application/json'], ['/v1/logs', 'application/json']]);
    const records = s.requests.flatMap((r) => readExport(JSON.parse(r.body)).records);
    expect(records.map((r) => r.attributes['aep.event_id'])).toEqual(events.map((e) => e.id));
    expect(records[0]!.resource).toEqual({ 'service.name': 'relay-test' });
    expect(records[0]!.attributes['event.name'] ?? JSON.parse(s.requests[0]!.body).resourceLogs[0].scopeLogs[0].logRecords[0].eventName).toBe('dev.aep.progress.status');
    expect(records[0]!.timeUnixNano).toBe(String(Date.parse('2026-11-30T05:00:00.000Z')) + '000000');
  });

  it('flushes a partial batch after batch-ms', async () => {
    const relay = await harness.start({ token: TOKEN });
    const s = await sink();
    await run({ relay, batchSize: 100, batchMs: 120, deliver: otlpExporter({ endpoint: `${s.url}/v1/logs`, log: () => undefined }) });
    const t0 = Date.now();
    await send(relay, series('otlp-2', 2));
    await until(() => s.requests.length === 1);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(100);
    expect(readExport(JSON.parse(s.requests[0]!.body)).records.length).toBe(2);
  });
});
