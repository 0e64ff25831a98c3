/** Test-only: a loopback port nothing listens on. */
import { createServer, type AddressInfo } from 'node:net';

/** Bind an ephemeral port on 127.0.0.1, then close it: connecting to it is refused. */
export async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

/**
 * `n` distinct loopback ports nothing listens on: all are bound at once, then closed, so no two
 * are the same (picked one after another, a closed port can come back from the next pick).
 */
export async function deadPorts(n: number): Promise<number[]> {
  const servers = Array.from({ length: n }, () => createServer());
  await Promise.all(servers.map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r))));
  const ports = servers.map((s) => (s.address() as AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}
