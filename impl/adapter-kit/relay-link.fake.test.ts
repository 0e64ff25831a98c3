/** The relay link over an injected fake socket: no connection before start(), then the same policy. */
import { afterEach, describe, expect, it } from 'vitest';
import { RelayLink } from './relay-link.js';
import { fakeSockets } from '../relay-client/test-utils/fake-socket.js';

let link: RelayLink | null = null;
afterEach(async () => {
  await link?.close();
  link = null;
});

const hello = { type: 'hello', versions: ['0.1'], role: 'emitter', identity: { agent: 't' }, capabilities: {} };
const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

describe('RelayLink on an injected socket', () => {
  it('connects nothing in its constructor; start() opens, says hello, and flushes the outbox after the answer', async () => {
    const f = fakeSockets();
    const commands: string[] = [];
    const ready: boolean[] = [];
    link = new RelayLink({ url: 'http://relay:1', token: 'tok', hello, onCommand: (raw) => commands.push(raw), log: () => {}, socket: f.factory, onReady: (r) => ready.push(r) });
    link.send('{"aep":"0.1","n":1}');
    expect(f.sockets).toHaveLength(0);
    expect(link.state).toEqual({ status: 'connecting' });
    link.start();
    link.start(); // idempotent
    expect(f.sockets).toHaveLength(1);
    const s = f.sockets[0]!;
    expect(s.url).toBe('ws://relay:1/socket');
    expect(s.init.headers).toEqual({ authorization: 'Bearer tok' });
    s.open();
    await tick();
    expect(s.sent).toEqual([JSON.stringify(hello)]);
    s.receive({ type: 'hello', versions: ['0.1'], role: 'both' });
    expect(s.sent.slice(1)).toEqual(['{"aep":"0.1","n":1}']);
    expect(link.state).toEqual({ status: 'up' });
    expect(ready).toEqual([false]);
    s.receive('{"aep":"0.1","type":"control.cancel",  "id":"c1"}');
    s.receive({ type: 'pong', t: 'nobody' });
    expect(commands).toEqual(['{"aep":"0.1","type":"control.cancel",  "id":"c1"}']);
    link.send('{"aep":"0.1","n":2}');
    expect(s.sent.at(-1)).toBe('{"aep":"0.1","n":2}');
  });

  it('a refused upgrade (401) is the refused state, logged once', async () => {
    const f = fakeSockets();
    const lines: string[] = [];
    link = new RelayLink({ url: 'http://relay:1', hello, onCommand: () => {}, log: (l) => lines.push(l), socket: f.factory, refusedRetryMs: 5 }).start();
    f.sockets[0]!.refuse(401);
    await tick();
    expect(link.state).toEqual({ status: 'refused', httpStatus: 401 });
    const next = f.next();
    const s2 = await next;
    s2.refuse(401);
    await tick();
    expect(lines.filter((l) => l.includes('refused'))).toHaveLength(1);
    expect(lines[0]).toContain('relay refused the connection: no token was given');
  });

  it('a drop after hello requeues nothing without pong-acks and reconnects', async () => {
    const f = fakeSockets();
    const lines: string[] = [];
    link = new RelayLink({ url: 'http://relay:1', hello, onCommand: () => {}, log: (l) => lines.push(l), socket: f.factory }).start();
    const s = f.sockets[0]!;
    s.open();
    await tick();
    s.receive({ type: 'hello' });
    const next = f.next();
    s.peerClose(1006);
    expect(link.state).toEqual({ status: 'down', reason: 'closed 1006' });
    expect(lines.at(-1)).toContain('relay link down (closed 1006)');
    await next; // the backoff's reconnect attempt
    expect(f.sockets).toHaveLength(2);
  });
});
