/**
 * Every error frame answering a frame that has an id names it, byte-exact: an event (a command
 * and an ack included) by `cause` = its id (AEP-0004 §4.2), a request frame by its `id` echoed
 * (AEP-0003 §6.5). Driven through a fake socket and a hub whose every NATS-backed answer is
 * `unavailable` (or a defect), so each refusal path of `SocketSession` is reached directly.
 */
import { EventEmitter } from 'node:events';
import type { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from './config.js';
import type { HubLike, Unreachable } from './hub.js';
import { SocketSession, correlation } from './socket.js';
import { makeEvent, sleep } from './test-utils/testing.js';

const OUTAGE: Unreachable = { ok: false, code: 'unavailable', detail: 'NATS is away' };

class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readonly readyState = 1;
  readonly frames: string[] = [];
  readonly closes: number[] = [];
  send(text: string): void {
    this.frames.push(text);
  }
  close(code: number): void {
    this.closes.push(code);
  }
  /** Deliver one text frame from the peer. */
  receive(value: unknown): void {
    this.emit('message', Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)), false);
  }
}

/** A hub that cannot reach NATS (`defect`: every NATS-backed method rejects instead, a defect). */
function outageHub(defect = false): HubLike {
  const answer = <T>(): Promise<T> => (defect ? Promise.reject(new Error('boom')) : Promise.resolve(OUTAGE as T));
  return {
    stats: () => ({ sessions: 0, events: 0, subscribers: 0 }),
    subscribe: () => {
      throw new Error('not used');
    },
    ingest: answer,
    attach: () => {},
    leave: () => {},
    claim: answer,
    ownedElsewhere: answer,
    dispatch: answer,
    roster: answer,
    close: async () => {},
  };
}

function connect(hub: HubLike, role = 'both'): FakeSocket {
  const ws = new FakeSocket();
  new SocketSession(ws as unknown as WebSocket, { config: DEFAULTS, hub, authenticated: true, instance: 'test/1', log: () => {}, slowBytes: 1 << 20 });
  ws.receive({ type: 'hello', versions: ['0.1'], role });
  ws.frames.splice(0); // the relay's hello
  return ws;
}

/** Send `values` in order, then a ping, and answer every frame after the relay's pong arrives. */
async function exchange(ws: FakeSocket, ...values: unknown[]): Promise<string[]> {
  for (const v of values) ws.receive(v);
  ws.receive({ type: 'ping', t: 'end' });
  for (let i = 0; i < 100 && !ws.frames.includes('{"type":"pong","t":"end"}'); i++) await sleep(1);
  return ws.frames.filter((f) => f !== '{"type":"pong","t":"end"}');
}

const command = { ...makeEvent({ id: 'cmd-1', type: 'control.cancel', session: 's-1', data: { scope: 'session' } }), seq: undefined, epoch: undefined };
const ack = makeEvent({ id: 'ack-1', type: 'control.accepted', session: 's-1', seq: 3, cause: 'cmd-1', data: {} });
const event = makeEvent({ id: 'ev-1', session: 's-1', seq: 0 });

describe('error frames name the frame they answer', () => {
  it('a command the hub could not route for an outage: unavailable with cause = the command id', async () => {
    expect(await exchange(connect(outageHub()), command)).toEqual([
      '{"type":"error","cause":"cmd-1","code":"unavailable","detail":"NATS is away; event \\"cmd-1\\" was not processed: send it again later"}',
    ]);
  });

  it('an ack whose ownership the hub could not read: unavailable with cause = the ack id', async () => {
    expect(await exchange(connect(outageHub()), ack)).toEqual([
      '{"type":"error","cause":"ack-1","code":"unavailable","detail":"NATS is away; event \\"ack-1\\" was not processed: send it again later"}',
    ]);
  });

  it('a sequenced event whose claim the hub could not take: unavailable with cause = the event id', async () => {
    expect(await exchange(connect(outageHub()), event)).toEqual([
      '{"type":"error","cause":"ev-1","code":"unavailable","detail":"NATS is away; event \\"ev-1\\" was not stored: send it again later"}',
    ]);
  });

  it('a frame the relay failed on (a defect): internal with cause for an event, id for a request frame', async () => {
    expect(await exchange(connect(outageHub(true)), command, { type: 'roster', id: 'r-1' })).toEqual([
      '{"type":"error","cause":"cmd-1","code":"internal","detail":"the relay failed on this frame; the connection stays open"}',
      '{"type":"error","id":"r-1","code":"internal","detail":"the relay failed on this frame; the connection stays open"}',
    ]);
  });

  it('a roster the hub could not read: unavailable with the request id', async () => {
    expect(await exchange(connect(outageHub()), { type: 'roster', id: 'r-2' })).toEqual([
      '{"type":"error","id":"r-2","code":"unavailable","detail":"the fleet\'s roster cannot be read while NATS is unreachable (NATS is away); ask again"}',
    ]);
  });

  it('frames refused for their form keep their id: a second hello, a frame without a string type, a member named twice', async () => {
    const ws = connect(outageHub());
    expect(await exchange(ws, { type: 'hello', id: 'h-2', versions: ['0.1'] }, { type: 7, id: 'x-1' }, '{"type":"subscribe","id":"d-1","id":"d-1"}')).toEqual([
      '{"type":"error","id":"h-2","code":"invalid-frame","detail":"hello was already exchanged on this connection; the first hello governs it (AEP-0003 §4)"}',
      '{"type":"error","id":"x-1","code":"invalid-frame","detail":"a frame needs a string type"}',
      expect.stringMatching(/^\{"type":"error","id":"d-1","code":"invalid-frame","detail":".+"\}$/),
    ]);
  });

  it('a first frame that is not a hello: hello-required naming it, then a 1008 close', () => {
    const ws = new FakeSocket();
    new SocketSession(ws as unknown as WebSocket, { config: DEFAULTS, hub: outageHub(), authenticated: false, instance: 'test/1', log: () => {}, slowBytes: 1 << 20 });
    ws.receive(event);
    expect(ws.frames).toEqual(['{"type":"error","cause":"ev-1","code":"hello-required","detail":"the first frame on /socket must be a hello (AEP-0003 §3.5)"}']);
    expect(ws.closes).toEqual([1008]);
  });
});

describe('correlation', () => {
  it('names an event by cause, a request frame by id, and nothing else', () => {
    expect(correlation({ aep: '0.1', id: 'e' })).toEqual({ cause: 'e' });
    expect(correlation({ type: 'tool.call', id: 'e' })).toEqual({ cause: 'e' });
    expect(correlation({ type: 'tool.call', id: 7 })).toEqual({});
    expect(correlation({ type: 'subscribe', id: 's' })).toEqual({ id: 's' });
    expect(correlation({ type: 'subscribe' })).toEqual({});
    expect(correlation('text')).toEqual({});
    expect(correlation(undefined)).toEqual({});
  });
});
