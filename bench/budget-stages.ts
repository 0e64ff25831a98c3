/**
 * The stages of the per-event cost budget (`bench/budget.ts`, docs/performance.md): each stage
 * of the relay's ingest (read, split, scan, validate, admit, render, write, and the hub's whole
 * fan-out) and of `aep validate`'s `validateStream`, each beside what the same bytes cost with
 * nothing but `JSON.parse` or a bare read or write. A stage is prepared once with `sets + 1`
 * sets of `n` events (one untimed warm-up set, then the measured ones); `run(set)` handles one
 * set and checks what it produced, so a stage that does less fails instead of measuring well.
 */
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { scanJson } from '../impl/core/json-scan.js';
import { MAX_DEPTH } from '../impl/core/json-shape.js';
import { parseJsonl, validateStream, type StreamEntry } from '../impl/core/stream.js';
import { validateEvent } from '../impl/core/envelope.js';
import { readBody } from '../impl/http/body.js';
import { admitEvent } from '../impl/relay/admission.js';
import { oneLine, parseBatch, parseLines } from '../impl/relay/batch.js';
import { readBodyLines } from '../impl/relay/body-lines.js';
import { ReplayBuffer, type Received } from '../impl/relay/buffer.js';
import { compileFilter } from '../impl/core/filter.js';
import { Hub } from '../impl/relay/hub.js';
import { SseWriter } from '../impl/relay/sse.js';
import { BatchMaker } from './cases/relay-ingest.js';
import { syntheticStream } from './inputs.js';
import { FANOUT_STAGES } from './budget-fanout.js';
import type { Stage } from './budget-stage.js';
import { WS_LIMITS, WS_STAGES } from './budget-ws.js';

export type { PreparedStage, Stage, StageGroup } from './budget-stage.js';

/** One NDJSON body per set: the relay-ingest bench's batches (one session, `progress.status`). */
function bodies(n: number, sets: number): string[] {
  const maker = new BatchMaker('budget');
  return Array.from({ length: sets }, () => maker.next(n));
}

function linesOf(body: string): string[] {
  const lines = body.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The body as a socket hands it over: 64 KiB chunks. */
function chunksOf(body: string): Buffer[] {
  const bytes = Buffer.from(body, 'utf8');
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += 65_536) out.push(bytes.subarray(i, i + 65_536));
  return out;
}

/** A request stand-in for `readBody`: it emits the chunks, then `end`. */
function fakeRequest(chunks: readonly Buffer[]): EventEmitter & { headers: Record<string, string> } {
  const req = Object.assign(new EventEmitter(), { headers: {} as Record<string, string> });
  queueMicrotask(() => {
    for (const c of chunks) req.emit('data', c);
    req.emit('end');
  });
  return req;
}

function expect(ok: boolean, what: string): void {
  if (!ok) throw new Error(`budget: ${what}`);
}

/** Accepted records of each set, as `parseBatch` makes them. */
function recordsOf(all: readonly string[]): Received[][] {
  return all.map((b) => {
    const verdict = parseBatch(b, 'ndjson', 1_000_000);
    if (!verdict.ok) throw new Error(`budget: a batch was refused: ${JSON.stringify(verdict.refusal.body)}`);
    return verdict.events;
  });
}

/** A response stand-in for the SSE writer: counts what would be written, sends nothing. */
function nullResponse(): ServerResponse & { written: number } {
  const res = { writableLength: 0, written: 0, write(chunk: string | Buffer): boolean {
    res.written += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    return true;
  } };
  return res as unknown as ServerResponse & { written: number };
}

/** A child process that reads a TCP connection (or an HTTP response) to the end and discards it. */
async function drainPeer(kind: 'tcp' | 'http', port: number): Promise<void> {
  const { spawn } = await import('node:child_process');
  const code = kind === 'tcp'
    ? `require('net').connect(${port},'127.0.0.1').on('data',()=>{}).on('error',()=>{})`
    : `require('http').get('http://127.0.0.1:${port}/',r=>r.on('data',()=>{})).on('error',()=>{})`;
  const child = spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
  child.unref();
}

/** A stage that reads each set's body from a fake request's 64 KiB chunks; `read` says whether it got the body (`n` events). */
function readStage(name: string, what: string, read: (req: IncomingMessage, n: number) => Promise<boolean>): Stage {
  return {
    name,
    group: 'ingest',
    what,
    async prepare(n, sets) {
      const all = bodies(n, sets).map(chunksOf);
      return {
        async run(i) {
          expect(await read(fakeRequest(all[i]!) as never, n), `${name} failed`);
        },
      };
    },
  };
}

