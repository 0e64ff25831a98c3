/**
 * live/bridge-mappings: the inbound bridges' mapping entries replayed through the real bridge.
 * Today the AG-UI tee proxy (`mappings/agui.json`): a stub AG-UI agent answers each run POST with
 * the entry's event in AG-UI's SSE encoding, the UI side of the proxy is this runner, and the
 * events the proxy tees onto a tokened relay must equal the pin (`{type, data, subject?, step?}`;
 * null = nothing; an array = those events, in order), be valid, and carry the stream's identity
 * (`threadId` → session, `runId` → run).
 *
 * Each entry gets its own thread. What a receiver joins from earlier events of the stream is
 * replayed as the wire carries it, so the proxy does the join itself: a `RUN_STARTED` opens the
 * stream (unless the entry is one), a `TOOL_CALL_RESULT` pinned with its `toolCallName` is sent
 * without it after the call's `TOOL_CALL_START`, a `TEXT_MESSAGE_END` pinned with its `role`
 * without it after the message's `TEXT_MESSAGE_START`. The events of those preludes (what the pure
 * mapper gives for them) are set aside; the rest is compared. A `deltas_expected` fork runs
 * through a second proxy with the delta opt-in on. The UI must get the agent's bytes unchanged.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmitter, type Emitter } from '../../impl/bridge-kit/emitter.js';
import { mapEvent as mapAguiEvent } from '../../impl/bridges/agui/map-events.js';
import { startAguiProxy, type RunningAguiProxy } from '../../impl/bridges/agui/proxy.js';
import { isPlainObject } from '../../impl/core/event.js';
import { readJsonFixture } from '../conformance/fixtures.js';
import { attribute, describeThrown, fail, pass } from '../conformance/check.js';
import { comparePin, mappingSources, pinShape } from '../conformance/families/mappings.js';
import { ENTRY_SECTIONS } from '../conformance/families/bridge-sources.js';
import type { Check } from '../conformance/types.js';
import { poll } from './live-target.js';
import { LIVE_HOST, type Stack } from './stack.js';

type Obj = Record<string, unknown>;

/** How long a replayed entry's events may take to reach the relay. */
const EVENT_MS = 5000;
/** How long to listen past the last expected event for one that must not come. */
const QUIET_MS = 150;
const quiet = (): void => undefined;

