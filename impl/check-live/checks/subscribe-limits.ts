import { CheckFailure, expectThat, pass, type Check } from '../check.js';
import { freshSession } from '../events.js';
import { openOrSkip, requireSocket } from '../probe.js';
import type { WsConn } from '../ws-client.js';

/** The closed §6.5 code set. */
export const SUBSCRIBE_CODES = ['invalid-filter', 'unknown-dialect', 'unauthorized', 'limit-exceeded'];

/** Sends a subscribe and returns its in-band answer, failing if the connection drops instead. */
async function answer(conn: WsConn, frame: Record<string, unknown>, what: string) {
  const since = conn.log.mark();
  conn.send({ type: 'subscribe', ...frame });
  try {
    const { item } = await conn.log.waitFor(
      (f) => (f.json?.type === 'subscribed' || f.json?.type === 'error') && f.json.id === frame.id,
      5000,
      `an in-band answer (subscribed or error with id '${String(frame.id)}') to ${what}`,
      since,
    );
    return item;
  } catch (err) {
    if (!conn.isOpen) throw new CheckFailure(`the endpoint dropped the connection on ${what}; rejection must be in-band and per-request`);
    throw err;
  }
}

export const check: Check = {
  name: 'subscribe-limits',
  section: 'AEP-0003 §6.5',
  timeoutMs: () => 20_000,
  async run(ctx) {
    await requireSocket(ctx);
    const conn = await openOrSkip(ctx, () => ctx.helloWs('consumer'));

    const malformed = await answer(conn, { id: 'sl-malformed', filter: {}, from: 'yesterday' }, 'a malformed `from`');
    expectThat(
      malformed.json?.type === 'error' && SUBSCRIBE_CODES.includes(malformed.json.code as string),
      `a malformed \`from\` must be refused with an error frame from the closed set (invalid-filter); got ${malformed.raw.slice(0, 200)}`,
    );

    const many = Array.from({ length: 10_000 }, (_, i) => ({ session: `live-none-${i}`, epoch: 0, seq: 0 }));
    const big = await answer(conn, { id: 'sl-oversize', filter: {}, from: many }, 'a 10000-position `from`');
    expectThat(
      big.json?.type === 'subscribed' || SUBSCRIBE_CODES.includes(big.json?.code as string),
      `an over-size \`from\` must be answered with subscribed or an error from the closed set; got code ${JSON.stringify(big.json?.code)}`,
    );

    const illegal = await answer(conn, { id: 'sl-illegal-key', filter: { NotAnAttr: 1 } }, 'a filter with an illegal key');
    expectThat(
      illegal.json?.type === 'error' && illegal.json.code === 'invalid-filter',
      `a filter key that is neither filterable nor a legal extension name must get invalid-filter (fail closed, §6.2); got ${illegal.raw.slice(0, 200)}`,
    );

    const ok = await answer(conn, { id: 'sl-valid', filter: { session: freshSession() } }, 'a valid subscribe after the refusals');
    expectThat(ok.json?.type === 'subscribed', `a valid subscribe after the refusals was not accepted: ${ok.raw.slice(0, 200)}`);
    const since = conn.log.mark();
    conn.send({ type: 'ping', t: 42 });
    await conn.waitType('pong', 5000, (f) => f.t === 42, since);
    return pass();
  },
};
