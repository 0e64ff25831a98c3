/**
 * The WebSocket ingest stages of the per-event cost budget (`budget.ts`): what the relay does per
 * emitter text frame once `ws` has decoded it (`SocketSession`: decode, parse, shape check,
 * admission, and the hub's store and fan-out to one live SSE subscriber), beside what the
 * `ingest-ws` row's bare server does with the same frames (`JSON.parse` of the text). The frame
 * decoding of `ws` itself is the same on both sides and not in either stage.
 */
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { WebSocket } from 'ws';
import { compileFilter } from '../impl/core/filter.js';
import { DEFAULTS } from '../impl/relay/config.js';
import { Hub } from '../impl/relay/hub.js';
import { SocketSession } from '../impl/relay/socket.js';
import { SseWriter } from '../impl/relay/sse.js';
import type { Stage } from './budget-stage.js';
import { wsEvent } from './fanout-events.js';

function expect(ok: boolean, what: string): void {
  if (!ok) throw new Error(`budget: ${what}`);
}

/** `sets` sets of `n` frames as `ws` hands them over (one `Buffer` per message), the `ingest-ws` row's events. */
function frameSets(session: string, first: number, n: number, sets: number): Buffer[][] {
  let seq = first;
  return Array.from({ length: sets }, () => Array.from({ length: n }, () => Buffer.from(wsEvent(session, seq++), 'utf8')));
}

/** A stand-in for the `ws` socket a `SocketSession` reads: frames are emitted, what it sends is kept. */
class FrameSocket extends EventEmitter {
  readonly OPEN = 1;
  readonly readyState = 1;
  readonly bufferedAmount = 0;
  sent: string[] = [];
  send(text: string): void {
    this.sent.push(text);
  }
  close(): void {}
}

/** A response stand-in for the SSE writer: counts what would be written, sends nothing. */
function countingResponse(): ServerResponse & { written: number } {
  const res = { writableLength: 0, written: 0, write(chunk: string | Buffer): boolean {
    res.written += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    return true;
  } };
  return res as unknown as ServerResponse & { written: number };
}

export const WS_STAGES: readonly Stage[] = [
  {
    name: 'ws-frames',
    group: 'ingest',
    what: 'SocketSession handling the set as emitter text frames (decode, parse, shape check, admission, then Hub store and fan-out into a full 10,000-event session with one live SSE subscriber), writes discarded',
    async prepare(n, sets) {
      const hub = new Hub(10_000, 1000);
      const ws = new FrameSocket();
      new SocketSession(ws as unknown as WebSocket, { config: DEFAULTS, hub, authenticated: false, instance: 'budget/ws', log: () => {}, slowBytes: 1 << 30 });
      const send = (frame: Buffer): boolean => ws.emit('message', frame, false);
      send(Buffer.from(JSON.stringify({ type: 'hello', versions: ['0.1'], role: 'emitter' })));
      expect(ws.sent.length === 1 && ws.sent[0]!.includes('"type":"hello"'), 'no hello from the session');
      const fill = Math.ceil(10_000 / n);
      const all = frameSets('budget-ws', 0, n, fill + sets);
      for (const set of all.splice(0, fill)) {
        for (const f of set) send(f);
        await new Promise((r) => setImmediate(r)); // the first event's claim, then every pending batch
      }
      const res = countingResponse();
      hub.subscribe({ filter: {}, match: compileFilter({}), ceiling: undefined, replay: { kind: 'none' }, live: true, slowBytes: 1 << 30 }, new SseWriter(res, undefined, () => {}));
      await new Promise((r) => setImmediate(r)); // the (empty) replay ends: the subscription goes live
      ws.sent = [];
      return {
        async run(i) {
          const before = res.written;
          for (const f of all[i]!) send(f);
          await undefined; // the frames of one tick reach the hub together, at its end
          expect(ws.sent.length === 0, `the session answered: ${ws.sent[0]}`);
          expect(res.written > before, 'the frames delivered nothing');
        },
      };
    },
  },
];

export const WS_LIMITS: readonly Stage[] = [
  {
    name: 'ws bare',
    group: 'limit',
    what: 'JSON.parse of each frame\'s text, as the ingest-ws row\'s bare server does',
    async prepare(n, sets) {
      const all = frameSets('budget-ws', 0, n, sets);
      return {
        run(i) {
          let k = 0;
          for (const f of all[i]!) if (typeof JSON.parse(f.toString()) === 'object') k++;
          expect(k === n, 'JSON.parse miscounted');
        },
      };
    },
  },
];
