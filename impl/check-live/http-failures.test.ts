import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { validateEnvelope } from '../core/envelope.js';
import { selectChecks } from './checks/index.js';
import { DEFAULT_OPTIONS, type LiveOptions } from './context.js';
import type { ConformanceReport } from './report.js';
import { runChecks } from './runner.js';
import { MSW_BASE, collectorHandlers, discoveryDoc, stalledBody } from './test-utils/msw-collector.js';

/**
 * HTTP-level misbehavior that a socket stub cannot easily produce (malformed discovery bodies,
 * redirect loops, hung responses, wrong status codes and error bodies), simulated with msw in
 * front of the global `fetch`. Each case breaks ONE answer of an otherwise compliant collector
 * (`collectorHandlers`) and demands that the responsible check fails with a detail naming the
 * problem: never a crash, never a pass.
 */

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => server.resetHandlers(...collectorHandlers()));
afterAll(() => server.close());

/** Bounds every check and the reachability probe, so the hang cases finish quickly. */
const MAX_CHECK_MS = 400;
const options = (extra: Partial<LiveOptions> = {}): LiveOptions => ({ target: MSW_BASE, ...DEFAULT_OPTIONS, maxCheckMs: MAX_CHECK_MS, ...extra });
const run = (names: string, extra: Partial<LiveOptions> = {}): Promise<ConformanceReport> => runChecks(options(extra), selectChecks(names).checks);
const EVENTS = `${MSW_BASE}/events`;

const jsonBody = (status: number, body: string, type = 'application/json'): HttpResponse<string> =>
  new HttpResponse(body, { status, headers: { 'content-type': type } });

/** Answers `respond()` for POSTs whose single JSON event the collector would reject; others fall through. */
const onInvalidPost = (respond: () => Response) =>
  http.post(EVENTS, async ({ request }) => {
    let value: unknown;
    try {
      value = JSON.parse(await request.clone().text());
    } catch {
      return undefined;
    }
    return request.headers.get('content-type') === 'application/json' && validateEnvelope(value).length > 0 ? respond() : undefined;
  });

/** Expects exactly one failing check whose detail matches `detail`. */
function expectFail(report: ConformanceReport, name: string, detail: RegExp): void {
  expect(report.checks).toEqual([{ name, status: 'fail', detail: expect.stringMatching(detail) }]);
  expect(report.ok).toBe(false);
}

describe('positive control: a compliant collector simulated with msw', () => {
  it('passes discovery, version-gate and reject-invalid', async () => {
    const report = await run('discovery,version-gate,reject-invalid');
    expect(report.checks).toEqual([
      { name: 'discovery', status: 'pass' },
      { name: 'version-gate', status: 'pass' },
      { name: 'reject-invalid', status: 'pass' },
    ]);
    expect(report.ok).toBe(true);
  });
});

describe('discovery fails on a broken GET /events', () => {
  const { endpoints: _endpoints, ...withoutEndpoints } = discoveryDoc();
  const cases: Array<[string, () => Response, RegExp]> = [
    ['200 with a body that is not JSON', () => jsonBody(200, '<html>it works</html>'), /^discovery document: the body is not JSON: "<html>it works<\/html>" \(AEP-0003 §3\.4\)$/],
    ['200 with an HTML content type', () => jsonBody(200, JSON.stringify(discoveryDoc()), 'text/html'), /^GET \/events Content-Type is 'text\/html', not application\/json/],
    ['JSON without `endpoints`', () => HttpResponse.json(withoutEndpoints), /^discovery document: `endpoints` must be an object \(AEP-0003 §3\.4\)$/],
    ['`aep` not listing 0.1', () => HttpResponse.json({ ...discoveryDoc(), aep: ['0.2'] }), /^discovery document: `aep` does not list "0\.1"/],
    ['a 500', () => jsonBody(500, '{"error":"internal"}'), /^GET \/events answered 500, not 200 with the discovery document/],
  ];
  it.each(cases)('%s', async (_label, respond, detail) => {
    server.use(http.get(EVENTS, respond));
    expectFail(await run('discovery'), 'discovery', detail);
  });

  it('a non-JSON /.well-known/aep served with 200', async () => {
    server.use(http.get(`${MSW_BASE}/.well-known/aep`, () => jsonBody(200, 'Not Found')));
    expectFail(await run('discovery'), 'discovery', /^\/\.well-known\/aep: the body is not JSON: "Not Found"/);
  });

  it('a redirect loop: the target is reported unreachable once the client gives up', async () => {
    // msw 2.15 loses its hop counter between mocked redirects, so a true loop would never end
    // (and exhaust the heap). Like undici, which stops after 20 redirects with a network error,
    // the handler ends the loop itself on the 21st hop.
    let hops = 0;
    server.use(http.get(EVENTS, () => (++hops > 20 ? HttpResponse.error() : new HttpResponse(null, { status: 302, headers: { location: '/events' } }))));
    expectFail(await run('discovery'), 'discovery', /^target unreachable: http:\/\/collector\.aep\.test\/events could not be fetched \(Failed to fetch\) \(AEP-0003 §3\.4\)$/);
    expect(hops).toBe(21);
  });

  it('a response that never arrives: bounded by the probe timeout', async () => {
    server.use(http.get(EVENTS, () => new Promise<never>(() => {})));
    const started = Date.now();
    expectFail(await run('discovery'), 'discovery', /^target unreachable: .*\/events could not be fetched \(.*timeout\)/);
    expect(Date.now() - started).toBeLessThan(MAX_CHECK_MS + 2000);
  });

  it('a body that starts but never ends: bounded by the check timeout, naming the request', async () => {
    server.use(http.get(EVENTS, ({ request }) => new HttpResponse(stalledBody(request), { headers: { 'content-type': 'application/json' } })));
    const started = Date.now();
    expectFail(await run('discovery'), 'discovery', new RegExp(`^timed out after ${MAX_CHECK_MS} ms \\(last request: GET ${EVENTS}\\) \\(AEP-0003 §3\\.4\\)$`));
    expect(Date.now() - started).toBeLessThan(MAX_CHECK_MS + 2000);
  });
});

