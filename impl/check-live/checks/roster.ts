import { CheckFailure, CheckSkip, expectThat, pass, type Check } from '../check.js';
import { canonical } from '../control.js';
import { freshSession, sessionEvent, type Json } from '../events.js';
import { openOrSkip, requireSocket, wsSubscribe, wsWaitId } from '../probe.js';
import type { WsConn } from '../ws-client.js';

const DECLARED = { accepts: ['control.cancel'], ack_window_ms: 4321 };
const EMITS = ['session', 'progress'];

/** Asks for a roster on `conn` and returns the answer frame (a roster reply or an error with the id). */
async function ask(conn: WsConn, id: string): Promise<Json> {
  const since = conn.log.mark();
  conn.send({ type: 'roster', id });
  const { item } = await conn.log.waitFor((f) => (f.json?.type === 'roster' || f.json?.type === 'error') && f.json.id === id, 5000, `the answer to roster '${id}'`, since);
  return item.json!;
}

export const check: Check = {
  name: 'roster',
  section: 'AEP-0003 §4.1',
  timeoutMs: () => 20_000,
  async run(ctx) {
    const caps = (await ctx.discovery()).doc.capabilities as Json | undefined;
    if (!caps || typeof caps.roster !== 'object' || caps.roster === null) {
      throw new CheckSkip('skipped: no roster capability advertised (a consumer must not expect an answer)');
    }
    await requireSocket(ctx);
    const session = freshSession();
    const claimants: WsConn[] = [];
    const watcher = await openOrSkip(ctx, () => ctx.helloWs('consumer'));
    await wsSubscribe(watcher, { id: 'roster-watch', filter: { session } });
    for (const n of [1, 2]) {
      const c = await openOrSkip(ctx, () => ctx.helloWs('emitter', { control: DECLARED, emits: EMITS }));
      const claim = sessionEvent(session, 'progress.status', n, { capture: 'metadata', data: { phase: `claim-${n}` } });
      c.send(claim);
      await wsWaitId(watcher, claim.id as string, 5000, `claimant ${n}'s event on the watching socket`);
      claimants.push(c);
      const reply = await ask(watcher, `r-${n}`);
      expectThat(reply.type === 'roster' && Array.isArray(reply.entries), `roster request r-${n} got ${JSON.stringify(reply).slice(0, 200)}, not {type:"roster", id, entries:[...]}`);
      const mine = (reply.entries as Json[]).filter((e) => e.session === session);
      expectThat(mine.length === n, `with ${n} live claimant(s) of ${session} the roster lists ${mine.length} entries for it (one entry per live claim; ambiguity is never merged)`);
      for (const e of mine) {
        if (canonical(e.control) !== canonical(DECLARED)) throw new CheckFailure(`a roster entry's control ${JSON.stringify(e.control)} is not the declared block ${JSON.stringify(DECLARED)} verbatim`);
        expectThat(e.agent === 'aep-live-check', `a roster entry names agent ${JSON.stringify(e.agent)}, not the claimant's hello identity 'aep-live-check'`);
        expectThat(canonical(e.emits) === canonical(EMITS), `a roster entry's emits ${JSON.stringify(e.emits)} is not the declared ${JSON.stringify(EMITS)}`);
      }
    }
    // An emitter-role request is refused in-band, and the connection survives.
    const emitter = claimants[0]!;
    const refused = await ask(emitter, 'r-emitter');
    expectThat(refused.type === 'error' && refused.code === 'unauthorized', `an emitter-role roster request must get error{code:"unauthorized", id}; got ${JSON.stringify(refused).slice(0, 200)}`);
    const since = emitter.log.mark();
    emitter.send({ type: 'ping', t: 'roster' });
    await emitter.waitType('pong', 5000, (f) => f.t === 'roster', since);
    // A claim ends with its connection: the entry disappears.
    emitter.close();
    await emitter.closed;
    await new Promise((r) => setTimeout(r, 200));
    const after = await ask(watcher, 'r-after');
    const left = ((after.entries as Json[] | undefined) ?? []).filter((e) => e.session === session).length;
    expectThat(left === 1, `after one claimant disconnected the roster lists ${left} entries for ${session}, not 1 (entries cover live claims only)`);
    return pass();
  },
};