/** The ingest stages, then the `validateStream` ones, then the limits. */
export const STAGES: readonly Stage[] = [
  readStage('read', 'readBody: the body as 64 KiB chunks, joined and strictly decoded as UTF-8 (the relay reads a JSON body so; an NDJSON one is read-lines)', async (req) => (await readBody(req, 1 << 30)).ok),
  readStage('read-lines', 'readBodyLines, the relay\'s NDJSON read: the 64 KiB chunks decoded into lines in pieces of at most 32 KiB (body-lines.ts)', async (req, n) => {
    const body = await readBodyLines(req, 1 << 30);
    return body.ok && body.lines.length >= n;
  }),
  {
    name: 'split',
    group: 'ingest',
    what: 'the body cut into lines (parseBatch\'s split and blank-line count)',
    async prepare(n, sets) {
      const all = bodies(n, sets);
      return {
        run(i) {
          const lines = all[i]!.split('\n');
          let count = 0;
          for (const l of lines) if (l.charCodeAt(0) === 0x7b || l.trim() !== '') count++;
          expect(count === n, 'split miscounted');
        },
      };
    },
  },
  {
    name: 'scan',
    group: 'ingest',
    what: 'scanJson per line: JSON.parse plus the duplicate-member and depth verdict',
    async prepare(n, sets) {
      const all = bodies(n, sets).map(linesOf);
      return {
        run(i) {
          for (const line of all[i]!) expect(scanJson(line, MAX_DEPTH).ok, 'scan refused a line');
        },
      };
    },
  },
  {
    name: 'validate',
    group: 'ingest',
    what: 'admitEvent per scanned value: validateEnvelope and the over-declared check, plus the one-line text',
    async prepare(n, sets) {
      const all = bodies(n, sets).map((b) => linesOf(b).map((line) => ({ line, value: JSON.parse(line) as unknown })));
      return {
        run(i) {
          for (const { line, value } of all[i]!) expect(admitEvent(value, oneLine(line, value)).ok, 'validate refused an event');
        },
      };
    },
  },
  {
    name: 'parse-batch',
    group: 'ingest',
    what: 'parseBatch: split, scan and validate the whole body text together (the relay\'s path for a JSON body; NDJSON is parse-lines)',
    async prepare(n, sets) {
      const all = bodies(n, sets);
      return {
        run(i) {
          const verdict = parseBatch(all[i]!, 'ndjson', 1_000_000);
          expect(verdict.ok && verdict.events.length === n, 'parseBatch refused the batch');
        },
      };
    },
  },
  {
    name: 'parse-lines',
    group: 'ingest',
    what: 'parseLines: scan and validate the lines readBodyLines gave, as the relay calls it for NDJSON',
    async prepare(n, sets) {
      const all = bodies(n, sets).map((b) => b.split('\n'));
      return {
        run(i) {
          // parseLines may drop a byte order mark from the first line: give it its own copy of the array.
          const verdict = parseLines(all[i]!.slice(), 1_000_000);
          expect(verdict.ok && verdict.events.length === n, 'parseLines refused the batch');
        },
      };
    },
  },
  {
    name: 'admit',
    group: 'ingest',
    what: 'ReplayBuffer.admit per record into a full 10,000-event session (one eviction per event)',
    async prepare(n, sets) {
      const fill = Math.ceil(10_000 / n);
      const all = recordsOf(bodies(n, fill + sets));
      const buffer = new ReplayBuffer(10_000, 1000);
      for (const recs of all.splice(0, fill)) for (const rec of recs) buffer.admit(rec);
      return {
        run(i) {
          for (const rec of all[i]!) expect(buffer.admit(rec).buffered, 'admit refused a record');
        },
      };
    },
  },
  {
    name: 'render',
    group: 'ingest',
    what: 'one subscriber\'s SSE bytes for the batch at no ceiling (SseWriter.live per event, then flush)',
    async prepare(n, sets) {
      const all = recordsOf(bodies(n, sets));
      const res = nullResponse();
      const writer = new SseWriter(res, undefined, () => {});
      return {
        run(i) {
          const before = res.written;
          for (const rec of all[i]!) writer.live(rec, undefined);
          writer.flush();
          expect(res.written > before, 'render wrote nothing');
        },
      };
    },
  },
  {
    name: 'publish',
    group: 'ingest',
    what: 'Hub.publishAll of the batch into a full 10,000-event session with one live SSE subscriber (admit, match, render, flush), writes discarded',
    async prepare(n, sets) {
      const fill = Math.ceil(10_000 / n);
      const all = recordsOf(bodies(n, fill + sets));
      const hub = new Hub(10_000, 1000);
      for (const recs of all.splice(0, fill)) hub.publishAll(recs); // a full session: one eviction per event
      const res = nullResponse();
      const match = compileFilter({});
      hub.subscribe({ filter: {}, match, ceiling: undefined, replay: { kind: 'none' }, live: true, slowBytes: 1 << 30 }, new SseWriter(res, undefined, () => {}));
      await new Promise((r) => setImmediate(r)); // the (empty) replay ends: the subscription goes live
      return {
        run(i) {
          const before = res.written;
          expect(hub.publishAll(all[i]!) === n, 'publish stored fewer events than sent');
          expect(res.written > before, 'publish delivered nothing');
        },
      };
    },
  },
  {
    name: 'write',
    group: 'ingest',
    what: 'the batch\'s SSE bytes written as one chunk to an HTTP response a child process reads',
    async prepare(n, sets) {
      const all = recordsOf(bodies(n, sets)).map((recs) => {
        const res = nullResponse();
        const chunks: Buffer[] = [];
        (res as unknown as { write(c: Buffer): boolean }).write = (c: Buffer) => (chunks.push(c), true);
        const writer = new SseWriter(res, undefined, () => {});
        for (const rec of recs) writer.live(rec, undefined);
        writer.flush();
        return Buffer.concat(chunks);
      });
      const { server, res } = await httpSink();
      return {
        async run(i) {
          if (!res.write(all[i]!)) await new Promise((r) => res.once('drain', r));
        },
        async close() {
          res.destroy();
          server.close();
        },
      };
    },
  },
  ...WS_STAGES,
  {
    name: 'parseJsonl',
    group: 'stream',
    what: 'parseJsonl over the synthetic lifecycle stream (scanJson per line)',
    async prepare(n, sets) {
      const all = streams(n, sets);
      return {
        run(i) {
          const parsed = parseJsonl(all[i]!);
          expect(parsed.events.length === n && parsed.issues.length === 0, 'parseJsonl dropped lines');
        },
      };
    },
  },
  {
    name: 'validateEvent',
    group: 'stream',
    what: 'validateEvent per parsed event: envelope, registry, prose rules, capture honesty and payload',
    async prepare(n, sets) {
      const all = streams(n, sets).map((s) => parseJsonl(s).events);
      return {
        run(i) {
          for (const e of all[i]!) expect(validateEvent(e.value).length === 0, 'validateEvent flagged a valid event');
        },
      };
    },
  },
  {
    name: 'validateStream',
    group: 'stream',
    what: 'validateStream over the parsed entries: validateEvent plus the cross-event rules',
    async prepare(n, sets) {
      const all: StreamEntry[][] = streams(n, sets).map((s) => parseJsonl(s).events);
      return {
        run(i) {
          expect(validateStream(all[i]!).length === 0, 'validateStream flagged a valid stream');
        },
      };
    },
  },
  {
    name: 'JSON.parse',
    group: 'limit',
    what: 'JSON.parse per line of the ingest body: the least a parse of the same bytes costs',
    async prepare(n, sets) {
      const all = bodies(n, sets).map(linesOf);
      return {
        run(i) {
          let k = 0;
          for (const line of all[i]!) if (typeof JSON.parse(line) === 'object') k++;
          expect(k === n, 'JSON.parse miscounted');
        },
      };
    },
  },
  {
    name: 'JSON.parse stream',
    group: 'limit',
    what: 'JSON.parse per line of the synthetic stream (the `stream` row\'s baseline)',
    async prepare(n, sets) {
      const all = streams(n, sets).map(linesOf);
      return {
        run(i) {
          let k = 0;
          for (const line of all[i]!) if (typeof JSON.parse(line) === 'object') k++;
          expect(k === n, 'JSON.parse miscounted');
        },
      };
    },
  },
  {
    name: 'bare read',
    group: 'limit',
    what: 'the body\'s chunks joined and decoded with toString (the relay-ingest baseline server)',
    async prepare(n, sets) {
      const all = bodies(n, sets).map(chunksOf);
      return {
        run(i) {
          expect(Buffer.concat(all[i]!).toString('utf8').length > 0, 'bare read decoded nothing');
        },
      };
    },
  },
  {
    name: 'bare write',
    group: 'limit',
    what: 'the body\'s bytes written as one chunk to a TCP socket a child process reads',
    async prepare(n, sets) {
      const all = bodies(n, sets).map((b) => Buffer.from(b, 'utf8'));
      const { server, socket } = await tcpSink();
      return {
        async run(i) {
          if (!socket.write(all[i]!)) await new Promise((r) => socket.once('drain', r));
        },
        async close() {
          socket.destroy();
          server.close();
        },
      };
    },
  },
  ...WS_LIMITS,
  ...FANOUT_STAGES,
];

function streams(n: number, sets: number): string[] {
  // One stream per set, each its own sessions: a set's ids never repeat another's.
  const text = syntheticStream(n * sets);
  const lines = linesOf(text);
  return Array.from({ length: sets }, (_, s) => `${lines.slice(s * n, (s + 1) * n).join('\n')}\n`);
}

async function tcpSink(): Promise<{ server: NetServer; socket: Socket }> {
  const server = createNetServer();
  const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await drainPeer('tcp', (server.address() as AddressInfo).port);
  const socket = await accepted;
  return { server, socket };
}

async function httpSink(): Promise<{ server: Server; res: ServerResponse }> {
  let resolve!: (res: ServerResponse) => void;
  const got = new Promise<ServerResponse>((r) => (resolve = r));
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    resolve(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  await drainPeer('http', (server.address() as AddressInfo).port);
  const res = await got;
  return { server, res };
}
