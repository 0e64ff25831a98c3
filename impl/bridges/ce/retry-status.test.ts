/**
 * A sink that answers 408 (request timeout) or 429 (too many requests) has not refused the
 * event: both sidecars (ce, otlp) retry it, waiting out the sink's `Retry-After` when it sends
 * one, and nothing is skipped. A real relay feeds them; the sink is local.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { useRelay } from '../../relay/test-utils/use-relay.js';
import { makeEvent, post } from '../../relay/test-utils/testing.js';
import type { AepEvent } from '../../core/event.js';
import { readExport } from '../otlp-in/otlp-json.js';
import { otlpExporter } from '../otlp/exporter.js';
import { startSidecar, type RunningSidecar } from './sidecar.js';
import { httpSink, MAX_RETRY_AFTER_MS, parseRetryAfter } from './sink.js';

const harness = useRelay();
const TOKEN = 'retry-status';
const servers: Server[] = [];
const sidecars: RunningSidecar[] = [];
afterEach(async () => {
  for (const s of sidecars.splice(0)) await s.close();
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/** A sink answering the scripted statuses first (with their headers), then 200; records accepted bodies and when each request came. */
async function scriptedSink(script: Array<{ status: number; headers?: Record<string, string> }>) {
  const accepted: string[] = [];
  const at: number[] = [];
  const s = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      at.push(Date.now());
      const next = script.shift();
      if (next) return void res.writeHead(next.status, next.headers ?? {}).end('not now');
      accepted.push(body);
      res.writeHead(200).end('{}');
    });
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, accepted, at };
}

/** Waits for `pred` up to `ms`; it does not throw, so the assertions after it say what went wrong (a skip is logged). */
const until = async (pred: () => boolean, ms = 8000) => {
  const end = Date.now() + ms;
  while (!pred() && Date.now() <= end) await new Promise((r) => setTimeout(r, 10));
};

const kinds = [
  ['ce', (url: string, log: (l: string) => void) => httpSink({ url, projection: 'ce', log }), (bodies: string[]) => bodies.map((b) => (JSON.parse(b) as { id: string }).id)],
  ['otlp', (url: string, log: (l: string) => void) => otlpExporter({ endpoint: url, log }), (bodies: string[]) => bodies.flatMap((b) => readExport(JSON.parse(b)).records.map((r) => String(r.attributes?.['aep.event_id'])))],
] as const;

describe.each(kinds)('the %s sidecar against a sink answering 408 or 429', (_kind, deliverTo, ids) => {
  it.each([408, 429])('%i without Retry-After: retried with backoff, delivered once, nothing skipped', async (status) => {
    const relay = await harness.start({ token: TOKEN });
    const sink = await scriptedSink([{ status }, { status }]);
    const log: string[] = [];
    const events = [0, 1].map((seq) => makeEvent({ session: `retry-${status}`, seq }) as unknown as AepEvent);
    const side = await new Promise<RunningSidecar>((resolve) => {
      const s = startSidecar({ relay, token: TOKEN, batchSize: 2, batchMs: 0, replay: true, initialBackoffMs: 20, maxBackoffMs: 40, log: (l) => log.push(l), deliver: deliverTo(sink.url, (l) => log.push(l)), onSubscribed: () => resolve(s) });
      sidecars.push(s);
    });
    await post(relay, events.map((e) => JSON.stringify(e)), { token: TOKEN });
    await until(() => ids(sink.accepted).length >= 2 || log.some((l) => l.includes('permanently')));
    await new Promise((r) => setTimeout(r, 100));
    expect(log.filter((l) => l.includes('permanently'))).toEqual([]);
    expect(ids(sink.accepted)).toEqual(events.map((e) => e.id));
    expect(side.failures()).toBe(2);
    expect(log.filter((l) => l.startsWith('sink delivery failed')).every((l) => l.includes(`HTTP ${status}`))).toBe(true);
  });

  it.each([408, 429])('%i with Retry-After: 1 waits the second the sink asked for, then delivers', async (status) => {
    const relay = await harness.start({ token: TOKEN });
    const sink = await scriptedSink([{ status, headers: { 'retry-after': '1' } }]);
    const log: string[] = [];
    const event = makeEvent({ session: `retry-after-${status}`, seq: 0 }) as unknown as AepEvent;
    await new Promise<RunningSidecar>((resolve) => {
      const s = startSidecar({ relay, token: TOKEN, batchSize: 1, batchMs: 0, replay: true, initialBackoffMs: 20, maxBackoffMs: 40, log: (l) => log.push(l), deliver: deliverTo(sink.url, (l) => log.push(l)), onSubscribed: () => resolve(s) });
      sidecars.push(s);
    });
    await post(relay, [JSON.stringify(event)], { token: TOKEN });
    await until(() => ids(sink.accepted).length >= 1 || log.some((l) => l.includes('permanently')));
    expect(log.filter((l) => l.includes('permanently'))).toEqual([]);
    expect(ids(sink.accepted)).toEqual([event.id]);
    expect(sink.at).toHaveLength(2);
    expect(sink.at[1]! - sink.at[0]!).toBeGreaterThanOrEqual(950);
    expect(log).toContain(`sink delivery failed (POST ${_kind === 'ce' ? sink.url : `${sink.url}/v1/logs`}: HTTP ${status}); retrying 1 event(s) in 1000 ms (the sink's Retry-After)`);
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP-dates, bounds the wait, and ignores what it cannot read', () => {
    const now = Date.parse('2026-12-02T01:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Wed, 02 Dec 2026 01:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 02 Dec 2026 00:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('86400', now)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter('-1', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
