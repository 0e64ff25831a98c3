/**
 * The outbound sidecars' retry decision, as a sink operator sees it (issue 37, mutation testing
 * where the I/O is): which answers are retried (and after which wait), which are a permanent
 * refusal of one event (logged with the sink's reason, cut at 200 characters), what a network
 * failure says, and what `httpSink` POSTs (content type, body, nothing for a type OCSF has no
 * class for). A local HTTP server answers each status.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { AepEvent } from '../../core/event.js';
import { toCloudEvent } from '../../core/project/cloudevents.js';
import { makeEvent } from '../../relay/test-utils/testing.js';
import { deadPort } from '../../test-utils/dead-port.js';
import { httpSink, parseRetryAfter, postJson, RetryableDelivery } from './sink.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

interface Seen {
  contentType: string | undefined;
  body: string;
}

/** A sink answering `status` (with `headers` and `body`) to every POST; records what it got. */
async function sink(status: number, headers: Record<string, string> = {}, body = ''): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const s = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => {
      seen.push({ contentType: req.headers['content-type'], body: text });
      res.writeHead(status, headers);
      res.end(body);
    });
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/ingest`, seen };
}

const failure = async (p: Promise<unknown>): Promise<RetryableDelivery> => {
  try {
    await p;
  } catch (err) {
    return err as RetryableDelivery;
  }
  throw new Error('expected a RetryableDelivery');
};

describe('parseRetryAfter: what is a wait', () => {
  const now = Date.UTC(2026, 11, 2, 1, 0, 0);
  it('a decimal number of seconds is not delay-seconds, and a date must start with its day name', () => {
    expect(parseRetryAfter('1.5', now)).toBeUndefined();
    expect(parseRetryAfter('2s', now)).toBeUndefined();
    expect(parseRetryAfter('in Wed, 02 Dec 2026 01:00:05 GMT', now)).toBeUndefined();
    expect(parseRetryAfter('Wed, 02 Dec 2026 01:00:05 GMT', now)).toBe(5000);
  });
});

describe('postJson: the sink\'s answer decides', () => {
  it('2xx (200 to 299) is delivered: null', async () => {
    for (const status of [200, 202, 299]) expect(await postJson((await sink(status)).url, 'application/json', '{}', 2000), String(status)).toBeNull();
  });

  it('300 and other 4xx are a permanent refusal: "HTTP <status> <the sink\'s reason>", the reason cut at 200 characters', async () => {
    expect(await postJson((await sink(300, {}, 'moved')).url, 'application/json', '{}', 2000)).toBe('HTTP 300 moved');
    const long = 'r'.repeat(250);
    expect(await postJson((await sink(400, {}, long)).url, 'application/json', '{}', 2000)).toBe(`HTTP 400 ${'r'.repeat(200)}`);
    expect(await postJson((await sink(404)).url, 'application/json', '{}', 2000)).toBe('HTTP 404 ');
  });

  it('408, 429, 500 and 503 are retried: a RetryableDelivery naming the URL and status, with the sink\'s Retry-After when it gave one', async () => {
    for (const status of [408, 429, 500, 503]) {
      const s = await sink(status);
      const err = await failure(postJson(s.url, 'application/json', '{}', 2000));
      expect(err).toBeInstanceOf(RetryableDelivery);
      expect(err.name).toBe('RetryableDelivery');
      expect(err.message).toBe(`POST ${s.url}: HTTP ${status}`);
      expect(err.retryAfterMs).toBeUndefined();
    }
    const s = await sink(503, { 'retry-after': '2' });
    expect((await failure(postJson(s.url, 'application/json', '{}', 2000))).retryAfterMs).toBe(2000);
  });

  it('499 is a refusal, 500 a retry: the boundary of 5xx', async () => {
    expect(await postJson((await sink(499)).url, 'application/json', '{}', 2000)).toBe('HTTP 499 ');
    expect(await failure(postJson((await sink(500)).url, 'application/json', '{}', 2000))).toBeInstanceOf(RetryableDelivery);
  });

  it('nobody listening: a RetryableDelivery "POST <url>: <the network error>"', async () => {
    const url = `http://127.0.0.1:${await deadPort()}/ingest`;
    const err = await failure(postJson(url, 'application/json', '{}', 2000));
    expect(err).toBeInstanceOf(RetryableDelivery);
    expect(err.message).toMatch(new RegExp(`^POST ${url.replace(/[.]/g, '\\.')}: \\S`));
  });
});

describe('httpSink: one POST per event', () => {
  const event = (type: string, id: string): AepEvent => makeEvent({ type, id, data: type === 'session.started' ? {} : { message: 'x' } }) as unknown as AepEvent;

  it('ce: each event as its structured CloudEvent, application/cloudevents+json, in order', async () => {
    const s = await sink(202);
    const lines: string[] = [];
    const a = event('session.started', 'ce-1');
    const b = event('progress.status', 'ce-2');
    await httpSink({ url: s.url, projection: 'ce', log: (l) => lines.push(l) })([a, b]);
    expect(s.seen).toEqual([
      { contentType: 'application/cloudevents+json', body: JSON.stringify(toCloudEvent(a)) },
      { contentType: 'application/cloudevents+json', body: JSON.stringify(toCloudEvent(b)) },
    ]);
    expect(lines).toEqual([]);
  });

  it('ocsf: a type with no OCSF class is not sent; the others go as application/json', async () => {
    const s = await sink(200);
    await httpSink({ url: s.url, projection: 'ocsf', log: () => {} })([event('progress.status', 'o-1'), event('session.started', 'o-2')]);
    expect(s.seen.map((x) => x.contentType)).toEqual(['application/json']);
    expect(JSON.parse(s.seen[0]!.body)).toMatchObject({ metadata: expect.anything() });
  });

  it('a permanent refusal is logged with the event and the sink\'s reason, and the next event still goes', async () => {
    const s = await sink(400, {}, 'bad field');
    const lines: string[] = [];
    await httpSink({ url: s.url, projection: 'ce', log: (l) => lines.push(l) })([event('session.started', 'r-1'), event('progress.status', 'r-2')]);
    expect(s.seen).toHaveLength(2);
    expect(lines).toEqual([
      'sink refused event r-1 (session.started) permanently: HTTP 400 bad field; skipped',
      'sink refused event r-2 (progress.status) permanently: HTTP 400 bad field; skipped',
    ]);
  });
});
