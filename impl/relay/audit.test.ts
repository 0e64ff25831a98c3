/**
 * Probes written from an independent reading of AEP-0003/AEP-0004 and the standard's live
 * checker wording: legal client behaviors our own checker does not use (header-less tokens,
 * `Last-Event-ID`, multi-session `from`, id-less subscribe, hello variants, charset
 * parameters, CRLF batches), and the control round trip through the real demo agent
 * observed the ways a black-box checker might observe it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runDemoAgent } from '../demo-agent/agent.js';
import { startRelay, type RelayOptions, type RunningRelay } from './server.js';
import { helloWs, makeEvent, makeSeries, openSse, openWs, post, sleep, type WsClient } from './test-utils/testing.js';

let relay: RunningRelay | undefined;
const clients: WsClient[] = [];
const stops: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const s of stops.splice(0)) await s();
  for (const c of clients.splice(0)) c.ws.terminate();
  await relay?.close();
  relay = undefined;
});
async function start(opts: RelayOptions = {}): Promise<string> {
  relay = await startRelay({ port: 0, instance: 'audit/1', ...opts });
  return relay.url;
}
async function hello(base: string, h: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<WsClient> {
  const c = await helloWs(base, h, headers);
  clients.push(c);
  return c;
}
const wsUrl = (base: string): string => `${base.replace(/^http/, 'ws')}/socket`;
const parse = (t: string): any => JSON.parse(t);

describe('HTTP surface as an independent checker drives it', () => {
  it('answers a foreign AEP-Version with 426 and exactly {"versions":["0.1"]}', async () => {
    const base = await start();
    for (const v of ['9.0', '1.0', '0.2']) {
      const res = await fetch(`${base}/events`, { method: 'POST', headers: { 'content-type': 'application/json', 'aep-version': v }, body: JSON.stringify(makeEvent()) });
      expect(res.status).toBe(426);
      expect(await res.text()).toBe('{"versions":["0.1"]}\n');
    }
  });

  it('serves the same discovery document at /events (any Accept) and /.well-known/aep', async () => {
    const base = await start({ buffer: 8 });
    const a = await fetch(`${base}/events`, { headers: { accept: 'application/json' } });
    const b = await fetch(`${base}/.well-known/aep`);
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = (await a.json()) as any;
    expect(doc).toEqual(await b.json());
    expect(doc.aep).toEqual(['0.1']);
    expect(doc.endpoints).toEqual({ events: '/events', stream: '/stream', socket: '/socket' });
    expect(doc.capabilities.replay.buffer).toBe(8);
  });

  it('accepts charset parameters, CRLF line ends, a trailing newline and an empty batch', async () => {
    const base = await start();
    const one = await post(base, JSON.stringify(makeEvent({ session: 'cs-1' })), { type: 'application/json; charset=utf-8' });
    expect(one.status).toBe(202);
    const two = await post(base, `${makeSeries('cs-2', 1, 2).join('\r\n')}\r\n`, { type: 'Application/X-NDJSON; charset=UTF-8' });
    expect(two.status).toBe(202);
    expect(two.body).toMatchObject({ accepted: 2 });
    const empty = await post(base, '', { type: 'application/x-ndjson' });
    expect(empty.status).toBe(202);
    expect(empty.body).toMatchObject({ accepted: 0 });
  });

  it('takes the AEP-Version header name in any case, and a list that names 0.1', async () => {
    const base = await start();
    const res = await fetch(`${base}/events`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'aep-VERSION': '0.1' }, body: JSON.stringify(makeEvent({ session: 'hv' })) });
    expect(res.status).toBe(202);
    expect((await post(base, JSON.stringify(makeEvent({ session: 'hv' })), { version: '0.2, 0.1' })).status).toBe(202);
    expect((await post(base, JSON.stringify(makeEvent({ session: 'hv' })), { version: '0.2, 1.0' })).status).toBe(426);
  });
});

describe('SSE as an independent checker drives it', () => {
  it('authenticates with ?access_token= and resumes from Last-Event-ID', async () => {
    const base = await start({ token: 'tok' });
    await post(base, makeSeries('le-1', 1, 4), { token: 'tok' });
    const s = await openSse(`${base}/stream?access_token=tok`, { 'last-event-id': 'le-1:0:2' });
    expect(s.status).toBe(200);
    const text = await s.waitFor((t) => t.includes('le-1:0:4'));
    s.close();
    expect(text.match(/^id: .*$/gm)).toEqual(['id: le-1:0:3', 'id: le-1:0:4']);
  });

  it('replays several sessions named in one from', async () => {
    const base = await start();
    await post(base, [...makeSeries('ms-a', 1, 3), ...makeSeries('ms-b', 1, 3)]);
    const from = encodeURIComponent(JSON.stringify([{ session: 'ms-a', epoch: 0, seq: 1 }, { session: 'ms-b', epoch: 0, seq: 2 }]));
    const s = await openSse(`${base}/stream?from=${from}&live=0`);
    await s.ended;
    expect(s.text().match(/^id: .*$/gm)).toEqual(['id: ms-a:0:2', 'id: ms-a:0:3', 'id: ms-b:0:3']);
  });

  it('down-levels a redacted-gated field under capture=metadata on SSE and WS alike', async () => {
    const base = await start();
    const secret = 'SECRET-LABEL-7f3a';
    const ev = makeEvent({ session: 'cd-1', seq: 1, type: 'session.started', capture: 'redacted', data: { label: secret } });
    const sse = await openSse(`${base}/stream?capture=metadata&filter=${encodeURIComponent('{"session":"cd-1"}')}`);
    const ws = await hello(base);
    ws.send({ type: 'subscribe', id: 'm', filter: { session: 'cd-1' }, capture: 'metadata' });
    await ws.waitFor((f) => f?.type === 'subscribed');
    expect((await post(base, JSON.stringify(ev))).status).toBe(202);
    const text = await sse.waitFor((t) => t.includes(String(ev.id)));
    const frame = await ws.waitFor((f) => f?.id === ev.id);
    sse.close();
    for (const got of [text, frame]) {
      expect(got).not.toContain(secret);
      expect(got).not.toContain('"capture":"redacted"');
    }
  });
});

describe('WebSocket as an independent checker drives it', () => {
  it('authenticates the upgrade with ?access_token= and routes that connection\'s commands', async () => {
    const base = await start({ token: 'q' });
    const c = await openWs(`${wsUrl(base)}?access_token=q`);
    clients.push(c);
    c.send({ type: 'hello', versions: ['0.1'] });
    await c.waitFor((f) => f?.type === 'hello');
    c.send(makeEvent({ id: 'cmd-q', type: 'control.pause', session: 'nobody', seq: undefined }));
    // Authenticated: refused for want of a route, not for want of a token.
    expect(parse(await c.waitFor((f) => f?.type === 'error'))).toMatchObject({ cause: 'cmd-q', code: 'no-route' });
  });

  it('never lets a command reach a target, directly or through its subscription, without a token', async () => {
    const base = await start();
    const target = await hello(base, { role: 'both', identity: { agent: 'fake-target' }, capabilities: { control: { accepts: ['control.pause'] } } });
    target.send({ type: 'subscribe', id: 'mine', filter: { session: 'gate' } });
    await target.waitFor((f) => f?.type === 'subscribed');
    target.send(makeEvent({ session: 'gate', seq: 1 }));
    await target.waitFor((f) => f?.session === 'gate');
    const sender = await hello(base);
    sender.send(makeEvent({ id: 'cmd-gate', type: 'control.pause', session: 'gate', seq: undefined, data: {} }));
    expect(parse(await sender.waitFor((f) => f?.type === 'error'))).toMatchObject({ cause: 'cmd-gate', code: 'unauthorized' });
    await sleep(100);
    expect(target.frames.some((t) => t.includes('cmd-gate'))).toBe(false);
  });

  it('takes a hello without identity, role both, and a preference list', async () => {
    const base = await start();
    const c = await openWs(wsUrl(base));
    clients.push(c);
    c.send({ type: 'hello', versions: ['0.2', '0.1'], role: 'both' });
    const h = parse(await c.waitFor((f) => f?.type === 'hello'));
    expect(h.versions).toEqual(['0.1']);
  });

  it('accepts a subscribe without an id and delivers to it', async () => {
    const base = await start();
    const c = await hello(base);
    c.send({ type: 'subscribe', filter: { session: 'noid' } });
    const ack = parse(await c.waitFor((f) => f?.type === 'subscribed' || f?.type === 'error'));
    expect(ack).toEqual({ type: 'subscribed' });
    const ev = makeEvent({ session: 'noid', seq: 1 });
    await post(base, JSON.stringify(ev));
    expect(await c.waitFor((f) => f?.id === ev.id)).toBe(JSON.stringify(ev));
  });

  it('lets a subscribe reuse an active id, replacing that subscription', async () => {
    const base = await start();
    const c = await hello(base);
    c.send({ type: 'subscribe', id: 'r', filter: { session: 'reuse-a' } });
    c.send({ type: 'subscribe', id: 'r', filter: { session: 'reuse-b' } });
    await c.waitFor((f, t) => t === '{"type":"subscribed","id":"r"}', 3000, 2);
    const [a] = makeSeries('reuse-a', 1, 1);
    const [b] = makeSeries('reuse-b', 1, 1);
    await post(base, [a!, b!]);
    await c.waitFor((_f, t) => t === b);
    expect(c.frames.slice(1)).toEqual(['{"type":"subscribed","id":"r"}', '{"type":"subscribed","id":"r"}', b]);
  });

  it('marks eviction with {type, sub, session, earliest:{epoch, seq}} before the replay', async () => {
    const base = await start({ buffer: 8 });
    await post(base, makeSeries('ev-1', 1, 20));
    const c = await hello(base);
    c.send({ type: 'subscribe', id: 'x', from: [{ session: 'ev-1', epoch: 0, seq: 0 }] });
    await c.waitFor((f) => f?.seq === 20);
    expect(c.frames[1]).toBe('{"type":"subscribed","id":"x"}');
    expect(c.frames[2]).toBe('{"type":"replay-exhausted","sub":"x","session":"ev-1","earliest":{"epoch":0,"seq":13}}');
    expect(c.frames.slice(3).map((t) => parse(t).seq)).toEqual([13, 14, 15, 16, 17, 18, 19, 20]);
  });
});

describe('control through the demo agent, observed the ways a black-box checker might', () => {
  async function withDemo(): Promise<string> {
    const base = await start({ token: 't' });
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const ready = new Promise<void>((r) => {
      const exit = runDemoAgent({ relay: base, token: 't', session: 'cs', run: 'cr', backoffMs: { min: 20, max: 80 } }, stopped, { stdout: () => r(), stderr: () => {} });
      stops.push(async () => {
        stop();
        await exit;
      });
    });
    await ready;
    return base;
  }
  const command = (type: string, id: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    aep: '0.1',
    id,
    type,
    time: '2026-11-30T05:30:00.000Z',
    source: 'aep://audit/checker',
    agent: 'aep-live-check',
    session: 'cs',
    ...extra,
  });

  it('acks a command sent before any subscription, visible through a session-filtered replay', async () => {
    const base = await withDemo();
    const sender = await hello(base, { role: 'consumer' }, { authorization: 'Bearer t' });
    sender.send(command('control.attention.respond', 'cmd-early', { subject: 'no-such-request', data: { answer: { option: 'allow' } } }));
    await sleep(100);
    sender.send({ type: 'subscribe', id: 'late', filter: { session: 'cs' }, from: [{ session: 'cs', epoch: 0, seq: 0 }] });
    const ack = parse(await sender.waitFor((f) => f?.cause === 'cmd-early' && String(f?.type).startsWith('control.')));
    expect(ack).toMatchObject({ type: 'control.rejected', session: 'cs', data: { reason: 'invalid' } });
  });

  it('forwards the re-ack of a retransmit live on a cause-filtered subscription, byte-identical', async () => {
    const base = await withDemo();
    const sender = await hello(base, { role: 'both', identity: { agent: 'aep-live-check' } }, { authorization: 'Bearer t' });
    sender.send({ type: 'subscribe', id: 'acks', filter: { cause: 'cmd-dup' } });
    await sender.waitFor((f) => f?.type === 'subscribed');
    const cmd = JSON.stringify(command('control.attention.respond', 'cmd-dup', { subject: 'nope', data: { answer: { option: 'allow' } } }));
    sender.send(cmd);
    const first = await sender.waitFor((f) => f?.type === 'control.rejected');
    const at = sender.frames.length;
    sender.send(cmd);
    const again = await sender.waitFor((f) => f?.type === 'control.rejected', 3000, at);
    expect(again).toBe(first);
  });

  it('delivers acks and the re-ack to an SSE subscriber filtered by type, with the token in the query', async () => {
    const base = await withDemo();
    const filter = encodeURIComponent(JSON.stringify({ type: ['control.accepted', 'control.rejected'], session: 'cs' }));
    const sse = await openSse(`${base}/stream?access_token=t&filter=${filter}`);
    const sender = await hello(base, { role: 'emitter', identity: { agent: 'aep-live-check' } }, { authorization: 'Bearer t' });
    const cmd = JSON.stringify(command('control.attention.respond', 'cmd-sse', { subject: 'nope', data: { answer: { text: 'allow' } } }));
    sender.send(cmd);
    await sse.waitFor((t) => t.includes('"cause":"cmd-sse"'));
    sender.send(cmd);
    const text = await sse.waitFor((t) => (t.match(/"cause":"cmd-sse"/g) ?? []).length === 2);
    sse.close();
    const messages = text.split('\n\n').filter((m) => m.includes('cmd-sse'));
    expect(messages).toHaveLength(2);
    expect(messages[1]).toBe(messages[0]); // same id: line, same event:, same data: bytes
  });

  it('relays the unsupported nack on the target\'s behalf with cause = command id', async () => {
    const base = await withDemo();
    const sender = await hello(base, {}, { authorization: 'Bearer t' });
    sender.send(command('control.pause', 'cmd-pause'));
    const refusal = parse(await sender.waitFor((f) => f?.type === 'error'));
    expect(refusal).toMatchObject({ type: 'error', cause: 'cmd-pause', code: 'unsupported' });
  });

  it('nacks a control verb the registry does not list as unsupported, not as a seq-less event', async () => {
    const base = await withDemo();
    const sender = await hello(base, {}, { authorization: 'Bearer t' });
    sender.send(command('control.snooze', 'cmd-snooze', { data: {} }));
    expect(parse(await sender.waitFor((f) => f?.type === 'error'))).toMatchObject({ type: 'error', cause: 'cmd-snooze', code: 'unsupported' });
  });

  it('cancels the run: accepted, then one run.cancelled carrying session, run and cause', async () => {
    const base = await withDemo();
    const sender = await hello(base, {}, { authorization: 'Bearer t' });
    sender.send({ type: 'subscribe', id: 'c', filter: { type: ['control.*', 'run.*'] } });
    await sender.waitFor((f) => f?.type === 'subscribed');
    sender.send(command('control.cancel', 'cmd-cancel', { run: 'cr', data: { scope: 'run' } }));
    const done = parse(await sender.waitFor((f) => f?.type === 'run.cancelled'));
    expect(done).toMatchObject({ session: 'cs', run: 'cr', cause: 'cmd-cancel' });
    const acks = sender.frames.map(parse).filter((f) => f.cause === 'cmd-cancel' && (f.type === 'control.accepted' || f.type === 'control.rejected'));
    expect(acks.map((a) => a.type)).toEqual(['control.accepted']);
  });

  it('treats a cancel without a scope as the named run', async () => {
    const base = await withDemo();
    const sender = await hello(base, {}, { authorization: 'Bearer t' });
    sender.send({ type: 'subscribe', id: 'c', filter: { session: 'cs' } });
    await sender.waitFor((f) => f?.type === 'subscribed');
    sender.send(command('control.cancel', 'cmd-bare', { run: 'cr' }));
    expect(parse(await sender.waitFor((f) => f?.cause === 'cmd-bare' && f?.type === 'run.cancelled'))).toMatchObject({ run: 'cr' });
  });
});

describe('request targets a client may build by joining a base URL that ends in a slash', () => {
  it('serves //events, /events/, //stream and //socket as their endpoints', async () => {
    const base = await start();
    expect((await fetch(`${base}//events`)).status).toBe(200);
    expect((await fetch(`${base}/.well-known/aep/`)).status).toBe(200);
    const posted = await fetch(`${base}//events/`, { method: 'POST', headers: { 'content-type': 'application/json', 'aep-version': '0.1' }, body: JSON.stringify(makeEvent({ session: 'slash' })) });
    expect(posted.status).toBe(202);
    const s = await openSse(`${base}//stream?live=0&from=all`);
    await s.ended;
    expect(s.status).toBe(200);
    const c = await openWs(`${wsUrl(base).replace('/socket', '//socket')}`);
    clients.push(c);
    c.send({ type: 'hello', versions: '0.1' });
    expect(parse(await c.waitFor((f) => f?.type === 'hello')).versions).toEqual(['0.1']);
  });
});
