import { describe, expect, it } from 'vitest';
import { useRelay } from './test-utils/use-relay.js';
import { helloWs, makeEvent, openSse, post, sleep, type WsClient } from './test-utils/testing.js';

const TOKEN = 'route-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const harness = useRelay();
const { start, clients } = harness;
async function hello(base: string, h: Record<string, unknown> = {}, headers: Record<string, string> = AUTH): Promise<WsClient> {
  const c = await helloWs(base, h, headers);
  clients.push(c);
  return c;
}
const ACCEPTS = ['control.cancel', 'control.attention.respond'];
/** A target that declares ACCEPTS and claims `session` by emitting a sequenced event in it. */
async function target(base: string, session: string, headers: Record<string, string> = AUTH): Promise<WsClient> {
  const t = await hello(base, { role: 'emitter', identity: { agent: 'tgt', instance: `i-${session}` }, capabilities: { control: { accepts: ACCEPTS, ack_window_ms: 5000 }, emits: ['session'] } }, headers);
  const claim = JSON.stringify(makeEvent({ type: 'session.started', session, seq: 0, data: {} }));
  t.send(claim);
  await sleep(30);
  return t;
}
function command(session: string, type = 'control.cancel', id = `cmd-${Math.random().toString(36).slice(2)}`): string {
  const data = type === 'control.cancel' ? { scope: 'session' } : type === 'control.attention.respond' ? { answer: { option: 'yes' } } : {};
  const e = makeEvent({ id, type, session, agent: 'sender', source: 'aep://t/sender', data });
  delete e.seq;
  delete e.epoch;
  return JSON.stringify(e);
}

describe('control routing', () => {
  it('is watch-only without AEP_TOKEN: every command is refused unauthorized and reaches no one', async () => {
    const base = await start();
    const t = await target(base, 'wo', {});
    const s = await hello(base, { role: 'both' }, {});
    const cmd = command('wo', 'control.cancel', 'cmd-wo');
    s.send(cmd);
    const err = JSON.parse(await s.waitFor((f) => f?.type === 'error'));
    expect(err).toMatchObject({ type: 'error', cause: 'cmd-wo', code: 'unauthorized' });
    await sleep(50);
    expect(t.frames.some((f) => f.includes('cmd-wo'))).toBe(false);
  });

  it('forwards a command byte-identically to the one owner, and persists and fans it out', async () => {
    const base = await start({ token: TOKEN });
    const t = await target(base, 'own');
    const watcher = await hello(base);
    watcher.send({ type: 'subscribe', id: 'w', filter: { session: 'own' } });
    await watcher.waitFor((f) => f?.type === 'subscribed');
    const s = await hello(base, { role: 'both' });
    const cmd = command('own', 'control.cancel', 'cmd-own');
    s.send(cmd);
    expect(await t.waitFor((_f, text) => text === cmd)).toBe(cmd);
    await watcher.waitFor((_f, text) => text === cmd);
    const replay = await openSse(`${base}/stream?from=all&live=0&access_token=${TOKEN}`);
    await replay.ended;
    expect(replay.text()).toContain(`event: control.cancel\ndata: ${cmd}\n\n`);
    expect(s.frames.some((f) => f.includes('"type":"error"'))).toBe(false);
  });

  it('fans acks out like any event, forwarding a byte-identical re-ack live', async () => {
    const base = await start({ token: TOKEN });
    const t = await target(base, 'ack');
    const s = await hello(base, { role: 'both' });
    s.send({ type: 'subscribe', id: 'acks', filter: { type: 'control.*' } });
    await s.waitFor((f) => f?.type === 'subscribed');
    const cmd = command('ack', 'control.cancel', 'cmd-ack');
    s.send(cmd);
    await t.waitFor((_f, text) => text === cmd);
    const ack = JSON.stringify(makeEvent({ type: 'control.accepted', session: 'ack', seq: 1, cause: 'cmd-ack', data: {} }));
    t.send(ack);
    s.send(cmd); // retry: routed again, the target re-sends its recorded ack
    await t.waitFor((_f, text) => text === cmd, 3000, t.frames.indexOf(cmd) + 1);
    t.send(ack);
    await sleep(50);
    expect(s.frames.filter((f) => f === ack)).toHaveLength(2);
  });

  it('refuses no-route for a session with history but no live owner, outside history', async () => {
    const base = await start({ token: TOKEN });
    await post(base, JSON.stringify(makeEvent({ session: 'orphan', seq: 0 })), { token: TOKEN });
    const s = await hello(base, { role: 'both' });
    s.send(command('orphan', 'control.pause', 'cmd-orphan'));
    expect(JSON.parse(await s.waitFor((f) => f?.type === 'error'))).toMatchObject({ type: 'error', cause: 'cmd-orphan', code: 'no-route' });
    const replay = await openSse(`${base}/stream?from=all&live=0&access_token=${TOKEN}`);
    await replay.ended;
    expect(replay.text()).not.toContain('cmd-orphan');
  });

  it('refuses ambiguous when two live connections claim the session, and delivers to neither', async () => {
    const base = await start({ token: TOKEN });
    const a = await target(base, 'twin');
    const b = await target(base, 'twin');
    const s = await hello(base, { role: 'both' });
    s.send(command('twin', 'control.cancel', 'cmd-twin'));
    expect(JSON.parse(await s.waitFor((f) => f?.type === 'error'))).toMatchObject({ cause: 'cmd-twin', code: 'ambiguous' });
    await sleep(30);
    expect([...a.frames, ...b.frames].some((f) => f.includes('cmd-twin'))).toBe(false);
    b.ws.close();
    await sleep(50);
    s.send(command('twin', 'control.cancel', 'cmd-twin'));
    await a.waitFor((f) => f?.id === 'cmd-twin');
  });

  it('refuses unsupported on the target\'s behalf for an undeclared type', async () => {
    const base = await start({ token: TOKEN });
    const t = await target(base, 'decl');
    const s = await hello(base, { role: 'both' });
    s.send(command('decl', 'control.pause', 'cmd-pause'));
    const err = JSON.parse(await s.waitFor((f) => f?.type === 'error'));
    expect(err).toMatchObject({ type: 'error', cause: 'cmd-pause', code: 'unsupported' });
    expect(Object.keys(err)).toEqual(['type', 'cause', 'code', 'detail']);
    expect(t.frames.some((f) => f.includes('cmd-pause'))).toBe(false);
  });

  it('does not let seq-less (foreign-emitter) events establish a claim', async () => {
    const base = await start({ token: TOKEN });
    const impostor = await hello(base, { role: 'both', capabilities: { control: { accepts: ACCEPTS } } });
    const routed = makeEvent({ type: 'attention.routed', session: 'fe', data: {} });
    delete routed.seq;
    impostor.send(routed);
    await sleep(30);
    const s = await hello(base, { role: 'both' });
    s.send(command('fe', 'control.cancel', 'cmd-fe'));
    expect(JSON.parse(await s.waitFor((f) => f?.type === 'error')).code).toBe('no-route');
  });
});

