import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './main.js';
import { deadPort } from '../test-utils/dead-port.js';
import { TOKEN, aep, ev, liveIo, post, useStack, waitUntil } from '../operator/test-utils/stack.js';

const stack = useStack();

describe('aep tail on a real relay', () => {
  it('prints one line per event, saves positions once quiet, and a restart resumes with exactly the rest', async () => {
    const url = await stack.relay();
    const dir = mkdtempSync(join(tmpdir(), 'aep-tail-'));
    const state = join(dir, 'state.json');
    await post(url, [ev('t1', 0), ev('t1', 1, 'run.started', { run: 'r1', data: { trigger: 'user' } })]);
    const io = liveIo();
    const done = main(['tail', '--relay', url, '--token', TOKEN, '--state', state, '--all'], io);
    await io.waitLines(2);
    expect(io.lines[0]).toMatch(/^00:00:00\.000  test-agent  t1  1:0  session\.started$/);
    expect(io.lines[1]).toBe('00:00:01.000  test-agent  t1  1:1  run.started  run r1');
    await waitUntil(() => {
      try {
        return JSON.parse(readFileSync(state, 'utf8')).positions.t1['aep://test/agent/t1'].seq === 1;
      } catch {
        return false;
      }
    });
    io.stop();
    expect(await done).toBe(143);
    expect(io.err).toContain('from everything the relay holds');
    await post(url, [ev('t1', 2, 'run.finished', { run: 'r1' }), ev('t1', 3, 'session.ended')]);
    const again = liveIo();
    const done2 = main(['tail', '--relay', url, '--token', TOKEN, '--state', state, '--json'], again);
    await again.waitLines(2);
    await new Promise((r) => setTimeout(r, 150));
    again.stop();
    expect(await done2).toBe(143);
    expect(again.lines.map((l) => JSON.parse(l).seq)).toEqual([2, 3]);
    expect(again.err).toContain(`resuming from ${state}`);
  });

  it('turns replay-exhausted into a warning naming the session and the way to the lost events', async () => {
    const url = await stack.relay({ buffer: 4 });
    const dir = mkdtempSync(join(tmpdir(), 'aep-tail-'));
    const state = join(dir, 'state.json');
    writeFileSync(state, JSON.stringify({ positions: { lost: { epoch: 1, seq: 0 } } }));
    await post(url, Array.from({ length: 10 }, (_, i) => ev('lost', i)));
    const io = liveIo();
    const done = main(['tail', '--relay', url, '--token', TOKEN, '--state', state, '-q'], io);
    await io.waitLines(4);
    io.stop();
    expect(await done).toBe(143);
    expect(io.err).toMatch(/warning: the relay no longer holds session lost from the saved position; the earliest it still holds is 1:6/);
    expect(io.err).toContain("aep timeline lost --file F");
    expect(io.lines.map((l) => l.split('  ')[3])).toEqual(['1:6', '1:7', '1:8', '1:9']);
  });

  it('filters with flags, and refuses a bad filter or a bad state file', async () => {
    const url = await stack.relay();
    await post(url, [ev('f1', 0), ev('f2', 0)]);
    const io = liveIo();
    const done = main(['tail', '--relay', url, '--token', TOKEN, '--no-resume', '--all', '--session', 'f2'], io);
    await io.waitLines(1);
    await new Promise((r) => setTimeout(r, 100));
    io.stop();
    expect(await done).toBe(143);
    expect(io.lines).toHaveLength(1);
    expect(io.lines[0]).toContain('  f2  ');
    expect((await aep(['tail', '--filter', '{"data":{}}'])).code).toBe(2);
    const dir = mkdtempSync(join(tmpdir(), 'aep-tail-'));
    writeFileSync(join(dir, 's.json'), '{oops');
    const bad = await aep(['tail', '--relay', url, '--token', TOKEN, '--state', join(dir, 's.json')]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('is unusable (it is not JSON); delete it, or pass --no-resume');
  });

  it('a missing token, a wrong token, and an unreachable relay each say what to do', async () => {
    const url = await stack.relay();
    const none = await aep(['tail', '--relay', url, '--no-resume']);
    expect(none.code).toBe(1);
    expect(none.err).toContain('requires a token for GET /stream (HTTP 401): pass --token or set AEP_TOKEN');
    const wrong = await aep(['tail', '--relay', url, '--no-resume', '--token', 'not-the-token-123']);
    expect(wrong.err).toContain('refused the token');
    expect(wrong.err).not.toContain('not-the-token-123');
    const port = await deadPort();
    const dead = await aep(['tail', '--relay', `http://127.0.0.1:${port}`, '--no-resume']);
    expect(dead.code).toBe(1);
    expect(dead.err).toContain(`cannot reach the relay at http://127.0.0.1:${port} (ECONNREFUSED). Is it running? Start one with 'aep relay', or diagnose with 'aep doctor --relay http://127.0.0.1:${port}'`);
  });

  it('--attention lists the demo agent\'s open request with the command that answers it, and that command works', async () => {
    const url = await stack.relay();
    await stack.demo(url, 'inbox-s', 'inbox-r');
    const list = await aep(['tail', '--attention', '--relay', url, '--token', TOKEN]);
    expect(list.code).toBe(0);
    expect(list.out).toContain('1 open attention request:');
    const cmd = list.out.split('\n').find((l) => l.includes('--option allow'))!.trim();
    expect(cmd).toMatch(new RegExp(`^aep respond inbox-s \\S+ --option allow --relay ${url.replace(/[.]/g, '\\.')}$`));
    const argv = cmd.split(' ').slice(1);
    const answered = await aep([...argv, '--token', TOKEN]);
    expect(answered.code).toBe(0);
    await waitUntil(async () => JSON.parse((await aep(['tail', '--attention', '--relay', url, '--token', TOKEN, '--json'])).out).length === 0);
  });
});
