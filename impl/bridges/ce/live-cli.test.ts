import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { useRelay } from '../../relay/test-utils/use-relay.js';
import { makeEvent, post } from '../../relay/test-utils/testing.js';
import { fakeIo } from '../../test-utils/cli-io.js';
import { useTempHome } from '../../bridge-kit/test-utils/bridge-tests.js';
import { readExport } from '../otlp-in/otlp-json.js';
import { verb } from '../../cli/bridge.js';

const harness = useRelay();
const home = useTempHome();
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

async function sink(): Promise<{ url: string; bodies: { path: string; type: string; body: string }[] }> {
  const bodies: { path: string; type: string; body: string }[] = [];
  const s = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      bodies.push({ path: req.url ?? '', type: String(req.headers['content-type']), body });
      res.writeHead(204).end();
    });
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, bodies };
}

/** Runs `aep bridge <name>` in-process until `stop()`; returns the io and the exit promise. */
function runVerb(positionals: string[], values: Record<string, unknown>, env: Record<string, string>) {
  let stop!: (s: string) => void;
  const io = fakeIo({ env });
  io.stopSignal = new Promise<string>((r) => (stop = r));
  const exit = verb.run({ values, positionals }, io);
  return { io, exit, stop };
}

const until = async (pred: () => boolean) => {
  for (let i = 0; i < 300 && !pred(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('aep bridge ce|otlp live, in-process', () => {
  it('ce: flags and env become a sidecar; SIGTERM stops it cleanly and says how many it delivered', async () => {
    const relay = await harness.start({ token: 'live' });
    const s = await sink();
    const dir = home();
    // No cursor yet: --replay makes the first subscription replay what the relay holds (no race with the post).
    const { io, exit, stop } = runVerb(['ce'], { sink: s.url, filter: '{"session":"live-1"}', replay: true }, { AEP_RELAY_URL: relay, AEP_TOKEN: 'live', AEP_HOME: dir });
    const events = [0, 1].map((seq) => JSON.stringify(makeEvent({ session: 'live-1', seq })));
    await post(relay, [...events, JSON.stringify(makeEvent({ session: 'other', seq: 0 }))], { token: 'live' });
    await until(() => s.bodies.length === 2);
    stop('SIGTERM');
    expect(await exit).toBe(0);
    expect(s.bodies.map((b) => [b.type, JSON.parse(b.body).aepsessionid])).toEqual([['application/cloudevents+json', 'live-1'], ['application/cloudevents+json', 'live-1']]);
    expect(io.err).toMatch(/aep bridge ce: relay http:\/\/127\.0\.0\.1:\d+ \(token set\) -> ce http:\/\/127\.0\.0\.1:\d+; batch 1\/0 ms; replay on first start; cursor .*\/bridges\/ce\.cursor\.json\n/);
    expect(io.err).toMatch(/aep bridge ce: SIGTERM: stopped after 2 delivered event\(s\)\n$/);
  });

  it('otlp: --endpoint with --batch-size posts ExportLogsServiceRequests to /v1/logs', async () => {
    const relay = await harness.start({ token: 'live' });
    const s = await sink();
    const { exit, stop } = runVerb(['otlp'], { endpoint: s.url, 'batch-size': '2', 'batch-ms': '5000', relay, token: 'live', replay: true }, { AEP_HOME: home() });
    await post(relay, [0, 1, 2, 3].map((seq) => JSON.stringify(makeEvent({ session: 'otlp-live', seq }))), { token: 'live' });
    await until(() => s.bodies.length === 2);
    stop('SIGINT');
    expect(await exit).toBe(0);
    expect(s.bodies.map((b) => [b.path, readExport(JSON.parse(b.body)).records.length])).toEqual([['/v1/logs', 2], ['/v1/logs', 2]]);
  });
});