describe('roster', () => {
  it('lists one entry per live claim with declarations verbatim; absent once the claimant leaves', async () => {
    const base = await start({ token: TOKEN });
    const t = await target(base, 'ros-1');
    t.send(JSON.stringify(makeEvent({ session: 'ros-2', seq: 0 })));
    const bare = await hello(base, { role: 'emitter' });
    bare.send(JSON.stringify(makeEvent({ session: 'ros-3', seq: 0 })));
    await sleep(30);
    const c = await hello(base);
    c.send({ type: 'roster', id: 'r-1' });
    const reply = JSON.parse(await c.waitFor((f) => f?.type === 'roster'));
    const control = { accepts: ACCEPTS, ack_window_ms: 5000 };
    expect(reply).toEqual({
      type: 'roster',
      id: 'r-1',
      entries: [
        { session: 'ros-1', agent: 'tgt', instance: 'i-ros-1', control, emits: ['session'] },
        { session: 'ros-2', agent: 'tgt', instance: 'i-ros-1', control, emits: ['session'] },
        { session: 'ros-3' },
      ],
    });
    t.ws.close();
    await sleep(50);
    c.send({ type: 'roster', id: 'r-2' });
    const after = JSON.parse(await c.waitFor((f) => f?.id === 'r-2'));
    expect(after.entries).toEqual([{ session: 'ros-3' }]);
  });

  it('refuses an emitter-role roster request with unauthorized, and the connection survives', async () => {
    const base = await start();
    const e = await hello(base, { role: 'emitter' }, {});
    e.send({ type: 'roster', id: 'r-e' });
    expect(JSON.parse(await e.waitFor((f) => f?.type === 'error'))).toMatchObject({ id: 'r-e', code: 'unauthorized' });
    e.send({ type: 'ping', t: 1 });
    await e.waitFor((f) => f?.type === 'pong');
  });
});
