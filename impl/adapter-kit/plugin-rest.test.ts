import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { httpReplies, loopbackServer } from './plugin-rest.js';

/**
 * The vendor reply routes against an msw stub of the OpenCode/Kilo server: the exact paths and
 * bodies, the fallback from the standard's pinned route to the vendor's v2 route, and every way
 * a delivery can fail (reported as data, never thrown).
 */
const SERVER = 'http://127.0.0.1:4096';
const seen: Array<{ method: string; path: string; body: unknown }> = [];
const record = async (request: Request): Promise<void> => {
  seen.push({ method: request.method, path: new URL(request.url).pathname, body: await request.json() });
};
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  seen.length = 0;
  server.resetHandlers(
    http.post(`${SERVER}/permission/:id/reply`, async ({ request }) => (await record(request), HttpResponse.json(true))),
    http.post(`${SERVER}/session/:session/permissions/:id`, async ({ request }) => (await record(request), HttpResponse.json(true))),
    http.post(`${SERVER}/question/:id/reply`, async ({ request }) => (await record(request), HttpResponse.json(true))),
  );
});
afterAll(() => server.close());

describe('httpReplies', () => {
  it("a permission reply rides the vendor's v2 route with {reply, message?}", async () => {
    const replies = httpReplies();
    expect(await replies.permission({ server: SERVER, session: 'ses 1', id: 'per 1', reply: 'reject', message: 'use the staging DB' })).toEqual({ ok: true, route: 'POST /permission/per%201/reply' });
    expect(await replies.permission({ server: SERVER, session: 's2', id: 'per_2', reply: 'always' })).toEqual({ ok: true, route: 'POST /permission/per_2/reply' });
    expect(seen).toEqual([
      { method: 'POST', path: '/permission/per%201/reply', body: { reply: 'reject', message: 'use the staging DB' } },
      { method: 'POST', path: '/permission/per_2/reply', body: { reply: 'always' } },
    ]);
  });

  it("a 404 on the v2 route falls back to the standard's pinned session route with {response, message?}", async () => {
    server.use(http.post(`${SERVER}/permission/:id/reply`, () => new HttpResponse('not found', { status: 404 })));
    expect(await httpReplies().permission({ server: SERVER, session: 'ses 1', id: 'per_3', reply: 'reject', message: 'not today' })).toEqual({ ok: true, route: 'POST /session/ses%201/permissions/per_3' });
    expect(seen).toEqual([{ method: 'POST', path: '/session/ses%201/permissions/per_3', body: { response: 'reject', message: 'not today' } }]);
  });

  it('a question reply carries the answers as string[][]', async () => {
    expect(await httpReplies().question({ server: `${SERVER}/`, id: 'que_1', answers: [['PostgreSQL'], ['a', 'b']] })).toEqual({ ok: true, route: 'POST /question/que_1/reply' });
    expect(seen).toEqual([{ method: 'POST', path: '/question/que_1/reply', body: { answers: [['PostgreSQL'], ['a', 'b']] } }]);
  });

  it('failures are outcomes with a reason: a vendor error status, an unreachable server, a hung one', async () => {
    server.use(http.post(`${SERVER}/question/:id/reply`, () => new HttpResponse('{"name":"BadRequest"}', { status: 400 })));
    expect(await httpReplies().question({ server: SERVER, id: 'q', answers: [] })).toEqual({ ok: false, route: 'POST /question/q/reply', detail: 'the vendor answered HTTP 400' });
    server.use(http.post(`${SERVER}/permission/:id/reply`, () => HttpResponse.error()));
    const down = await httpReplies().permission({ server: SERVER, session: 's', id: 'p', reply: 'once' });
    expect(down).toMatchObject({ ok: false, route: 'POST /permission/p/reply', detail: expect.stringMatching(/^unreachable: /) });
    server.use(http.post(`${SERVER}/permission/:id/reply`, () => new Promise<never>(() => {})));
    expect(await httpReplies({ timeoutMs: 50 }).permission({ server: SERVER, session: 's', id: 'p', reply: 'once' })).toEqual({ ok: false, route: 'POST /permission/p/reply', detail: 'no answer within 50 ms' });
    server.use(http.post(`${SERVER}/permission/:id/reply`, () => new HttpResponse('', { status: 404 })), http.post(`${SERVER}/session/:s/permissions/:id`, () => new HttpResponse('', { status: 404 })));
    expect(await httpReplies().permission({ server: SERVER, session: 's', id: 'p', reply: 'once' })).toEqual({ ok: false, route: 'POST /session/s/permissions/p', detail: 'the vendor answered HTTP 404' });
  });

  it('only loopback http(s) servers are written to', async () => {
    expect(await httpReplies().question({ server: 'http://example.com:4096', id: 'q', answers: [] })).toEqual({ ok: false, route: 'POST /question/q/reply', detail: 'the server URL "http://example.com:4096" is not an http(s) loopback URL' });
    expect(loopbackServer('http://localhost:1')?.port).toBe('1');
    expect(loopbackServer('http://[::1]:2/')?.port).toBe('2');
    expect(loopbackServer('file:///etc/passwd')).toBeNull();
    expect(loopbackServer('not a url')).toBeNull();
    expect(seen).toEqual([]);
  });
});
