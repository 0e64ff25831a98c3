/**
 * The WebSocket writer of one subscription: exact frames (markers naming the subscription, the
 * gap marker before its event, the event as received or down-leveled), replay pacing on the
 * high-water mark, and how each end reason closes the connection. A fake socket records frames.
 */
import type { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import type { AepEvent } from '../core/event.js';
import type { Received } from './buffer.js';
import { REPLAY_HIGH_WATER, SocketWriter, type SocketConnection } from './socket-writer.js';

function fakeConnection(): SocketConnection & { frames: string[]; callbacks: Array<() => void>; closes: string[]; lines: string[]; socket: { bufferedAmount: number; readyState: number } } {
  const frames: string[] = [];
  const callbacks: Array<() => void> = [];
  const socket = {
    OPEN: 1,
    readyState: 1,
    bufferedAmount: 0,
    send(text: string, cb?: () => void) {
      frames.push(text);
      if (cb) callbacks.push(cb);
    },
  };
  const closes: string[] = [];
  const lines: string[] = [];
  return {
    ws: socket as unknown as WebSocket,
    socket,
    frames,
    callbacks,
    closes,
    lines,
    send: (text) => void frames.push(text),
    shutdown: (reason, code) => void closes.push(`${reason} ${code}`),
    log: (line) => void lines.push(line),
  };
}

const event = { aep: '0.1', id: 'ws-w-1', type: 'tool.call', time: '2026-12-02T04:00:00Z', source: 'aep://w/a', agent: 'a', session: 'g', epoch: 0, seq: 9, capture: 'full', data: { tool: 'sh', input: { cmd: 'ls' } } } as AepEvent;
const rec: Received = { event, raw: JSON.stringify(event) };

describe('SocketWriter', () => {
  it('writes plan markers and gap markers naming the subscription, then the event as received', () => {
    const c = fakeConnection();
    const w = new SocketWriter(c, 'sub-1', undefined, 1 << 20);
    w.exhausted([{ session: 's', earliest: { epoch: 1, seq: 2 } }]);
    w.live(rec, { epoch: 0, seq: 9 });
    w.live(rec, undefined);
    expect(c.frames).toEqual([
      '{"type":"replay-exhausted","sub":"sub-1","session":"s","earliest":{"epoch":1,"seq":2}}',
      '{"type":"replay-exhausted","sub":"sub-1","session":"g","earliest":{"epoch":0,"seq":9}}',
      rec.raw,
      rec.raw,
    ]);
  });

  it('leaves sub out of an id-less subscription\'s markers, and down-levels to its ceiling', () => {
    const c = fakeConnection();
    const w = new SocketWriter(c, undefined, 'metadata', 1 << 20);
    w.exhausted([{ session: 's', earliest: { epoch: 0, seq: 0 } }]);
    w.live(rec, undefined);
    expect(c.frames[0]).toBe('{"type":"replay-exhausted","session":"s","earliest":{"epoch":0,"seq":0}}');
    const sent = JSON.parse(c.frames[1]!) as Record<string, unknown>;
    expect(sent.capture).toBe('metadata');
    expect(c.frames[1]).not.toContain('"cmd":"ls"');
  });

  it('paces a replay: over the high-water mark (capped by slowBytes) it reports false and drains once that frame went out', async () => {
    const c = fakeConnection();
    const w = new SocketWriter(c, 'p', undefined, 1000);
    c.socket.bufferedAmount = 1000;
    expect(w.replay(rec, undefined)).toBe(true);
    c.socket.bufferedAmount = 1001;
    expect(w.replay(rec, undefined)).toBe(false);
    let drained = false;
    const wait = w.drained().then(() => (drained = true));
    await Promise.resolve();
    expect(drained).toBe(false);
    expect(c.callbacks).toHaveLength(1);
    c.callbacks[0]!();
    await wait;
    expect(drained).toBe(true);
    expect(c.frames).toEqual([rec.raw, rec.raw]);
    expect(w.bufferedBytes()).toBe(1001);
    expect(REPLAY_HIGH_WATER).toBe(1024 * 1024);
  });

  it('writes nothing once the socket is not open, and a pending drain still resolves', async () => {
    const c = fakeConnection();
    const w = new SocketWriter(c, 'x', undefined, 10);
    c.socket.readyState = 2;
    c.socket.bufferedAmount = 100;
    expect(w.replay(rec, { epoch: 0, seq: 9 })).toBe(false);
    await w.drained();
    w.live(rec, undefined);
    expect(c.frames).toEqual([]);
  });

  it('closes the connection with slow-consumer 1013, or logs and closes with internal 1011 when the replay failed', () => {
    const c = fakeConnection();
    const w = new SocketWriter(c, 'e', undefined, 10);
    w.end('slow-consumer');
    w.end('failed', new Error('render broke'));
    w.end('replay-complete');
    expect(c.closes).toEqual(['slow-consumer 1013', 'internal 1011']);
    expect(c.lines).toEqual(['replay failed: render broke']);
  });
});
