import { describe, expect, it } from 'vitest';
import { fetchReplay } from '../operator/stream.js';
import { TOKEN, aep, useStack, waitUntil } from '../operator/test-utils/stack.js';
import { validateJsonl } from './validate.js';
import { deadPort } from '../test-utils/dead-port.js';

const stack = useStack();
const flags = (url: string) => ['--relay', url, '--token', TOKEN];

async function requestId(url: string, session: string): Promise<string> {
  const r = await fetchReplay({ relay: url, token: TOKEN }, { session, type: 'attention.requested' });
  if (!r.ok) throw new Error(r.error);
  return r.events[0]!.id as string;
}

describe('aep respond / aep cancel against aep demo-agent on a real relay', () => {
  it('respond --option allow is accepted (exit 0), and the answer lands on the stream', async () => {
    const url = await stack.relay();
    await stack.demo(url, 's-respond', 'r1');
    const req = await requestId(url, 's-respond');
    const r = await aep(['respond', 's-respond', req, '--option', 'allow', ...flags(url)]);
    expect(r.err).toContain(`sending control.attention.respond`);
    expect(r.out).toMatch(new RegExp(`^respond ${req}: accepted \\(command [0-9a-f-]+, \\d+ ms, 1 attempt\\)`));
    expect(r.code).toBe(0);
    await waitUntil(async () => {
      const all = await fetchReplay({ relay: url, token: TOKEN }, { session: 's-respond' });
      return all.ok && all.events.some((e) => e.type === 'attention.resolved');
    });
    const all = await fetchReplay({ relay: url, token: TOKEN }, { session: 's-respond' });
    if (!all.ok) throw new Error(all.error);
    const cmd = all.events.find((e) => e.type === 'control.attention.respond')!;
    expect(cmd).not.toHaveProperty('seq');
    expect(cmd).toMatchObject({ subject: req, cause: req, capture: 'metadata', data: { answer: { option: 'allow' } } });
    const answered = all.events.find((e) => e.type === 'attention.answered')!;
    expect(answered.data).toMatchObject({ answer: { option: 'allow' } });
    // What flowed is a valid stream.
    expect(validateJsonl(Buffer.from(all.raws.join('\n') + '\n')).issues).toEqual([]);
  });

  it('an unknown request id is nacked invalid by the target: exit 3, the reason on stderr', async () => {
    const url = await stack.relay();
    await stack.demo(url, 's-inv', 'r1');
    const r = await aep(['respond', 's-inv', 'no-such-request', '--text', 'hi', ...flags(url), '--json']);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.out)).toMatchObject({ kind: 'nacked', reason: 'invalid', by: 'target', attempts: 1 });
    expect(r.err).toContain("rejected 'invalid' by the target");
  });

  it('cancel --run is accepted, then a second cancel of the now-terminal run is refused (exit 3)', async () => {
    const url = await stack.relay();
    await stack.demo(url, 's-cancel', 'r9');
    const ok = await aep(['cancel', 's-cancel', '--run', 'r9', '--reason', 'wrong branch', ...flags(url), '-q']);
    expect(ok.err).toBe('');
    expect(ok.code).toBe(0);
    await waitUntil(async () => {
      const all = await fetchReplay({ relay: url, token: TOKEN }, { session: 's-cancel', type: 'run.cancelled' });
      return all.ok && all.events.length === 1;
    });
    const again = await aep(['cancel', 's-cancel', '--run', 'r9', ...flags(url)]);
    expect(again.code).toBe(3);
    expect(again.err).toContain("rejected 'refused' by the target");
    const cmds = await fetchReplay({ relay: url, token: TOKEN }, { session: 's-cancel', type: 'control.cancel' });
    if (!cmds.ok) throw new Error(cmds.error);
    expect(cmds.events[0]).toMatchObject({ run: 'r9', capture: 'redacted', data: { scope: 'run', reason: 'wrong branch' } });
  });

  it('a silent target: every window times out, each retry resends the SAME envelope, exit 4', async () => {
    const url = await stack.relay();
    const silent = await stack.silent(url, 's-silent');
    const r = await aep(['cancel', 's-silent', ...flags(url), '--ack-window', '150', '--retries', '2', '--json']);
    expect(r.code).toBe(4);
    const outcome = JSON.parse(r.out);
    expect(outcome).toMatchObject({ kind: 'timeout', attempts: 3, windowMs: 150 });
    await waitUntil(() => silent.received.length === 3);
    expect(new Set(silent.received.map((c) => JSON.stringify(c))).size).toBe(1);
    expect(silent.received[0]).toMatchObject({ id: outcome.command, type: 'control.cancel', data: { scope: 'session' } });
    expect(silent.received[0]).not.toHaveProperty('seq');
    expect(r.err).toContain('no acknowledgement within the 150 ms ack window after 3 attempts');
  });

  it('a relay without a token refuses control on behalf of the target: exit 3 unauthorized, with the remedy', async () => {
    const url = await stack.relay({ token: null });
    const r = await aep(['respond', 'any', 'req', '--option', 'allow', '--relay', url]);
    expect(r.code).toBe(3);
    expect(r.err).toContain("rejected 'unauthorized' by the relay");
    expect(r.err).toContain('start the relay with AEP_TOKEN');
  });

  it('no route: a session nobody owns is refused by the relay (exit 3 no-route)', async () => {
    const url = await stack.relay();
    const r = await aep(['cancel', 'nobody-home', ...flags(url)]);
    expect(r.code).toBe(3);
    expect(r.err).toContain("rejected 'no-route' by the relay");
  });

  it('a wrong token says so without echoing it; an unreachable relay names the URL and aep doctor', async () => {
    const url = await stack.relay();
    const bad = await aep(['cancel', 's', '--relay', url, '--token', 'wrong-token-value-xyz']);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('refused the token');
    expect(bad.err).not.toContain('wrong-token-value-xyz');
    const dead = await aep(['cancel', 's', '--relay', `http://127.0.0.1:${await deadPort()}`, '--token', 'x']);
    expect(dead.code).toBe(1);
    expect(dead.err).toContain('cannot reach the relay at http://127.0.0.1:');
    expect(dead.err).toContain('aep doctor --relay http://127.0.0.1:');
  });

  it('usage errors exit 2: no answer, two answers, bad JSON, bad --ack-window', async () => {
    for (const argv of [
      ['respond', 's', 'r'],
      ['respond', 's', 'r', '--option', 'a', '--text', 'b'],
      ['respond', 's', 'r', '--values', '[1]'],
      ['respond', 's'],
      ['cancel', 's', '--ack-window', '0'],
      ['cancel'],
    ]) {
      const r = await aep(argv);
      expect(r.code, argv.join(' ')).toBe(2);
    }
  });
});
