/**
 * The fleet hub's calling shape (hub.ts `HubLike`): while NATS is unreachable every method that
 * needs it answers `{ok: false, code: 'unavailable'}` as data: none throws, none rejects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AepEvent } from '../../core/event.js';
import type { Received } from '../buffer.js';
import type { Peer } from '../hub.js';
import { fleetStream } from '../test-utils/fleet-nodes.js';
import { NATS_MISSING, natsServerBinary, startNats, type NatsServer } from '../test-utils/nats-server.js';
import { skipped } from '../../test-utils/skip.js';
import { makeEvent, sleep } from '../test-utils/testing.js';
import { FLEET_DEFAULTS } from './config.js';
import { startFleetHub, type FleetHub } from './fleet-hub.js';

const present = natsServerBinary() !== undefined;
if (!present) console.warn(NATS_MISSING);
const suite = present ? describe : describe.skip;

const received = (over: Record<string, unknown>): Received => {
  const event = makeEvent(over) as unknown as AepEvent;
  return { event, raw: JSON.stringify(event) };
};

let nats: NatsServer;
beforeAll(async () => {
  if (present) nats = await startNats();
});
afterAll(async () => {
  await nats?.dispose();
});

suite(`FleetHub while NATS is unreachable${skipped(!present, NATS_MISSING)}`, () => {
  it('answers unavailable as data from ingest, claim, ownedElsewhere, dispatch and roster, and serves again after', async () => {
    const hub: FleetHub = await startFleetHub({ fleet: { ...FLEET_DEFAULTS, url: nats.url, stream: fleetStream(), node: 'solo' }, buffer: 16, maxSessions: 16, log: () => {} });
    const peer: Peer = { claims: new Set(), accepts: undefined, send: () => {} };
    try {
      hub.attach(peer);
      expect(await hub.ingest([received({ session: 'up', seq: 0 })])).toEqual({ ok: true, fresh: 1 });
      expect(await hub.claim(peer, 'up')).toEqual({ ok: true });
      expect(await hub.roster()).toMatchObject({ ok: true });
      await nats.stop();
      for (let i = 0; i < 100 && hub.fleet().nats !== 'unreachable'; i++) await sleep(50);
      expect(hub.fleet().nats).toBe('unreachable');
      const command = received({ type: 'control.cancel', session: 'elsewhere', seq: undefined, data: { scope: 'session' } });
      // Each call's promise must resolve (never reject) to the same outcome shape.
      const outcomes = await Promise.allSettled([
        Promise.resolve().then(() => hub.ingest([received({ session: 'down', seq: 0 })])),
        Promise.resolve().then(() => hub.claim(peer, 'down')),
        Promise.resolve().then(() => hub.ownedElsewhere(peer, 'down')),
        Promise.resolve().then(() => hub.dispatch(command, true)),
        Promise.resolve().then(() => hub.roster()),
      ]);
      for (const o of outcomes) {
        expect(o.status).toBe('fulfilled');
        expect((o as PromiseFulfilledResult<unknown>).value).toMatchObject({ ok: false, code: 'unavailable', detail: expect.stringContaining(nats.url) });
      }
      // What needs no NATS still answers: a command that names no session is refused locally.
      expect(await hub.dispatch(received({ type: 'control.cancel', session: undefined, seq: undefined, data: { scope: 'session' } }), true)).toMatchObject({ ok: false, code: 'no-route' });
      await nats.restart();
      for (let i = 0; i < 200 && hub.fleet().nats !== 'reachable'; i++) await sleep(50);
      expect(await hub.ingest([received({ session: 'down', seq: 0 })])).toEqual({ ok: true, fresh: 1 });
    } finally {
      hub.leave(peer);
      await hub.close();
    }
  }, 60_000);
});
