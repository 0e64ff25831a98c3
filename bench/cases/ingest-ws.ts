/**
 * `ingest-ws`: events/s accepted over an emitter WebSocket (`/socket`, hello role `emitter`),
 * one event per text frame, by an in-process `startRelay`, against a bare `ws` server that
 * `JSON.parse`s each frame and discards it (answering only the hello and `ping`). The load
 * generator runs in a separate process (`../ws-load.ts`), same client for both sides. A unit of
 * ours is an event judged (the closing `pong` has come back) AND delivered to an SSE subscriber
 * in order; each run also plants one invalid event that must be refused with an `invalid-event`
 * error naming it and never delivered. The baseline is not checked beyond its `pong`.
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { startRelay, type RunningRelay } from '../../impl/relay/server.js';
import type { Benchmark } from '../harness.js';
import { LoadProcess } from '../load-process.js';

/** Events per run of a side. */
const EVENTS_PER_RUN = 1000;

/** The bare server: parse each frame, answer the hello and pings, discard the rest. */
export function startBareWs(): Promise<WebSocketServer> {
  return new Promise((resolve, reject) => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false, maxPayload: 16 * 1024 * 1024 });
    wss.on('connection', (socket) => {
      socket.on('message', (data) => {
        const value = JSON.parse(data.toString()) as { type?: unknown; t?: unknown };
        if (value.type === 'hello') socket.send('{"type":"hello","version":"0.1","role":"relay"}');
        else if (value.type === 'ping') socket.send(JSON.stringify({ type: 'pong', t: value.t }));
      });
    });
    wss.once('listening', () => resolve(wss));
    wss.once('error', reject);
  });
}

export const ingestWsBench: Benchmark = {
  name: 'ingest-ws',
  unit: 'events',
  what: 'events sent as WebSocket text frames by an emitter to startRelay (judged, then delivered to an SSE subscriber; one planted invalid event refused per run), load in a separate process, vs a bare ws server that parses and discards',
  budgetMs: 400,
  async prepare() {
    let relay: RunningRelay | undefined;
    let bare: WebSocketServer | undefined;
    const loads: LoadProcess[] = [];
    const close = async (): Promise<void> => {
      for (const l of loads) l.stop();
      await relay?.close();
      if (bare) {
        for (const c of bare.clients) c.terminate();
        await new Promise<void>((r) => bare!.close(() => r()));
      }
    };
    try {
      relay = await startRelay({ port: 0, drainMs: 1000 });
      bare = await startBareWs();
      const toRelay = new LoadProcess('ws-load.js', 'ingest-ws');
      const toBare = new LoadProcess('ws-load.js', 'ingest-ws');
      loads.push(toRelay, toBare);
      await toRelay.ask({ kind: 'connect', tag: 'ours', wsUrl: `${relay.url.replace(/^http/, 'ws')}/socket`, streamUrl: `${relay.url}/stream` });
      await toBare.ask({ kind: 'connect', tag: 'base', wsUrl: `ws://127.0.0.1:${(bare.address() as AddressInfo).port}/` });
      const side = (load: LoadProcess) => ({
        async run() {
          const reply = await load.ask({ kind: 'run', events: EVENTS_PER_RUN });
          return Number(reply.accepted);
        },
      });
      return { ours: side(toRelay), baseline: side(toBare), close };
    } catch (err) {
      await close();
      throw err;
    }
  },
};
