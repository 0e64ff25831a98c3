import { CheckFailure, CheckSkip } from './check.js';
import type { CheckContext } from './context.js';
import { freshSession, parseObject, statusEvent, type Json } from './events.js';
import { isMessage, sleep, wsSubscribe } from './probe.js';
import type { SseItem } from './sse.js';
import type { WsFrame } from './ws-client.js';

/** What one binding delivered for the flooded session after eviction, in arrival order. */
export interface BindingReplay {
  binding: 'SSE' | 'WS';
  /** The earliest retained position the marker announced, and whether it came before the first event. */
  marker?: { session: string; epoch: number; seq: number; beforeFirstEvent: boolean };
  /** Delivered payloads for the flooded session: exact text and parse. */
  delivered: Array<{ raw: string; event: Json }>;
}

export interface EvictProbe {
  session: string;
  /** The exact lines posted, by event id. */
  posted: Map<string, string>;
  lastSeq: number;
  bindings: BindingReplay[];
}

const SSE_MARKER = /^replay-exhausted (.+) (\d+):(\d+)$/;

/** Reads the SSE `: replay-exhausted {session} {epoch}:{seq}` comment (session parsed from the right). */
export function parseSseMarker(text: string): { session: string; epoch: number; seq: number } | undefined {
  const m = SSE_MARKER.exec(text);
  return m ? { session: m[1]!, epoch: Number(m[2]), seq: Number(m[3]) } : undefined;
}

function fromSse(items: SseItem[], session: string): BindingReplay {
  const out: BindingReplay = { binding: 'SSE', delivered: [] };
  for (const item of items) {
    if (item.kind === 'comment') {
      const m = parseSseMarker(item.text);
      if (m && m.session === session && !out.marker) out.marker = { ...m, beforeFirstEvent: out.delivered.length === 0 };
    } else if (isMessage(item)) {
      const event = parseObject(item.data);
      if (event?.session === session) out.delivered.push({ raw: item.data, event });
    }
  }
  return out;
}

function fromWs(frames: WsFrame[], session: string, sub: string): BindingReplay {
  const out: BindingReplay = { binding: 'WS', delivered: [] };
  for (const f of frames) {
    const j = f.json;
    if (j?.type === 'replay-exhausted' && j.sub === sub && j.session === session && !out.marker) {
      const e = j.earliest as Json | undefined;
      out.marker = { session, epoch: Number(e?.epoch), seq: Number(e?.seq), beforeFirstEvent: out.delivered.length === 0 };
    } else if (j?.session === session && typeof j.type === 'string' && j.type.includes('.')) {
      out.delivered.push({ raw: f.raw, event: j });
    }
  }
  return out;
}

/**
 * The shared flood for the two eviction checks, run once per checker run: posts more events
 * than the advertised buffer into a fresh session, then resumes from seq 0 on both bindings.
 */
export function evictProbe(ctx: CheckContext): Promise<EvictProbe> {
  return ctx.memo('evict', async () => {
    if (!ctx.opts.evict) throw new CheckSkip('skipped: eviction checks are opt-in (--evict; run the target with a small buffer, e.g. AEP_BUFFER=8)');
    const buffer = await ctx.bufferDepth();
    if (buffer === undefined) throw new CheckSkip('skipped: no capabilities.replay.buffer advertised, so eviction cannot be provoked');
    if (buffer > ctx.opts.evictMax) {
      throw new CheckSkip(`skipped: the advertised buffer (${buffer}) exceeds --evict-max ${ctx.opts.evictMax}; run the target with a small buffer (e.g. AEP_BUFFER=8)`);
    }
    const session = freshSession();
    const count = buffer + Math.max(4, Math.ceil(buffer / 2));
    const events = Array.from({ length: count }, (_, seq) => statusEvent(session, seq));
    const posted = new Map<string, string>();
    const last = events[count - 1]!;
    // A live watch first: the resume below starts only once the relay fanned out the whole flood,
    // so a relay that answers 202 before its replay buffer holds the events is not misjudged.
    const watch = await ctx.sse({ filter: { session } });
    try {
      for (let i = 0; i < count; i += 200) {
        const lines = await ctx.postEvents(events.slice(i, i + 200));
        lines.forEach((line, j) => posted.set(events[i + j]!.id as string, line));
      }
      await watch.log.waitFor((i) => isMessage(i) && parseObject(i.data)?.id === last.id, 10_000, 'the last flooded event, live');
    } finally {
      watch.close();
    }
    const from = [{ session, epoch: 0, seq: 0 }];
    const bindings: BindingReplay[] = [];

    const sse = await ctx.sse({ filter: { session }, from });
    await sse.log.waitFor((i) => isMessage(i) && parseObject(i.data)?.id === last.id, 10_000, 'the last flooded event on the SSE replay');
    await sleep(200);
    sse.close();
    bindings.push(fromSse(sse.log.items, session));

    if ((await ctx.discovery()).socket) {
      const ws = await ctx.helloWs('consumer');
      const since = ws.log.mark();
      await wsSubscribe(ws, { id: 'evict', filter: { session }, from });
      await ws.log.waitFor((f) => f.json?.id === last.id, 10_000, 'the last flooded event on the WS replay', since);
      await sleep(200);
      bindings.push(fromWs(ws.log.items.slice(since), session, 'evict'));
      ws.close();
    }
    return { session, posted, lastSeq: last.seq as number, bindings };
  });
}

/** Fails with a clear message when the shared probe itself failed. */
export async function probeOrFail(ctx: CheckContext): Promise<EvictProbe> {
  try {
    return await evictProbe(ctx);
  } catch (err) {
    if (err instanceof CheckSkip || err instanceof CheckFailure) throw err;
    throw new CheckFailure(`the eviction flood failed: ${(err as Error).message}`);
  }
}
