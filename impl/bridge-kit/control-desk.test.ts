import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { command } from '../adapter-kit/test-utils/daemon-harness.js';
import { asCommand, ControlDesk } from './control-desk.js';
import type { Emitter } from './emitter.js';

/** An emitter that records what it would send: emitted events and raw re-sends. */
function fakeEmitter() {
  const emitted: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const emitter = {
    epoch: 0, agent: 'desk-test', relayReady: () => true, close: async () => undefined,
    sendRaw: (l: string) => raw.push(l),
    emit: (session: string, m: { type: string; data: Record<string, unknown> }, extra?: Record<string, unknown>) => {
      const e = { id: `ev-${emitted.length}`, type: m.type, session, data: m.data, ...extra };
      emitted.push(e);
      return e;
    },
  } as unknown as Emitter;
  return { emitter, emitted, raw };
}

/** A server answering each request with the next status (or never, for 0). */
let server: Server | undefined;
async function answering(statuses: number[]): Promise<string> {
  server = createServer((_req, res) => {
    const status = statuses.shift() ?? 200;
    if (status === 0) return; // hang: the guard decides
    res.writeHead(status, { 'content-type': 'application/json' }).end(status === 200 ? '{"ok":true}' : '{"error":"no"}');
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 300 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(cond()).toBe(true);
};

describe('asCommand', () => {
  it('needs id, source, type and session; keeps subject, run and object data', () => {
    expect(asCommand({ id: 'c', source: 's', type: 't' })).toBeUndefined();
    expect(asCommand({ id: 'c', source: 's', type: 't', session: 'x', subject: 'q', run: 'r', data: [1] })).toMatchObject({ id: 'c', subject: 'q', run: 'r', data: {} });
  });
});

describe('ControlDesk', () => {
  it('converts 2xx / 4xx / 5xx / unreachable / guard expiry, and runs the hooks in order', async () => {
    const base = await answering([200, 404, 503, 0]);
    const { emitter, emitted } = fakeEmitter();
    const desk = new ControlDesk({ emitter, guardMs: 150, log: () => undefined });
    const calls: string[] = [];
    const hooks = (n: string) => ({ before: () => calls.push(`${n}:before`), onAccepted: () => calls.push(`${n}:accepted`), onRefused: () => calls.push(`${n}:refused`), afterSettled: () => calls.push(`${n}:settled`) });
    for (const n of ['ok', 'gone', 'down', 'hang']) {
      desk.receive(command('control.cancel', 's1', {}, { id: n }), (cmd) => desk.write(cmd, { url: new URL('/x', base) }, hooks(n)));
      await until(() => emitted.length === ['ok', 'gone', 'down', 'hang'].indexOf(n) + 1);
    }
    desk.receive(command('control.cancel', 's1', {}, { id: 'dead' }), (cmd) => desk.write(cmd, { url: new URL('http://127.0.0.1:9/x') }, hooks('dead')));
    await until(() => emitted.length === 5);
    expect(emitted.map((e) => [e.cause, e.type, (e.data as { reason?: string }).reason ?? null])).toEqual([
      ['ok', 'control.accepted', null], ['gone', 'control.rejected', 'refused'], ['down', 'control.rejected', 'busy'], ['hang', 'control.accepted', null], ['dead', 'control.rejected', 'busy'],
    ]);
    // afterSettled only on a real 2xx, never on the guard's will-try accept.
    expect(calls).toEqual(['ok:before', 'ok:accepted', 'ok:settled', 'gone:before', 'gone:refused', 'down:before', 'down:refused', 'hang:before', 'hang:accepted', 'dead:before', 'dead:refused']);
  });

  it('a judge refuses a 2xx body; a redelivery is answered with the recorded bytes; an in-flight duplicate is dropped', async () => {
    const base = await answering([200, 200]);
    const { emitter, emitted, raw } = fakeEmitter();
    const desk = new ControlDesk({ emitter, log: () => undefined });
    const cmd = command('control.attention.respond', 's1', {}, { id: 'j1' });
    let decided = 0;
    const decide = (c: NonNullable<ReturnType<typeof asCommand>>) => {
      decided++;
      desk.write(c, { url: new URL('/y', base), body: { a: 1 }, judge: (t) => (t.includes('ok') ? { reason: 'refused', detail: 'envelope error' } : undefined) });
    };
    expect(desk.receive(cmd, decide)).toBe(true);
    expect(desk.receive(cmd, decide)).toBe(false); // in flight: the one forthcoming ack answers it
    await until(() => emitted.length === 1);
    expect([emitted[0]!.type, emitted[0]!.data]).toEqual(['control.rejected', { reason: 'refused' }]); // detail gated at metadata
    expect(desk.receive(cmd, decide)).toBe(false);
    expect(raw).toEqual([JSON.stringify(emitted[0])]);
    expect(decided).toBe(1);
  });
});
