import { describe, expect, it } from 'vitest';
import { fakeSockets } from './test-utils/fake-socket.js';
import { RelayTransport, TransportError, parseFrame, socketUrl, type RelayMessage } from './transport.js';

function setup(extra: Partial<ConstructorParameters<typeof RelayTransport>[0]> = {}) {
  const f = fakeSockets();
  const t = new RelayTransport({ url: 'ws://relay/socket', socket: f.factory, ...extra });
  return { f, t };
}

describe('RelayTransport', () => {
  it('opens with the bearer token, resolves start() on open, and passes frames as exact text', async () => {
    const { f, t } = setup({ token: 'tok', headers: { 'x-a': '1', authorization: 'ignored' }, handshakeTimeout: 500 });
    const got: RelayMessage[] = [];
    t.onmessage = (m) => got.push(m.binary ? { ...m, binary: new Uint8Array(m.binary) } : m);
    const started = t.start();
    const s = f.sockets[0]!;
    expect(s.url).toBe('ws://relay/socket');
    expect(s.init).toEqual({ headers: { 'x-a': '1', authorization: 'Bearer tok' }, handshakeTimeout: 500 });
    expect(t.isOpen).toBe(false);
    expect(t.send('early')).toBe(false);
    s.open();
    await started;
    expect(t.isOpen).toBe(true);
    expect(t.send('{"b":1,  "a":2}')).toBe(true);
    expect(t.send({ type: 'ping', t: 'x' })).toBe(true);
    expect(t.send(new Uint8Array([1, 2]))).toBe(true);
    expect(s.sent).toEqual(['{"b":1,  "a":2}', '{"type":"ping","t":"x"}', new Uint8Array([1, 2])]);
    s.receive('\uFEFF{"type":"pong"}');
    s.receive('{"type":"pong", "t":"x"}');
    s.receive('[1]');
    s.receive(new Uint8Array([0xff]));
    expect(got).toEqual([
      { raw: '\uFEFF{"type":"pong"}', frame: undefined },
      { raw: '{"type":"pong", "t":"x"}', frame: { type: 'pong', t: 'x' } },
      { raw: '[1]', frame: undefined },
      { raw: '\uFFFD', frame: undefined, binary: new Uint8Array([0xff]) },
    ]);
  });

  it('sends no authorization header without a token', async () => {
    const { f, t } = setup();
    void t.start().catch(() => undefined);
    expect(f.sockets[0]!.init).toEqual({ headers: {} });
  });

  it('rejects start() with the failure as data: refused (HTTP status), unreachable, closed', async () => {
    const a = setup();
    const pa = a.t.start();
    a.f.sockets[0]!.refuse(401);
    const ea = (await pa.catch((e: unknown) => e)) as TransportError;
    expect(ea).toBeInstanceOf(TransportError);
    expect(ea.failure).toEqual({ kind: 'refused', status: 401, message: 'Unexpected server response: 401' });
    expect(a.f.sockets[0]!.terminated).toBe(true);

    const b = setup();
    const pb = b.t.start();
    b.f.sockets[0]!.fail('connect ECONNREFUSED');
    expect(((await pb.catch((e: unknown) => e)) as TransportError).failure).toMatchObject({ kind: 'unreachable', message: 'connect ECONNREFUSED', cause: { message: 'connect ECONNREFUSED' } });

    const c = setup();
    const pc = c.t.start();
    let closed = 0;
    c.t.onclose = () => closed++;
    c.f.sockets[0]!.peerClose(1006);
    expect(closed).toBe(0); // a failed start rejects; onclose is for an opened connection
    expect(((await pc.catch((e: unknown) => e)) as TransportError).failure).toEqual({ kind: 'closed', code: 1006, reason: '', message: 'closed 1006' });
  });

  it('refuses a second start(): a transport is one connection', async () => {
    const { f, t } = setup();
    void t.start();
    f.sockets[0]!.open();
    await expect(t.start()).rejects.toThrow(/one connection/);
    expect(f.sockets).toHaveLength(1);
  });

  it('reports an error after open on onerror and the end once on onclose', async () => {
    const { f, t } = setup();
    const errors: string[] = [];
    const closes: unknown[] = [];
    t.onerror = (e) => errors.push(e.message);
    t.onclose = (i) => closes.push(i);
    const p = t.start();
    const s = f.sockets[0]!;
    s.open();
    await p;
    s.fail('read ECONNRESET');
    s.peerClose(1011, 'bye');
    s.peerClose(1011, 'again');
    expect(errors).toEqual(['read ECONNRESET']);
    expect(closes).toEqual([{ code: 1011, reason: 'bye' }]);
  });

  it('close() drops the socket at once, or sends the close handshake and drops it after graceMs', async () => {
    const a = setup();
    void a.t.start();
    a.f.sockets[0]!.open();
    await a.t.close();
    expect(a.f.sockets[0]!.terminated).toBe(true);
    expect(a.f.sockets[0]!.closes).toEqual([]);
    await a.t.close(); // twice is fine

    const b = setup();
    void b.t.start();
    const s = b.f.sockets[0]!;
    s.open();
    const closing = b.t.close({ code: 1001, graceMs: 20 });
    expect(s.closes).toEqual([[1001, undefined]]);
    expect(s.terminated).toBe(false);
    await closing;
    expect(s.terminated).toBe(true); // the peer never answered

    const c = setup();
    void c.t.start();
    const s2 = c.f.sockets[0]!;
    s2.open();
    const closing2 = c.t.close({ graceMs: 10_000 });
    expect(s2.closes).toEqual([[undefined, undefined]]); // no code: a close frame without one
    s2.peerClose(1005);
    await closing2;
    expect(s2.terminated).toBe(false);
  });

  it('close() before start() resolves at once', async () => {
    const { t } = setup();
    await t.close();
  });
});

describe('socketUrl and parseFrame', () => {
  it('maps a relay base URL to its socket URL', () => {
    expect(socketUrl('http://127.0.0.1:8787')).toBe('ws://127.0.0.1:8787/socket');
    expect(socketUrl('https://relay.example/base/')).toBe('wss://relay.example/base/socket');
    expect(socketUrl('ws://h:1/socket')).toBe('ws://h:1/socket');
  });

  it('parses only JSON objects', () => {
    expect(parseFrame('{"a":1}')).toEqual({ a: 1 });
    expect(parseFrame('[1]')).toBeUndefined();
    expect(parseFrame('null')).toBeUndefined();
    expect(parseFrame('nope')).toBeUndefined();
  });
});
