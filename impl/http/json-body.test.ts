/**
 * The bounded JSON body at the edge: each refusal is data (status, error, the limit and its
 * variable), and a 413 sent while the client is still uploading reaches that client: the
 * connection lingers (our side ended, the rest read and discarded) instead of being reset under it.
 */
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readJsonBody, refuse } from './json-body.js';
import { EDGE_DEFAULTS } from './limits.js';
import { replyJson } from './reply.js';
import { closeServer, createEdgeServer } from './server.js';
import { deepArray, postHead, rawExchange } from './test-utils/wire.js';

const limits = { ...EDGE_DEFAULTS, maxBody: 64 * 1024, maxDepth: 8 };
const servers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of servers.splice(0)) await close();
});

async function serve(): Promise<string> {
  const server = createEdgeServer(limits, async (req, res) => {
    const r = await readJsonBody(req, limits, 'AEP_T');
    if (r.ok) return replyJson(res, 200, { got: r.value });
    if (!r.aborted) refuse(req, res, r.refusal);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  servers.push(() => closeServer(server));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const post = async (url: string, body: string | Buffer) => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return [res.status, (await res.json()) as Record<string, unknown>] as const;
};

describe('readJsonBody and refuse', () => {
  it('takes JSON within the limits; refuses syntax, encoding and depth as data naming the limit and its variable', async () => {
    const url = await serve();
    expect(await post(url, '{"a":[1]}')).toEqual([200, { got: { a: [1] } }]);
    const [s1, b1] = await post(url, '{"a":');
    expect([s1, b1.error]).toEqual([400, 'invalid-json']);
    const [s2, b2] = await post(url, Buffer.from([0x7b, 0xff, 0x7d]));
    expect([s2, b2.error, b2.offset]).toEqual([400, 'invalid-encoding', 1]);
    const [s3, b3] = await post(url, `{"a":${deepArray(10_000)}}`);
    expect([s3, b3.error, b3.limit, b3.path]).toEqual([400, 'too-deep', 8, '$.a[0][0][0][0][0][0][0]']);
    expect(String(b3.detail)).toContain('(AEP_T_MAX_DEPTH)');
  });

  it('a 413 reaches a client that is still sending, every time (declared or streamed past the limit)', async () => {
    const url = await serve();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const declared = await rawExchange(url, postHead('/', 128 * 1024 * 1024), { body: Buffer.alloc(256 * 1024, 0x20), pieces: 4 });
      const streamed = await rawExchange(url, postHead('/', 1024 * 1024), { body: Buffer.alloc(1024 * 1024, 0x20), pieces: 16 });
      statuses.push(declared.status, streamed.status);
      expect(declared.text).toContain('(AEP_T_MAX_BODY)');
    }
    expect(statuses.filter((s) => s !== 413)).toEqual([]);
  });
});
