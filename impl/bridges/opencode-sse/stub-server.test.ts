import { afterEach, describe, expect, it } from 'vitest';
import { startStubServer, type StubServer } from './stub-server.js';

const stubs: StubServer[] = [];
afterEach(async () => {
  for (const s of stubs.splice(0)) await s.close();
});

describe('the stub OpenCode server of the live checks', () => {
  it('streams server.connected and one session.created per session, then pushed events, as exact SSE bytes', async () => {
    const stub = await startStubServer(['s1']);
    stubs.push(stub);
    const res = await fetch(`${stub.url}/event`);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const want = 3;
    stub.push({ type: 'session.idle', properties: { sessionID: 's1' } });
    while (text.split('\n\n').length <= want) text += decoder.decode((await reader.read()).value, { stream: true });
    await reader.cancel();
    expect(text).toBe(
      'data: {"type":"server.connected","properties":{}}\n\n' +
        'data: {"type":"session.created","properties":{"info":{"id":"s1","version":"stub","title":"stub session","directory":"/tmp"}}}\n\n' +
        'data: {"type":"session.idle","properties":{"sessionID":"s1"}}\n\n',
    );
  });

  it('answers and records exactly the two gate writes; anything else is 404', async () => {
    const stub = await startStubServer([]);
    stubs.push(stub);
    const post = (path: string, body?: string) => fetch(`${stub.url}${path}`, { method: 'POST', ...(body ? { body } : {}) });
    const a = await post('/session/s1/permissions/p1', '{"response":"once"}');
    expect([a.status, await a.text()]).toEqual([200, 'true']);
    const b = await post('/session/s1/abort');
    expect([b.status, await b.text()]).toEqual([200, 'true']);
    const c = await post('/session/s1', '{}');
    expect(c.status).toBe(404);
    expect(await c.json()).toEqual({ error: 'not-found', detail: 'POST /session/s1' });
    expect(stub.writes).toEqual(['POST /session/s1/permissions/p1 {"response":"once"}', 'POST /session/s1/abort']);
  });
});
