/**
 * Issue 14, relay side: hostile events are refused at ingest with a rule id, and nothing above a
 * capture ceiling reaches a subscriber, over SSE and WebSocket alike.
 */
import { describe, expect, it } from 'vitest';
import { MAX_DEPTH } from '../core/json-shape.js';
import { useRelay } from './test-utils/use-relay.js';
import { helloWs, makeEvent, openSse, post, type WsClient } from './test-utils/testing.js';

const h = useRelay();

const SECRET = 'S3CR3T';

/** One event's JSON text with `data` replaced by raw JSON text (so duplicates and deep nesting survive). */
function withRawData(over: Record<string, unknown>, rawData: string): string {
  const { data: _d, ...rest } = makeEvent(over);
  return JSON.stringify(rest).replace(/}$/, `,"data":${rawData}}`);
}

async function wsSubscriber(base: string, sub: Record<string, unknown>): Promise<WsClient> {
  const c = await helloWs(base);
  h.clients.push(c);
  c.send({ type: 'subscribe', id: 's', ...sub });
  await c.waitFor((f) => f?.type === 'subscribed');
  return c;
}

describe('defect 1: nesting', () => {
  it('refuses an event nested 3,000 deep at ingest (POST and WS) and keeps delivering to a metadata ceiling', async () => {
    const base = await h.start();
    const sse = await openSse(`${base}/stream?capture=metadata&filter=${encodeURIComponent('{"session":"deep"}')}`);
    const ws = await wsSubscriber(base, { capture: 'metadata', filter: { session: 'deep' } });
    const deep = withRawData({ session: 'deep', seq: 1 }, `{"phase":${'['.repeat(3000)}${']'.repeat(3000)}}`);
    const r = await post(base, [JSON.stringify(makeEvent({ session: 'deep', seq: 0 })), deep]);
    expect([r.status, r.body.error, r.body.line, r.body.issues[0].rule]).toEqual([400, 'invalid-event', 2, 'envelope.depth']);
    const emitter = await helloWs(base, { role: 'emitter' });
    h.clients.push(emitter);
    emitter.sendRaw(deep);
    const refused = JSON.parse(await emitter.waitFor((f) => f?.type === 'error'));
    expect([refused.code, refused.issues[0].rule]).toEqual(['invalid-event', 'envelope.depth']);
    // The batch was refused whole; the good events after it flow to both ceilings.
    expect((await post(base, [JSON.stringify(makeEvent({ session: 'deep', seq: 2 })), JSON.stringify(makeEvent({ session: 'deep', seq: 3 }))])).status).toBe(202);
    await sse.waitFor((t) => t.includes('id: deep:0:3'));
    await ws.waitFor((f) => f?.seq === 3);
    expect(sse.text().match(/^id: .*$/gm)).toEqual(['id: deep:0:2', 'id: deep:0:3']);
    sse.close();
  });

  it('accepts an event at exactly MAX_DEPTH and replays it at a metadata ceiling with capture and from', async () => {
    const base = await h.start();
    // The event is level 1, data level 2, phase's arrays the rest.
    const edge = withRawData({ session: 'edge', seq: 0 }, `{"n":1,"blob":${'['.repeat(MAX_DEPTH - 2)}${']'.repeat(MAX_DEPTH - 2)}}`);
    expect((await post(base, edge)).status).toBe(202);
    expect((await post(base, JSON.stringify(makeEvent({ session: 'edge', seq: 1 })))).status).toBe(202);
    const ws = await wsSubscriber(base, { capture: 'metadata', from: 'all' });
    await ws.waitFor((f) => f?.seq === 1);
    expect(ws.frames.filter((f) => f.includes('"session":"edge"')).map((f) => JSON.parse(f).seq)).toEqual([0, 1]);
    expect(ws.frames.some((f) => f.includes('"type":"error"'))).toBe(false);
  });
});

/** The four leaks of the issue, plus the vendor type declared metadata. */
const LEAKS: Array<[string, () => string, 'refused' | 'pruned']> = [
  ['error.raised with an array where the schema has an object', () => JSON.stringify(makeEvent({ type: 'error.raised', data: { error: [{ message: SECRET }], code: 'E' } })), 'pruned'],
  ['resource.retrieval.returned declared full with documents as an object', () => JSON.stringify(makeEvent({ type: 'resource.retrieval.returned', capture: 'full', data: { documents: { content: SECRET }, count: 1 } })), 'pruned'],
  ['two data members', () => JSON.stringify(makeEvent({ type: 'tool.completed' })).replace(/"data":\{[^}]*\}/, `"data":{"tool":{"name":"x"},"result":"${SECRET}"},"data":{"tool":{"name":"x"}}`), 'refused'],
  ['a __proto__ member', () => withRawData({ type: 'tool.completed' }, `{"tool":{"name":"x"},"__proto__":{"result":"${SECRET}"}}`), 'pruned'],
  ['a vendor type declared metadata carrying free text', () => JSON.stringify(makeEvent({ type: 'x.acme.session.note', capture: 'metadata', data: { note: SECRET } })), 'pruned'],
  ['an unregistered type declared metadata carrying free text', () => JSON.stringify(makeEvent({ type: 'tool.zapped', data: { note: SECRET } })), 'pruned'],
];

