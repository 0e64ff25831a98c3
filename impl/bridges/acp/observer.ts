/**
 * The ACP tee's off-path observer: newline-framed JSON-RPC lines from both directions →
 * moments → AEP events (map-frames.ts), with the tee's runtime state:
 * - request↔response join by JSON-RPC id per direction (a response answers a request that
 *   came from the other side);
 * - session: `params.sessionId`, the joined request's session, or a session/new|load result;
 * - run: the `session/prompt` request opens it, id `run:<epoch>:<rpc id>` (the real wire id,
 *   qualified by the bridge epoch); its response closes it;
 * - the permission pair: the answer/resolution names the request event (`subject`, `cause`),
 *   and a selected option is followed by `attention.resolved` (answered).
 * It never throws: a line that is not JSON-RPC is ignored; moments with no session are skipped.
 */
import { isPlainObject, type CaptureLevel } from '../../core/event.js';
import type { Mapped } from '../../adapter-kit/types.js';
import type { EnvelopeExtra } from '../../adapter-kit/envelope.js';
import { mapMoment, type AcpMoment } from './map-frames.js';
import { LineSplitter } from '../../http/lines.js';

export type Direction = 'client' | 'agent';
type Emit = (session: string, mapped: Mapped, extra: EnvelopeExtra) => { id: string };

interface Pending {
  method: string;
  session?: string;
  /** The attention.requested event id, for a permission request. */
  requestEvent?: string;
}

export interface ObserverOptions {
  epoch: number;
  deltas?: boolean;
  ceiling?: CaptureLevel;
}

export class AcpObserver {
  /** Each direction's lines: split linearly, a line over 16 MiB skipped (impl/http/lines.ts). */
  private readonly lines: Record<Direction, LineSplitter> = { client: new LineSplitter(), agent: new LineSplitter() };
  private readonly pending: Record<Direction, Map<string, Pending>> = { client: new Map(), agent: new Map() };
  private readonly runs = new Map<string, string>();
  /** `session NUL toolCallId` → the name its `tool_call` carried (until the terminal update). */
  private readonly toolNames = new Map<string, string>();
  /** Moments dropped because no session was known (initialize, authenticate, ...). */
  skipped = 0;

  constructor(private readonly emit: Emit, private readonly opts: ObserverOptions) {}

  /** Bytes seen on one direction of the pipe. */
  feed(direction: Direction, chunk: Buffer | string): void {
    this.lines[direction].feed(chunk, (line) => {
      try {
        this.line(direction, line);
      } catch {
        // observation is best effort; the pass-through never depends on it
      }
    });
  }

  private line(direction: Direction, line: string): void {
    if (line.trim() === '') return;
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch {
      return;
    }
    if (!isPlainObject(msg)) return;
    const id = typeof msg.id === 'string' || typeof msg.id === 'number' ? String(msg.id) : undefined;
    const params = isPlainObject(msg.params) ? msg.params : {};
    if (typeof msg.method === 'string') {
      const session = typeof params.sessionId === 'string' ? params.sessionId : undefined;
      const kind = id === undefined ? 'notification' : 'request';
      const entry: Pending = { method: msg.method, ...(session ? { session } : {}) };
      if (id !== undefined) this.pending[direction].set(id, entry);
      if (kind === 'request' && msg.method === 'session/prompt' && session) this.runs.set(session, `run:${this.opts.epoch}:${id}`);
      const events = this.dispatch(session, { kind, method: msg.method, params }, {});
      if (kind === 'request' && msg.method === 'session/request_permission' && events[0]) entry.requestEvent = events[0];
      return;
    }
    if (id === undefined) return;
    const other: Direction = direction === 'client' ? 'agent' : 'client';
    const req = this.pending[other].get(id);
    if (!req) return; // unmatched responses ride nowhere: nothing honest to say about them
    this.pending[other].delete(id);
    const result = isPlainObject(msg.result) ? msg.result : undefined;
    let session = req.session;
    if (!session && result && typeof result.sessionId === 'string') session = result.sessionId;
    const moment: AcpMoment = { kind: 'response', method: req.method, ...(result ? { result } : {}), ...(msg.error !== undefined ? { error: msg.error } : {}) };
    const run = session ? this.runs.get(session) : undefined;
    if (req.method === 'session/prompt' && session) this.runs.delete(session);
    const extra: EnvelopeExtra & { subject?: string } = { ...(run ? { run } : {}) };
    if (req.requestEvent) {
      extra.cause = req.requestEvent;
      extra.subject = req.requestEvent;
    }
    const emitted = this.dispatch(session, moment, extra, run);
    const outcome = result && isPlainObject(result.outcome) ? result.outcome.outcome : undefined;
    if (req.requestEvent && emitted.length > 0 && outcome === 'selected' && session) {
      this.emit(session, { type: 'attention.resolved', data: { resolution: 'answered' }, subject: req.requestEvent }, { ...(run ? { run } : {}), cause: emitted[0]! });
    }
  }

  /** Map one moment and emit its events; returns the emitted event ids. */
  private dispatch(session: string | undefined, moment: AcpMoment, extra: EnvelopeExtra & { subject?: string }, runOverride?: string): string[] {
    const mapped = mapMoment(moment, { ...(this.opts.deltas ? { deltas: true } : {}), ...(this.opts.ceiling ? { ceiling: this.opts.ceiling } : {}) });
    if (mapped.length === 0) return [];
    if (!session) {
      this.skipped += mapped.length;
      return [];
    }
    const run = runOverride ?? this.runs.get(session);
    const { subject, ...rest } = extra;
    return mapped.map((m) => this.emit(session, this.toolName(session, subject ? { ...m, subject } : m), { ...(run ? { run } : {}), ...rest }).id);
  }

  /**
   * A `tool_call_update` usually carries no title, so the pure mapping names the tool by its call
   * id: give the terminal the name its `tool_call` had (per session and call id).
   */
  private toolName(session: string, m: Mapped): Mapped {
    const tool = isPlainObject(m.data.tool) ? m.data.tool : undefined;
    const callId = tool && typeof tool.call_id === 'string' ? tool.call_id : undefined;
    if (!tool || !callId) return m;
    const key = `${session}\u0000${callId}`;
    if (m.type === 'tool.requested' && typeof tool.name === 'string') {
      this.toolNames.set(key, tool.name);
      return m;
    }
    if (m.type !== 'tool.completed' && m.type !== 'tool.failed') return m;
    const name = this.toolNames.get(key);
    this.toolNames.delete(key);
    if (!name || tool.name !== callId) return m;
    return { ...m, data: { ...m.data, tool: { ...tool, name } }, ...(m.subject === undefined ? {} : { subject: m.subject }) };
  }
}
