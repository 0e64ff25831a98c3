/** The relay link: hello first, outbox until the hello answer, reconnect with backoff after a drop. */
import { afterEach, describe, expect, it } from 'vitest';
import { RelayLink } from './relay-link.js';
import { startStubRelay, type StubRelay } from './test-utils.js';

let relay: StubRelay | null = null;
let link: RelayLink | null = null;
afterEach(async () => {
  await link?.close();
  await relay?.close();
  link = null;
  relay = null;
});

const hello = { type: 'hello', versions: ['0.1'], role: 'emitter', identity: { agent: 't' }, capabilities: {} };
const until = async (pred: () => boolean, ms = 3000) => {
  const deadline = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('RelayLink', () => {
  it('sends hello first, holds events until the hello answer, then flushes them in order', async () => {
    relay = await startStubRelay();
    const commands: string[] = [];
    link = new RelayLink({ url: relay.url, token: 'x', hello, onCommand: (raw) => commands.push(raw), log: () => {} });
    link.send('{"aep":"0.1","n":1}');
    link.send('{"aep":"0.1","n":2}');
    await until(() => relay!.frames.length === 3);
    expect(JSON.parse(relay.frames[0]!).type).toBe('hello');
    expect(relay.frames.slice(1)).toEqual(['{"aep":"0.1","n":1}', '{"aep":"0.1","n":2}']);
    expect(link.connected).toBe(true);
    relay.send('{"aep":"0.1","type":"control.pause","id":"c1"}');
    relay.send({ type: 'pong' });
    await until(() => commands.length === 1);
    expect(commands).toEqual(['{"aep":"0.1","type":"control.pause","id":"c1"}']);
  });

  it('reconnects after a drop, says hello again, and delivers what was queued meanwhile', async () => {
    relay = await startStubRelay();
    const lines: string[] = [];
    link = new RelayLink({ url: relay.url, hello, onCommand: () => {}, log: (l) => lines.push(l) });
    await until(() => link!.connected);
    relay.drop();
    await until(() => !link!.connected);
    link.send('{"aep":"0.1","n":3}');
    await until(() => relay!.frames.includes('{"aep":"0.1","n":3}'));
    expect(relay.frames.filter((f) => f.includes('"hello"'))).toHaveLength(2);
    expect(lines.some((l) => l.includes('reconnecting'))).toBe(true);
  });

  it('keeps retrying while no relay listens (the outbox is bounded)', async () => {
    const lines: string[] = [];
    link = new RelayLink({ url: 'http://127.0.0.1:1', hello, onCommand: () => {}, log: (l) => lines.push(l), maxOutbox: 1 });
    link.send('a');
    link.send('b');
    await until(() => lines.filter((l) => l.includes('reconnecting')).length >= 2);
    expect(lines.some((l) => l.includes('outbox full'))).toBe(true);
    expect(link.connected).toBe(false);
  });
});