describe('defect 2: nothing above a metadata ceiling reaches a subscriber (SSE and WS, live and replay)', () => {
  it.each(LEAKS)('%s', async (_name, build, outcome) => {
    const base = await h.start();
    const sse = await openSse(`${base}/stream?capture=metadata`);
    const ws = await wsSubscriber(base, { capture: 'metadata' });
    const text = build();
    expect(text).toContain(SECRET);
    const r = await post(base, [text, JSON.stringify(makeEvent({ session: 'marker', seq: 0 }))]);
    if (outcome === 'refused') {
      expect([r.status, r.body.issues[0].rule]).toEqual([400, 'json.member.duplicate']);
      expect((await post(base, JSON.stringify(makeEvent({ session: 'marker', seq: 0 })))).status).toBe(202);
    } else {
      expect(r.status).toBe(202);
    }
    await sse.waitFor((t) => t.includes('id: marker:0:0'));
    await ws.waitFor((f) => f?.session === 'marker');
    const replaySse = await openSse(`${base}/stream?capture=metadata&from=all&live=0`);
    await replaySse.ended;
    const replayWs = await wsSubscriber(base, { capture: 'metadata', from: 'all' });
    await replayWs.waitFor((f) => f?.session === 'marker');
    for (const seen of [sse.text(), ws.frames.join('\n'), replaySse.text(), replayWs.frames.join('\n')]) expect(seen).not.toContain(SECRET);
    if (outcome === 'pruned') {
      // The event itself still arrives, down-levelled (never dropped silently).
      expect(ws.frames.filter((f) => f.includes('"session":"rt-1"'))).toHaveLength(1);
      expect(sse.text().match(/^id: rt-1:0:0$/gm)).toHaveLength(1);
    }
    sse.close();
  });
});

describe('defect 3: duplicate members are refused at ingest', () => {
  it('POST and WS answer invalid-event json.member.duplicate, naming the member', async () => {
    const base = await h.start();
    const text = JSON.stringify(makeEvent({ type: 'tool.completed', data: { tool: { name: 'x' } } })).replace('"type":"tool.completed"', '"type":"control.cancel","type":"tool.completed"');
    const r = await post(base, text);
    expect([r.status, r.body.error, r.body.issues[0].rule, r.body.issues[0].path]).toEqual([400, 'invalid-event', 'json.member.duplicate', '$.type']);
    const ws = await helloWs(base, { role: 'emitter' });
    h.clients.push(ws);
    ws.sendRaw(text);
    const err = JSON.parse(await ws.waitFor((f) => f?.type === 'error'));
    expect([err.code, err.issues[0].rule]).toEqual(['invalid-event', 'json.member.duplicate']);
    ws.sendRaw('{"type":"subscribe","id":"a","id":"b"}');
    const frameErr = JSON.parse(await ws.waitFor((f) => f?.code === 'invalid-frame'));
    expect(frameErr.detail).toMatch(/appears twice at \$\.id/);
  });
});

describe('defect 4: invalid UTF-8 is refused, never replaced', () => {
  it('answers 400 and delivers nothing', async () => {
    const base = await h.start();
    const sse = await openSse(`${base}/stream`);
    const good = Buffer.from(JSON.stringify(makeEvent({ data: { phase: 'AB' } })), 'utf8');
    const at = good.indexOf('AB');
    good[at] = 0xff;
    good[at + 1] = 0xfe;
    const res = await fetch(`${base}/events`, { method: 'POST', headers: { 'content-type': 'application/json', 'aep-version': '0.1' }, body: good });
    const body = (await res.json()) as { error: string; detail: string; issues: Array<{ rule: string }> };
    expect([res.status, body.error, body.issues[0]!.rule]).toEqual([400, 'invalid-event', 'stream.line.encoding']);
    expect(body.detail).toContain(`offset ${at}`);
    expect((await post(base, JSON.stringify(makeEvent({ session: 'after', seq: 0 })))).status).toBe(202);
    await sse.waitFor((t) => t.includes('id: after:0:0'));
    expect(sse.text()).not.toContain('\uFFFD');
    expect(sse.text()).not.toContain('id: rt-1');
    sse.close();
  });
});

describe('defect 5: positions beyond 2^53 - 1', () => {
  it.each([
    ['seq', '"seq":9007199254740993', 'envelope.seq.range'],
    ['epoch', '"epoch":18014398509481984', 'envelope.epoch.range'],
  ])('%s is refused with its rule', async (_name, member, rule) => {
    const base = await h.start();
    const text = JSON.stringify(makeEvent()).replace(/"seq":0,"epoch":0/, member === '"seq":9007199254740993' ? `${member},"epoch":0` : `"seq":0,${member}`);
    const r = await post(base, text);
    expect([r.status, r.body.issues[0].rule]).toEqual([400, rule]);
  });
});
