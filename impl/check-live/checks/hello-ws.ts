import { CheckFailure, expectThat, pass, type Check } from '../check.js';
import { helloFrame } from '../context.js';
import { openOrSkip, requireSocket } from '../probe.js';

/** Waits for the socket to close, failing when it stays open. */
async function closesWithin(closed: Promise<number>, ms: number, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const open = new Promise<'open'>((r) => (timer = setTimeout(() => r('open'), ms)));
  const r = await Promise.race([closed, open]);
  clearTimeout(timer);
  if (r === 'open') throw new CheckFailure(`the endpoint kept the connection open after ${what}; it must close it`);
}

export const check: Check = {
  name: 'hello-ws',
  section: 'AEP-0003 §3.5, §4',
  timeoutMs: () => 20_000,
  async run(ctx) {
    await requireSocket(ctx);

    // 1. Hello first: any other first frame gets `hello-required` and a close.
    const early = await openOrSkip(ctx, () => ctx.ws());
    early.send({ type: 'subscribe', id: 'before-hello', filter: {} });
    const refused = await early.log.waitFor((f) => f.json !== undefined, 5000, 'an answer to a subscribe sent before hello');
    expectThat(
      refused.item.json?.type === 'error' && refused.item.json.code === 'hello-required',
      `a first frame other than hello must get error{code:"hello-required"}; got ${refused.item.raw.slice(0, 200)}`,
    );
    await closesWithin(early.closed, 3000, 'hello-required');

    // 2. Negotiation: the responder selects exactly one version from the intersection.
    const nego = await openOrSkip(ctx, () => ctx.ws());
    nego.send(helloFrame('consumer', { zzfuture: { any: true } }, ['9.9', '0.1']));
    const hello = await nego.log.waitFor((f) => f.json !== undefined, 5000, 'the hello reply');
    expectThat(hello.item.json?.type === 'hello', `the endpoint's first frame must be hello; got ${hello.item.raw.slice(0, 200)}`);
    const versions = hello.item.json?.versions;
    expectThat(
      Array.isArray(versions) && versions.length === 1 && versions[0] === '0.1',
      `offered ["9.9","0.1"], the reply must select exactly ["0.1"]; got ${JSON.stringify(versions)}`,
    );

    // 3. No intersection: version-unsupported listing the supported versions, then close.
    const foreign = await openOrSkip(ctx, () => ctx.ws());
    foreign.send(helloFrame('consumer', {}, ['9.9']));
    const none = await foreign.log.waitFor((f) => f.json !== undefined, 5000, 'the answer to a hello offering only 9.9');
    const j = none.item.json;
    expectThat(
      j?.type === 'error' && j.code === 'version-unsupported' && Array.isArray(j.versions) && j.versions.includes('0.1'),
      `a hello with no common version must get error{code:"version-unsupported", versions:[..."0.1"]}; got ${none.item.raw.slice(0, 200)}`,
    );
    await closesWithin(foreign.closed, 3000, 'version-unsupported');
    return pass();
  },
};
