import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deadPort, deadPorts } from '../test-utils/dead-port.js';
import { judge, type Probes } from '../operator/doctor-findings.js';
import { TOKEN, aep, useStack } from '../operator/test-utils/stack.js';

const stack = useStack();

async function env(): Promise<Record<string, string>> {
  const home = mkdtempSync(join(tmpdir(), 'aep-doctor-'));
  const [claude, codex] = await deadPorts(2);
  return { AEP_HOME: home, AEP_CLAUDE_CODE_PORT: String(claude), AEP_CODEX_PORT: String(codex) };
}

describe('aep doctor against a real relay', () => {
  it('a tokened relay with the right token: no findings (exit 0), every lane reported', async () => {
    const url = await stack.relay();
    const r = await aep(['doctor', '--relay', url, '--token', TOKEN], await env());
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain('ok       auth          the token given here is accepted');
    expect(r.out).toContain('ok       cors          a refused request (HTTP 401) carries access-control-allow-origin too');
    expect(r.out).toMatch(/info {5}daemons {7}.* running \(none started by 'aep setup up'\); 'aep doctor --all' lists them/);
    expect(r.out).not.toContain('claude-code (the Claude Code adapter daemon');
    const all = await aep(['doctor', '--relay', url, '--token', TOKEN, '--all'], await env());
    expect(all.out).toMatch(/info {5}daemons {7}claude-code \(the Claude Code adapter daemon, port \d+\) is not running/);
    expect(r.out).toContain(`run 'aep doctor --relay ${url}' there and compare`);
    expect(r.out).not.toContain(TOKEN);
  });
  it('no token, or a wrong one: a finding with its remedy (exit 1), the token never printed', async () => {
    const url = await stack.relay();
    const none = await aep(['doctor', '--relay', url, '--json'], await env());
    expect(none.code).toBe(1);
    const lines = JSON.parse(none.out).lines;
    expect(lines).toContainEqual(expect.objectContaining({ level: 'finding', lane: 'auth', remedy: expect.stringContaining('pass --token or set AEP_TOKEN') }));
    const wrong = await aep(['doctor', '--relay', url, '--token', 'wrong-secret-77'], await env());
    expect(wrong.code).toBe(1);
    expect(wrong.out).toContain('the relay refused the token given here (HTTP 401)');
    expect(wrong.out).not.toContain('wrong-secret-77');
  });
  it('an open relay is a warning (exit 0) with counts; a dead relay is a finding naming how to start it', async () => {
    const url = await stack.relay({ token: null });
    const open = await aep(['doctor', '--relay', url], await env());
    expect(open.code).toBe(0);
    expect(open.out).toContain('control is watch-only');
    expect(open.out).toMatch(/info {5}stats {9}sessions 0 · events 0/);
    const port = await deadPort();
    const dead = await aep(['doctor', '--relay', `http://127.0.0.1:${port}`], await env());
    expect(dead.code).toBe(1);
    expect(dead.out).toContain(`the relay at http://127.0.0.1:${port} does not answer /healthz (ECONNREFUSED)`);
    expect(dead.out).toContain("start it: 'aep relay' (or 'aep setup up relay')");
  });
  it('a wedged daemon (pid alive, port dead) is a finding; a stale pid file a warning', async () => {
    const url = await stack.relay();
    const e = await env();
    mkdirSync(join(e.AEP_HOME!, 'run'));
    writeFileSync(join(e.AEP_HOME!, 'run', 'claude-code.pid'), `${process.pid}\n`);
    writeFileSync(join(e.AEP_HOME!, 'run', 'codex.pid'), '999999\n');
    const r = await aep(['doctor', '--relay', url, '--token', TOKEN], e);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`is wedged: pid ${process.pid} is alive but /healthz does not answer (ECONNREFUSED)`);
    expect(r.out).toContain("→ restart it: 'aep setup down claude-code && aep setup up claude-code'");
    expect(r.out).toMatch(/warning  daemons       codex .*\(stale pid file\)/);
  });
  it('an adapter daemon that is up but not linked to a relay is a warning', async () => {
    const url = await stack.relay();
    const fake = createServer((_req, res) => res.end('{"ok":true,"relay":false}'));
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    try {
      const e = { ...(await env()), AEP_CODEX_PORT: String((fake.address() as { port: number }).port) };
      const r = await aep(['doctor', '--relay', url, '--token', TOKEN], e);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/warning  daemons       codex .* is up but not linked to a relay/);
    } finally {
      fake.close();
    }
  });
});

describe('doctor judgement (pure)', () => {
  const base: Probes = {
    relay: 'http://127.0.0.1:8787', family: 'ipv4', v4: { error: 'ECONNREFUSED' }, v6: { status: 200, json: { ok: true } }, health: { error: 'ECONNREFUSED' },
    tokenGiven: false, streamNoToken: {}, preflight: {}, daemons: [], envHint: '',
  };
  it('a relay answering only on the family the URL does not name: a finding naming AEP_HOST', () => {
    const lines = judge(base);
    expect(lines[0]).toMatchObject({ level: 'finding', lane: 'reachability', message: 'port 8787 refuses on IPv4 127.0.0.1 (the family the URL names) but answers /healthz on IPv6 [::1]' });
    expect(lines[0]!.remedy).toContain('AEP_HOST=127.0.0.1');
    expect(lines.every((l) => l.level !== 'finding' || l.remedy)).toBe(true);
  });
});
