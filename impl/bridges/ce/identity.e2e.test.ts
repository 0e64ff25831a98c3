/**
 * End to end, through `aep bridge ce|otlp` live against a real relay: two sources post events
 * that share an id, two more share a session (the second behind the first). The relay holds
 * four; the sink must receive four, and after a restart from the cursor file, only what is new.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useRelay } from '../../relay/test-utils/use-relay.js';
import { makeEvent, post } from '../../relay/test-utils/testing.js';
import { fakeIo } from '../../test-utils/cli-io.js';
import { useTempHome } from '../../bridge-kit/test-utils/bridge-tests.js';
import { readExport } from '../otlp-in/otlp-json.js';
import { fetchReplay } from '../../operator/stream.js';
import { verb } from '../../cli/bridge.js';

const harness = useRelay();
const home = useTempHome();
const TOKEN = 'identity-e2e';
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

async function sink(): Promise<{ url: string; bodies: string[] }> {
  const bodies: string[] = [];
  const s = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(204).end();
    });
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, bodies };
}

function runVerb(kind: 'ce' | 'otlp', values: Record<string, unknown>, env: Record<string, string>) {
  let stop!: (s: string) => void;
  const io = fakeIo({ env });
  io.stopSignal = new Promise<string>((r) => (stop = r));
  const exit = verb.run({ values, positionals: [kind] }, io);
  return { io, exit, stop };
}

const until = async (pred: () => boolean, what: () => string) => {
  for (let i = 0; i < 500 && !pred(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!pred()) throw new Error(`timed out: ${what()}`);
};

const A = 'aep://host-a/agent/alpha';
const B = 'aep://host-b/agent/beta';
const C = 'aep://host-c/agent/gamma';
const D = 'aep://host-d/agent/delta';
const FOUR = [
  makeEvent({ source: A, agent: 'alpha', id: '01KIDENTITYSHAREDID0000000', session: 'sess-a', seq: 0 }),
  makeEvent({ source: B, agent: 'beta', id: '01KIDENTITYSHAREDID0000000', session: 'sess-b', seq: 0 }),
  makeEvent({ source: C, agent: 'gamma', id: '01KIDENTITYGAMMA0000000003', session: 'shared', seq: 3 }),
  makeEvent({ source: D, agent: 'delta', id: '01KIDENTITYDELTA0000000001', session: 'shared', seq: 1 }),
];
const NEXT = [
  makeEvent({ source: D, agent: 'delta', id: '01KIDENTITYDELTA0000000002', session: 'shared', seq: 2 }),
  makeEvent({ source: C, agent: 'gamma', id: '01KIDENTITYSHAREDID0000000', session: 'shared', seq: 4 }),
];
const pair = (source: unknown, id: unknown): string => `${String(source)} ${String(id)}`;

describe.each([
  ['ce', (bodies: string[]) => bodies.map((b) => JSON.parse(b) as { source: string; id: string }).map((ce) => pair(ce.source, ce.id))],
  [
    'otlp',
    (bodies: string[]) =>
      bodies.flatMap((b) => readExport(JSON.parse(b)).records).map((r) => pair(r.attributes?.['aep.source'], r.attributes?.['aep.event_id'])),
  ],
] as const)('aep bridge %s live: sources sharing an id and a session', (kind, received) => {
  it('the relay holds four, the sink receives four; a restart delivers only the new ones', async () => {
    const relay = await harness.start({ token: TOKEN });
    const posted = await post(relay, FOUR.map((e) => JSON.stringify(e)), { token: TOKEN });
    expect(posted.status, JSON.stringify(posted)).toBe(202);
    const held = await fetchReplay({ relay: relay.replace(/\/+$/, ''), token: TOKEN }, undefined);
    expect(held.ok && held.events.length).toBe(4);
    const s = await sink();
    const dir = home();
    const state = join(dir, 'cursor.json');
    const target = kind === 'ce' ? { sink: s.url } : { endpoint: s.url, 'batch-ms': '20' };
    const first = runVerb(kind, { ...target, relay, token: TOKEN, replay: true, state }, { AEP_HOME: dir });
    const count = () => received(s.bodies).length;
    await until(() => count() >= 4, () => `${count()} received: ${first.io.err}`);
    await new Promise((r) => setTimeout(r, 100));
    first.stop('SIGTERM');
    expect(await first.exit).toBe(0);
    expect(received(s.bodies).sort()).toEqual(FOUR.map((e) => pair(e.source, e.id)).sort());
    expect(first.io.err).not.toMatch(/refused|replay-exhausted/);

    await post(relay, NEXT.map((e) => JSON.stringify(e)), { token: TOKEN });
    const second = runVerb(kind, { ...target, relay, token: TOKEN, state }, { AEP_HOME: dir });
    await until(() => count() >= 6, () => `${count()} received: ${second.io.err}`);
    await new Promise((r) => setTimeout(r, 150));
    second.stop('SIGTERM');
    expect(await second.exit).toBe(0);
    expect(received(s.bodies).sort()).toEqual([...FOUR, ...NEXT].map((e) => pair(e.source, e.id)).sort());
  });
});