describe('version-gate fails on a missing or malformed 426', () => {
  const foreign = (respond: () => Response) =>
    http.post(EVENTS, ({ request }) => (request.headers.get('aep-version') === '0.1' ? undefined : respond()));
  const cases: Array<[string, () => Response, RegExp]> = [
    ['202 to a foreign AEP-Version', () => new HttpResponse(null, { status: 202 }), /^POST with AEP-Version: 9\.0 answered 202, not 426 Upgrade Required/],
    ['426 with an empty body', () => new HttpResponse(null, { status: 426 }), /^the 426 body must be \{"versions":\[\.\.\.\]\} listing "0\.1"; got an empty body/],
    ['426 without `versions`', () => HttpResponse.json({ error: 'upgrade' }, { status: 426 }), /^the 426 body must be .*; got \{"error":"upgrade"\}/],
    ['426 whose `versions` omits 0.1', () => HttpResponse.json({ versions: ['1.0'] }, { status: 426 }), /; got \{"versions":\["1\.0"\]\}/],
  ];
  it.each(cases)('%s', async (_label, respond, detail) => {
    server.use(foreign(respond));
    expectFail(await run('version-gate'), 'version-gate', detail);
  });
});

describe('reject-invalid fails on a wrong answer to a bad envelope', () => {
  const cases: Array<[string, () => Response, RegExp]> = [
    ['202: the bad envelope is accepted', () => new HttpResponse(null, { status: 202 }), /^POST of an event without `source` answered 202, not 400/],
    ['400 with a foreign error code', () => HttpResponse.json({ error: 'bad-request' }, { status: 400 }), /^the 400 body must be \{"error":"invalid-event","detail":\.\.\.\}; got \{"error":"bad-request"\}/],
    ['400 without `detail`', () => HttpResponse.json({ error: 'invalid-event' }, { status: 400 }), /^the 400 body must be .*; got \{"error":"invalid-event"\}/],
    ['400 with a plain-text body', () => jsonBody(400, 'Bad Request', 'text/plain'), /^the 400 body must be .*; got Bad Request/],
    ['400 with an empty body', () => new HttpResponse(null, { status: 400 }), /^the 400 body must be .*; got an empty body/],
  ];
  it.each(cases)('%s', async (_label, respond, detail) => {
    server.use(onInvalidPost(respond));
    expectFail(await run('reject-invalid'), 'reject-invalid', detail);
  });
});

describe('a target that answers 401 to everything, on a run without --token', () => {
  const HTTP_CHECKS = 'discovery,version-gate,reject-invalid,ingest-fanout,resume,capture-downlevel';
  it('fails every HTTP check with a detail that says to rerun with --token', async () => {
    server.use(http.all(`${MSW_BASE}/*`, () => HttpResponse.json({ error: 'unauthorized' }, { status: 401 })));
    const report = await run(HTTP_CHECKS);
    expect(report.checks.map((c) => c.name)).toEqual(HTTP_CHECKS.split(','));
    for (const c of report.checks) {
      expect([c.name, c.status, c.detail]).toEqual([c.name, 'fail', expect.stringMatching(/answered 401: the endpoint requires authentication; rerun with --token/)]);
    }
  });

  it('with --token given, the 401 is still a failure but not a --token hint', async () => {
    server.use(http.all(`${MSW_BASE}/*`, () => new HttpResponse(null, { status: 401 })));
    const report = await run('discovery', { token: 'wrong-token' });
    expectFail(report, 'discovery', /^GET \/events answered 401, not 200/);
  });
});
