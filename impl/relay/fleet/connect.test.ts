/**
 * A fleet node's NATS connection (connect.ts) against real `nats-server`s: a server that refused
 * the first connection stays one the node reconnects to, the first connection waits for a server
 * that starts late, and gives up at its deadline with a message that names the servers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { NatsConnection } from '@nats-io/transport-node';
import { sleep } from '../test-utils/testing.js';
import { NATS_MISSING, natsServerBinary, startNats, type NatsServer } from '../test-utils/nats-server.js';
import { skipped } from '../../test-utils/skip.js';
import { clientOptions, connectFleet, serverList } from './connect.js';

const present = natsServerBinary() !== undefined;
if (!present) console.warn(NATS_MISSING);
const suite = present ? describe : describe.skip;

describe('serverList', () => {
  it('splits a comma-separated list, trims each server and drops empty entries', () => {
    expect(serverList(' nats://a:4222, nats://b:4222 ,,nats://c:4222,')).toEqual(['nats://a:4222', 'nats://b:4222', 'nats://c:4222']);
    expect(serverList('127.0.0.1:4222')).toEqual(['127.0.0.1:4222']);
  });
});

describe('clientOptions', () => {
  it('turns off the stack capture the client would make for every request and publish', () => {
    expect(clientOptions('nats://a:4222', 'node-a', () => false).noAsyncTraces).toBe(true);
  });
});

const servers: NatsServer[] = [];
const clients: NatsConnection[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((nc) => nc.close().catch(() => {})));
  await Promise.all(servers.splice(0).map((s) => s.dispose()));
});

/** A server that is started once (so its port is known) and stopped: the port refuses connections. */
async function downServer(): Promise<NatsServer> {
  const s = await startNats();
  servers.push(s);
  await s.stop();
  return s;
}

async function upServer(): Promise<NatsServer> {
  const s = await startNats();
  servers.push(s);
  return s;
}

/** Resolves with the server of the next `reconnect` status, or undefined after `ms`. */
function nextReconnect(nc: NatsConnection, ms: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    void (async () => {
      for await (const s of nc.status()) {
        if (s.type !== 'reconnect') continue;
        clearTimeout(timer);
        resolve(s.server);
        return;
      }
    })();
  });
}

suite(`connectFleet against real nats-servers${skipped(!present, NATS_MISSING)}`, () => {
  it('keeps a server that refused the first connection: when the one it reached dies, it reconnects to that server', async () => {
    const late = await downServer();
    const early = await upServer();
    const lines: string[] = [];
    // In order: `late` is dialled first and refuses; `early` answers.
    const nc = await connectFleet({ url: `${late.url},${early.url}`, name: 'test', deadline: Date.now() + 10_000, log: (l) => lines.push(l), inOrder: true });
    clients.push(nc);
    expect(nc.getServer()).toBe(`127.0.0.1:${early.port}`);
    await late.restart();
    const reconnected = nextReconnect(nc, 10_000);
    await early.stop();
    expect(await reconnected).toBe(`127.0.0.1:${late.port}`);
    await nc.flush();
    expect(lines).toEqual([]);
  }, 30_000);

  it('waits for a server that starts after the node, with one line saying so', async () => {
    const late = await downServer();
    const lines: string[] = [];
    const connecting = connectFleet({ url: late.url, name: 'test', deadline: Date.now() + 10_000, log: (l) => lines.push(l) });
    await sleep(1_300);
    await late.restart();
    const nc = await connecting;
    clients.push(nc);
    await nc.flush();
    expect(lines).toEqual([`no NATS server at ${late.url} answers yet; waiting for one (up to 10 s)`]);
  }, 30_000);

  it('gives up at the deadline with a message naming the servers and the wait', async () => {
    const a = await downServer();
    const b = await downServer();
    const url = `${a.url},${b.url}`;
    const t0 = Date.now();
    await expect(connectFleet({ url, name: 'test', deadline: Date.now() + 1_500, log: () => {} })).rejects.toThrow(
      new Error(`cannot reach NATS at ${url} (AEP_NATS_URL / --nats): no server answered within 2 s; start nats-server -js, or unset AEP_NATS_URL for a single relay`),
    );
    expect(Date.now() - t0).toBeLessThan(5_000);
  }, 30_000);
});
