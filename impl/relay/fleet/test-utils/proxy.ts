/**
 * Test-only: a TCP proxy between a relay node and one NATS server, to partition them.
 *
 * - `pass` (the start, and `heal()`): bytes flow both ways.
 * - `pause()`: the connections stay open but no byte moves either way (held, not lost) and new
 *   connections are accepted and held too: a partition the client only notices by its pings.
 * - `drop()`: every connection is cut and new ones are closed at once: a refused route.
 * - `delay(ms)`: every chunk is forwarded `ms` late, in order.
 * `heal()` lets held bytes go and returns to `pass`.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

type Mode = { kind: 'pass' } | { kind: 'pause' } | { kind: 'drop' } | { kind: 'delay'; ms: number };

interface Pair {
  readonly client: Socket;
  readonly server: Socket;
}

export interface TcpProxy {
  readonly port: number;
  readonly url: string;
  pause(): void;
  drop(): void;
  delay(ms: number): void;
  heal(): void;
  close(): Promise<void>;
}

export function startProxy(targetPort: number, host = '127.0.0.1'): Promise<TcpProxy> {
  let mode: Mode = { kind: 'pass' };
  const pairs = new Set<Pair>();

  /** Forward `from` to `to` under the mode of the moment (a chunk delayed keeps its order). */
  const pipe = (from: Socket, to: Socket): void => {
    let chain = Promise.resolve();
    from.on('data', (chunk: Buffer) => {
      if (mode.kind === 'delay') {
        const ms = mode.ms;
        chain = chain.then(() => new Promise<void>((r) => setTimeout(r, ms))).then(() => void (to.destroyed || to.write(chunk)));
      } else chain = chain.then(() => void (to.destroyed || to.write(chunk)));
    });
    from.on('close', () => void chain.then(() => to.destroy()));
    from.on('error', () => to.destroy());
  };

  const apply = (pair: Pair): void => {
    if (mode.kind === 'pause') {
      pair.client.pause();
      pair.server.pause();
    } else if (mode.kind === 'drop') {
      pair.client.destroy();
      pair.server.destroy();
    } else {
      pair.client.resume();
      pair.server.resume();
    }
  };

  const server: Server = createServer((client) => {
    if (mode.kind === 'drop') return void client.destroy();
    const upstream = connect(targetPort, host);
    const pair = { client, server: upstream };
    pairs.add(pair);
    const forget = (): void => void pairs.delete(pair);
    client.once('close', forget);
    upstream.once('close', forget);
    pipe(client, upstream);
    pipe(upstream, client);
    apply(pair);
  });

  const setMode = (next: Mode): void => {
    mode = next;
    for (const pair of [...pairs]) apply(pair);
  };

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({
        port,
        url: `nats://${host}:${port}`,
        pause: () => setMode({ kind: 'pause' }),
        drop: () => setMode({ kind: 'drop' }),
        delay: (ms) => setMode({ kind: 'delay', ms }),
        heal: () => setMode({ kind: 'pass' }),
        close: () =>
          new Promise<void>((done) => {
            for (const p of pairs) (p.client.destroy(), p.server.destroy());
            server.close(() => done());
          }),
      });
    });
  });
}
