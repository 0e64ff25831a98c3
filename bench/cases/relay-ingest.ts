/**
 * `relay-ingest`: NDJSON batches of 1000 Events POSTed to an in-process relay
 * (`startRelay({port: 0})`) with one live SSE subscriber draining, against a plain `node:http`
 * server on loopback that reads the body and answers 202. Same client on both sides. One
 * unit of ours is an Event accepted (202) AND delivered to the subscriber; the baseline's is an
 * Event whose bytes were read.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startRelay, type RunningRelay } from '../../impl/relay/server.js';
import type { Benchmark } from '../harness.js';
import { closeServer } from './pair.js';
import { NdjsonPoster } from '../http-client.js';
import { SseCounter } from '../sse-count.js';

const BATCH = 1000;
/** How long a batch may take to reach the subscriber before the bench gives up. */
const DELIVERY_TIMEOUT_MS = 10_000;

/** Builds successive batches of valid, never-repeating `progress.status` Events for one session. */
export class BatchMaker {
  private seq = 0;
  private readonly head: string;

  constructor(readonly session: string) {
    this.head = `{"aep":"0.1","type":"progress.status","time":"2026-11-30T06:00:00.000Z","source":"aep://bench-host/agent/loom/session/${session}","agent":"loom","session":"${session}","epoch":0,"capture":"redacted",`;
  }

  /** The next `size` Events as an NDJSON body (newline-terminated). */
  next(size = BATCH): string {
    let body = '';
    for (let i = 0; i < size; i++, this.seq++) {
      body += `${this.head}"id":"${this.session}-${this.seq}","seq":${this.seq},"data":{"phase":"working","percent":${this.seq % 100},"message":"step ${this.seq} of the ingest bench"}}\n`;
    }
    return body;
  }
}

/** A live SSE subscription that counts the events it has drained. */
interface Subscriber {
  readonly counter: SseCounter;
  /** Resolves once `events` events have arrived in total; rejects after `ms`. */
  until(events: number, ms: number): Promise<void>;
  close(): void;
}

function subscribe(url: string): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    const counter = new SseCounter();
    let waiter: (() => void) | undefined;
    const req = request(url, { agent: false, headers: { accept: 'text/event-stream' } }, (res: IncomingMessage) => {
      if (res.statusCode !== 200) {
        reject(new Error(`relay-ingest: GET ${url} answered ${res.statusCode}, expected 200`));
        res.resume();
        return;
      }
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        counter.feed(chunk);
        waiter?.();
      });
      resolve({
        counter,
        until(events, ms) {
          if (counter.events >= events) return Promise.resolve();
          return new Promise((ok, fail) => {
            const timer = setTimeout(() => {
              waiter = undefined;
              fail(new Error(`relay-ingest: the subscriber has ${counter.events} events after ${ms} ms, expected ${events}`));
            }, ms);
            waiter = () => {
              if (counter.events < events) return;
              clearTimeout(timer);
              waiter = undefined;
              ok();
            };
          });
        },
        close: () => req.destroy(),
      });
    });
    req.on('error', (err) => reject(err));
    req.end();
  });
}

/** The baseline server: reads each request body as text and answers 202. */
function startBaseline(): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      res.writeHead(202, { 'content-type': 'application/json' });
      res.end(`{"received":${text.length}}`);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

export const relayIngestBench: Benchmark = {
  name: 'relay-ingest',
  unit: 'events',
  what: 'POST /events (1000-event NDJSON batches) to startRelay with one SSE subscriber draining vs a node:http server that reads the body and answers 202',
  budgetMs: 400,
  async prepare() {
    let relay: RunningRelay | undefined;
    let baselineServer: Server | undefined;
    let subscriber: Subscriber | undefined;
    const posters: NdjsonPoster[] = [];
    const close = async (): Promise<void> => {
      for (const p of posters) p.close();
      subscriber?.close();
      await relay?.close();
      if (baselineServer) await closeServer(baselineServer);
    };
    try {
      relay = await startRelay({ port: 0, drainMs: 1000 });
      baselineServer = await startBaseline();
      subscriber = await subscribe(`${relay.url}/stream`);
      const toRelay = new NdjsonPoster(`${relay.url}/events`);
      const toBaseline = new NdjsonPoster(`http://127.0.0.1:${(baselineServer.address() as AddressInfo).port}/events`);
      posters.push(toRelay, toBaseline);
      const oursBatches = new BatchMaker('bench-ingest-ours');
      const baseBatches = new BatchMaker('bench-ingest-base');
      const sub = subscriber;
      let posted = 0;
      return {
        ours: {
          async run() {
            const reply = await toRelay.post(oursBatches.next());
            if (reply.status !== 202) throw new Error(`relay-ingest: the relay answered ${reply.status}: ${reply.body}`);
            const verdict = JSON.parse(reply.body) as { accepted?: unknown; duplicates?: unknown };
            if (verdict.accepted !== BATCH || verdict.duplicates !== 0) throw new Error(`relay-ingest: the relay answered ${reply.body}, expected ${BATCH} accepted, 0 duplicates`);
            posted += BATCH;
            await sub.until(posted, DELIVERY_TIMEOUT_MS);
            return BATCH;
          },
        },
        baseline: {
          async run() {
            const reply = await toBaseline.post(baseBatches.next());
            if (reply.status !== 202) throw new Error(`relay-ingest: the baseline answered ${reply.status}`);
            return BATCH;
          },
        },
        close,
      };
    } catch (err) {
      await close();
      throw err;
    }
  },
};
