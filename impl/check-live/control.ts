import { CheckFailure, CheckSkip } from './check.js';
import type { CheckContext } from './context.js';
import { parseObject, type Json } from './events.js';
import { openOrSkip, requireSocket, wsSubscribe } from './probe.js';
import type { WsConn, WsFrame } from './ws-client.js';

/** Shared steps of the control checks (AEP-0004): a sender socket, commands, and ack decisions. */

export const DECISION_TYPES = ['control.accepted', 'control.rejected'];

/** The control session, or a skip when none was given. */
export function controlSession(ctx: CheckContext): string {
  if (!ctx.opts.controlSession) throw new CheckSkip('skipped: no --control-session given (the control checks send real commands, so they never probe unasked)');
  return ctx.opts.controlSession;
}

/** A sender socket (role both, with the token) watching `session`. */
export async function senderFor(ctx: CheckContext, session: string): Promise<WsConn> {
  await requireSocket(ctx);
  const conn = await openOrSkip(ctx, () => ctx.helloWs('both'));
  await wsSubscribe(conn, { id: 'control-watch', filter: { session } });
  return conn;
}

export const isDecision = (f: WsFrame, cmdId: string): boolean =>
  DECISION_TYPES.includes(f.json?.type as string) && f.json?.cause === cmdId;

export const isRefusal = (f: WsFrame, cmdId: string): boolean => f.json?.type === 'error' && f.json.cause === cmdId;

/** The first answer to a command: an ack/nack Event, or a relay-behalf refusal frame. */
export type Answer = { kind: 'decision'; frame: WsFrame; event: Json; ms: number } | { kind: 'refusal'; frame: WsFrame; code: string; ms: number };

/** Sends `raw` (the command's exact text) and waits up to the ack window for its first answer. */
export async function sendAndAwait(ctx: CheckContext, conn: WsConn, raw: string, cmdId: string): Promise<Answer> {
  const since = conn.log.mark();
  const t0 = Date.now();
  conn.send(raw);
  let found;
  try {
    found = await conn.log.waitFor((f) => isDecision(f, cmdId) || isRefusal(f, cmdId), ctx.opts.ackWindowMs, 'an ack decision', since);
  } catch (err) {
    if (err instanceof CheckFailure && err.message.startsWith('timed out')) {
      throw new CheckFailure(`no control.accepted/control.rejected with cause ${cmdId} within the ${ctx.opts.ackWindowMs} ms ack window (silence is a timeout nack)`);
    }
    throw err;
  }
  const ms = Date.now() - t0;
  const frame = found.item;
  if (isRefusal(frame, cmdId)) return { kind: 'refusal', frame, code: String(frame.json?.code), ms };
  return { kind: 'decision', frame, event: parseObject(frame.raw) ?? {}, ms };
}

export function describeAnswer(a: Answer): string {
  if (a.kind === 'refusal') {
    const detail = typeof a.frame.json?.detail === 'string' ? `: ${a.frame.json.detail}` : '';
    return `refused by the relay with error code '${a.code}'${detail}`;
  }
  const data = a.event.data as Json | undefined;
  return a.event.type === 'control.accepted' ? 'accepted' : `rejected (${String(data?.reason)})`;
}

/** Other decisions for `cmdId` that differ from `first` (a second DISTINCT ack), after a settle period. */
export async function distinctDecisions(conn: WsConn, cmdId: string, first: WsFrame, settleMs: number): Promise<WsFrame[]> {
  const all = await conn.log.collect((f) => isDecision(f, cmdId), settleMs);
  return all.filter((f) => f.raw !== first.raw && canonical(parseObject(f.raw)) !== canonical(parseObject(first.raw)));
}

/** Key-sorted JSON, for "same object" comparisons that ignore member order and whitespace. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'undefined';
}

/** The settle period after a first ack during which a second decision would be caught. */
export const settleMs = (ctx: CheckContext): number => Math.min(1500, ctx.opts.ackWindowMs);

/** Timeout for a control check: room for two windows and the settle periods. */
export const controlTimeout = (ctx: CheckContext): number => ctx.opts.ackWindowMs * 3 + 15_000;