/** One entry bound to a thread: the stream the stub agent answers, and how many leading events are the preludes'. */
export interface AguiReplay {
  /** The AG-UI events the stub agent streams, in order. */
  stream: Obj[];
  /** The run input the UI posts (`threadId`, `runId`). */
  input: { threadId: string; runId: string };
  /** Relay events produced by the preludes (set aside before comparing). */
  preludeEvents: number;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const count = (mapped: unknown): number => (mapped === null || mapped === undefined ? 0 : Array.isArray(mapped) ? mapped.length : 1);

/** The wire stream of one entry on `thread`: its preludes, then the entry's event as the agent sends it. */
export function aguiReplay(entryInput: Obj, thread: string, fallbackRun: string, deltas: boolean): AguiReplay {
  const event: Obj = { ...entryInput };
  if ('threadId' in event) event.threadId = thread;
  const runId = str(event.runId) ?? fallbackRun;
  const preludes: Obj[] = [];
  if (event.type !== 'RUN_STARTED') preludes.push({ type: 'RUN_STARTED', threadId: thread, runId });
  if (event.type === 'TOOL_CALL_RESULT' && str(event.toolCallName) && str(event.toolCallId)) {
    preludes.push({ type: 'TOOL_CALL_START', toolCallId: event.toolCallId, toolCallName: event.toolCallName });
    delete event.toolCallName;
  }
  if (event.type === 'TEXT_MESSAGE_END' && str(event.role) && str(event.messageId)) {
    preludes.push({ type: 'TEXT_MESSAGE_START', messageId: event.messageId, role: event.role });
    delete event.role;
  }
  const preludeEvents = preludes.reduce((n, p) => n + count(mapAguiEvent(p, deltas ? { deltas: true } : {})), 0);
  return { stream: [...preludes, event], input: { threadId: thread, runId }, preludeEvents };
}

/** The entries of an AG-UI mapping file: `[label, input, expected, deltas?]`, the deltas fork as its own entry. */
function aguiEntries(file: Obj): { name: string; input: Obj; expected: unknown; deltas: boolean }[] {
  const out: { name: string; input: Obj; expected: unknown; deltas: boolean }[] = [];
  const sections = ENTRY_SECTIONS.filter((s) => isPlainObject(file[s])).map((s) => Object.entries(file[s] as Obj));
  if (isPlainObject(file.fallback)) sections.push([['fallback', file.fallback]]);
  for (const [label, entry] of sections.flat()) {
    if (label.startsWith('$') || !isPlainObject(entry) || !isPlainObject(entry.input) || !('expected' in entry)) continue;
    out.push({ name: label, input: entry.input, expected: entry.expected, deltas: false });
    if ('deltas_expected' in entry) out.push({ name: `${label} (deltas)`, input: entry.input, expected: entry.deltas_expected, deltas: true });
  }
  return out;
}

/** The stub AG-UI agent: `POST /run/<n>` answers stream `n` in AG-UI's SSE encoding. */
async function startStubAgent(): Promise<{ url: string; serve(n: number, events: Obj[]): string; close(): Promise<void> }> {
  const streams = new Map<number, string>();
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const n = Number(/^\/run\/(\d+)$/.exec(req.url ?? '')?.[1] ?? NaN);
      const body = streams.get(n);
      if (req.method !== 'POST' || body === undefined) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    serve(n, events) {
      const body = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');
      streams.set(n, body);
      return body;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

async function replayOne(stack: Stack, proxy: RunningAguiProxy, stub: Awaited<ReturnType<typeof startStubAgent>>, entry: ReturnType<typeof aguiEntries>[number], n: number, validate: (e: unknown) => string | null): Promise<string | null> {
  const thread = `live-agui-${n}`;
  const replay = aguiReplay(entry.input, thread, `live-agui-run-${n}`, entry.deltas);
  const wire = stub.serve(n, replay.stream);
  const mark = stack.client.frames.length;
  const mine = () => stack.client.frames.slice(mark).map((f) => f.json).filter((e): e is Obj => typeof e?.aep === 'string' && e.agent === 'agui' && e.session === thread);
  const res = await fetch(`${proxy.url}/run/${n}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify(replay.input) });
  const text = await res.text();
  if (res.status !== 200) return `the proxy answered HTTP ${res.status}`;
  if (text !== wire) return 'the UI did not get the agent\'s stream bytes unchanged';
  const expected = entry.expected === null ? [] : Array.isArray(entry.expected) ? entry.expected : [entry.expected];
  await poll(() => mine().length >= replay.preludeEvents + expected.length, EVENT_MS);
  await new Promise((r) => setTimeout(r, QUIET_MS));
  const events = mine();
  if (events.length < replay.preludeEvents) return `the stream's opening events did not reach the relay within ${EVENT_MS} ms (${events.length} of ${replay.preludeEvents})`;
  const got = events.slice(replay.preludeEvents);
  for (const event of got) {
    const invalid = validate(event);
    if (invalid) return `the delivered ${String(event.type)} is not valid: ${invalid}`;
    if (event.run !== replay.input.runId) return `${String(event.type)} has run ${JSON.stringify(event.run)}, expected ${JSON.stringify(replay.input.runId)} (the stream's runId)`;
  }
  if (entry.expected === null) return got.length === 0 ? null : `expected no event, the relay delivered ${got.map((e) => e.type).join(', ')}`;
  if (Array.isArray(entry.expected)) return comparePin(entry.expected.map(pinShape), got.map(pinShape));
  if (got.length !== 1) return `expected 1 event, the relay delivered ${got.length} (${got.map((e) => e.type).join(', ') || 'none'})`;
  return comparePin(pinShape(entry.expected), pinShape(got[0]));
}

/** Replay every entry of `mappings/agui.json` (when the corpus has it) through two AG-UI proxies (deltas off, on). */
export async function liveAguiMappings(stack: Stack, corpusDir: string, validate: (e: unknown) => string | null, selects: (name: string) => boolean = () => true, log: (line: string) => void = quiet): Promise<Check[]> {
  if (!mappingSources(corpusDir).includes('agui')) return [];
  const entries = aguiEntries(readJsonFixture(corpusDir, 'mappings/agui.json') as Obj).filter((e) => selects(`live/bridge-mappings/agui/${e.name}`));
  if (entries.length === 0) return [];
  log('starting the AG-UI tee proxies (deltas off and on) toward a stub AG-UI agent');
  const home = mkdtempSync(join(tmpdir(), 'aep-live-agui-'));
  const closers: { close(): Promise<void> }[] = [];
  try {
    const stub = await startStubAgent();
    closers.push(stub);
    const emitter: Emitter = createEmitter({ agent: 'agui', stateKey: 'bridge-agui', home, relay: stack.relayUrl, token: stack.token, host: LIVE_HOST, writeLog: false, emits: ['run', 'tool', 'state', 'attention', 'x.agui'], log: quiet });
    closers.unshift(emitter);
    await poll(() => emitter.relayReady(), EVENT_MS);
    if (!emitter.relayReady()) throw new Error(`the AG-UI bridge's emitter did not complete its hello with the relay within ${EVENT_MS} ms`);
    const plain = await startAguiProxy({ upstream: stub.url, emitter, port: 0, log: quiet });
    closers.unshift(plain);
    const deltas = await startAguiProxy({ upstream: stub.url, emitter, deltas: true, port: 0, log: quiet });
    closers.unshift(deltas);
    const checks: Check[] = [];
    let n = 0;
    for (const entry of entries) {
      const name = `live/bridge-mappings/agui/${entry.name}`;
      try {
        const problem = await replayOne(stack, entry.deltas ? deltas : plain, stub, entry, n++, validate);
        checks.push(problem === null ? pass(name) : fail(name, problem));
      } catch (err) {
        checks.push(fail(name, describeThrown(err)));
      }
    }
    return attribute(checks, 'agui');
  } finally {
    for (const c of closers) await c.close().catch(() => undefined);
    rmSync(home, { recursive: true, force: true });
  }
}
