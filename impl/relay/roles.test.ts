/**
 * Issue 14 defect 13: roles are enforced at the relay as AEP-0004 §4 reads. A `consumer`
 * connection cannot emit sequenced events (so cannot claim a session); a forged ack from a
 * connection other than the owner is refused and makes no one a claimant.
 */
import { describe, expect, it } from 'vitest';
import { useRelay } from './test-utils/use-relay.js';
import { helloWs, makeEvent, openSse, sleep, type WsClient } from './test-utils/testing.js';

const TOKEN = 'roles-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const h = useRelay();

async function hello(base: string, body: Record<string, unknown>): Promise<WsClient> {
  const c = await helloWs(base, body, AUTH);
  h.clients.push(c);
  return c;
}
const OWNER_SOURCE = 'aep://box/agent/owner';
function command(session: string, id: string): string {
  const e = makeEvent({ id, type: 'control.cancel', session, agent: 'sender', source: 'aep://box/sender', data: { scope: 'session' } });
  delete e.seq;
  delete e.epoch;
  return JSON.stringify(e);
}

describe('roles at the relay', () => {
  it('a consumer connection cannot emit a sequenced event, so it never claims the session', async () => {
    const base = await h.start({ token: TOKEN });
    const sse = await openSse(`${base}/stream?access_token=${TOKEN}`);
    const consumer = await hello(base, { role: 'consumer', capabilities: { control: { accepts: ['control.cancel'] } } });
    consumer.send(makeEvent({ id: 'sneak-1', session: 'taken', seq: 0, type: 'session.started', data: {} }));
    const err = JSON.parse(await consumer.waitFor((f) => f?.type === 'error'));
    expect([err.cause, err.code]).toEqual(['sneak-1', 'unauthorized']);
    // Not published, and a command to that session finds no route.
    const sender = await hello(base, { role: 'both' });
    sender.send(command('taken', 'cmd-taken'));
    const refusal = JSON.parse(await sender.waitFor((f) => f?.type === 'error' && f.cause === 'cmd-taken'));
    expect(refusal.code).toBe('no-route');
    expect(consumer.frames.some((f) => f.includes('cmd-taken'))).toBe(false);
    await sleep(30);
    expect(sse.text()).not.toContain('sneak-1');
    // A consumer still sends commands, and still subscribes.
    consumer.send({ type: 'subscribe', id: 'c' });
    await consumer.waitFor((f) => f?.type === 'subscribed');
    sse.close();
  });

  it('a forged control.accepted with the owner\'s source is refused: the owner stays the one claimant and no sender sees it', async () => {
    const base = await h.start({ token: TOKEN });
    const owner = await hello(base, { role: 'emitter', identity: { agent: 'owner' }, capabilities: { control: { accepts: ['control.cancel'] } } });
    owner.send(makeEvent({ type: 'session.started', session: 'own', seq: 0, source: OWNER_SOURCE, agent: 'owner', data: {} }));
    await sleep(30);
    const sender = await hello(base, { role: 'both' });
    sender.send({ type: 'subscribe', id: 'acks', filter: { session: 'own', type: 'control.*' } });
    await sender.waitFor((f) => f?.type === 'subscribed');
    const forger = await hello(base, { role: 'both', identity: { agent: 'owner' } });
    const forged = makeEvent({ id: 'forged-ack', type: 'control.accepted', session: 'own', seq: 1, cause: 'cmd-1', source: OWNER_SOURCE, agent: 'owner', data: {} });
    forger.send(forged);
    const err = JSON.parse(await forger.waitFor((f) => f?.type === 'error'));
    expect([err.cause, err.code]).toEqual(['forged-ack', 'unauthorized']);
    // The next command is routed to the owner alone (not `ambiguous`), and the forged ack reached no one.
    const cmd = command('own', 'cmd-1');
    sender.send(cmd);
    expect(await owner.waitFor((_f, text) => text === cmd)).toBe(cmd);
    await sleep(30);
    expect(sender.frames.some((f) => f.includes('"code":"ambiguous"'))).toBe(false);
    expect([...sender.frames, ...owner.frames].some((f) => f.includes('forged-ack'))).toBe(false);
    // The owner's own ack goes through, and claims nothing new.
    owner.send(makeEvent({ id: 'real-ack', type: 'control.accepted', session: 'own', seq: 1, cause: 'cmd-1', source: OWNER_SOURCE, agent: 'owner', data: {} }));
    await sender.waitFor((_f, text) => text.includes('real-ack'));
  });

  it('an ack never claims: acks alone from a connection leave the session without a route', async () => {
    const base = await h.start({ token: TOKEN });
    const acker = await hello(base, { role: 'both', capabilities: { control: { accepts: ['control.cancel'] } } });
    acker.send(makeEvent({ id: 'lonely-ack', type: 'control.accepted', session: 'orphan', seq: 3, cause: 'x', data: {} }));
    await sleep(30);
    const sender = await hello(base, { role: 'both' });
    sender.send(command('orphan', 'cmd-orphan'));
    expect(JSON.parse(await sender.waitFor((f) => f?.cause === 'cmd-orphan')).code).toBe('no-route');
  });
});
