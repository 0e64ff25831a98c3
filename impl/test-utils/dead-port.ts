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
