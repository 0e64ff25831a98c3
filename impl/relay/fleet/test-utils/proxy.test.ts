/** The partition proxy itself: pass, pause (held, then delivered on heal), delay, drop. */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { startProxy, type TcpProxy } from './proxy.js';

let echo: Server | undefined;
let proxy: TcpProxy | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await proxy?.close();
  await new Promise<void>((r) => (echo ? echo.close(() => r()) : r()));
});

async function setup(): Promise<{ client: Socket; got: () => string; closed: Promise<void> }> {
  echo = createServer((s) => s.pipe(s));
  await new Promise<void>((r) => echo!.listen(0, '127.0.0.1', () => r()));
  const port = (echo.address() as { port: number }).port;
  proxy = await startProxy(port);
  const client = connect(proxy.port, '127.0.0.1');
  sockets.push(client);
  let text = '';
  client.setEncoding('utf8').on('data', (c: string) => (text += c));
  const closed = new Promise<void>((r) => client.once('close', () => r()));
  await new Promise<void>((r) => client.once('connect', () => r()));
  return { client, got: () => text, closed };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

it('passes bytes, holds them while paused and delivers them on heal, delays them in order', async () => {
  const { client, got } = await setup();
  client.write('one;');
  await sleep(100);
  expect(got()).toBe('one;');
  proxy!.pause();
  client.write('two;');
  await sleep(200);
  expect(got()).toBe('one;');
  proxy!.heal();
  await sleep(200);
  expect(got()).toBe('one;two;');
  proxy!.delay(150);
  client.write('three;');
  client.write('four;');
  await sleep(60);
  expect(got()).toBe('one;two;');
  await sleep(600);
  expect(got()).toBe('one;two;three;four;');
});

it('drop cuts open connections and refuses new ones until heal', async () => {
  const { closed } = await setup();
  proxy!.drop();
  await closed;
  const second = connect(proxy!.port, '127.0.0.1');
  sockets.push(second);
  await new Promise<void>((r) => second.once('close', () => r()));
  proxy!.heal();
  const third = connect(proxy!.port, '127.0.0.1');
  sockets.push(third);
  let text = '';
  third.setEncoding('utf8').on('data', (c: string) => (text += c));
  third.write('back');
  await sleep(150);
  expect(text).toBe('back');
});
