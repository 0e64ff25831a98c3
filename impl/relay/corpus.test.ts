/** The standard's golden events (read from the standard's directory at test time when present) cross the relay intact. */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { isCommand } from './control.js';
import { startRelay, type RunningRelay } from './server.js';
import { openSse, post } from './test-utils/testing.js';
import { standardPath } from '../test-utils/standard.js';
import { skipped, WHY } from '../test-utils/skip.js';

const GOLDEN = standardPath('conformance', 'fixtures', 'golden', 'golden.jsonl');

let relay: RunningRelay | undefined;
afterEach(async () => {
  await relay?.close();
  relay = undefined;
});

describe.skipIf(!existsSync(GOLDEN))(`golden corpus over the relay${skipped(!existsSync(GOLDEN), WHY.standard)}`, () => {
  it('accepts every non-command golden event and replays each session byte-identically', async () => {
    relay = await startRelay({ port: 0 });
    const lines = readFileSync(GOLDEN, 'utf8').split('\n').filter((l) => l.trim() !== '');
    const events = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const accepted = lines.filter((_l, i) => !isCommand(String(events[i]!.type)));
    expect(accepted.length).toBeGreaterThan(0);
    for (const line of accepted) {
      const r = await post(relay.url, line);
      expect(r.status, `${line.slice(0, 120)} -> ${JSON.stringify(r.body)}`).toBe(202);
    }
    const sse = await openSse(`${relay.url}/stream?from=all&live=0`);
    await sse.ended;
    const delivered = sse.text().split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6));
    const buffered = accepted.filter((l) => typeof JSON.parse(l).session === 'string');
    expect(delivered.sort()).toEqual([...new Set(buffered)].sort());
  });

  it('refuses every golden command over HTTP (control flows only on the WebSocket)', async () => {
    relay = await startRelay({ port: 0 });
    const commands = readFileSync(GOLDEN, 'utf8').split('\n').filter((l) => l.trim() !== '' && isCommand(String(JSON.parse(l).type)));
    for (const line of commands) expect((await post(relay.url, line)).status).toBe(403);
  });
});
