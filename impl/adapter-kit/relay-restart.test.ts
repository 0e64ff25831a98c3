/**
 * A relay restart during a held permission request (issue 37): a real `aep relay` process is
 * stopped, a PermissionRequest is raised while it is down, and the relay is started again on its
 * port about 2 s later. The adapter holds the hook through the link grace (its events wait in the
 * outbox), rejoins the new relay, and the operator's answer sent after the restart, with the real
 * `aep respond`, reaches the hook: the vendor receives the allow, not the neutral reply.
 * A second case keeps the relay down past a short grace: the hook then gets the neutral reply,
 * at the grace, not at the end of the hold window.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { adapter as claudeCode } from '../adapters/claude-code/adapter.js';
import { deadPort } from '../test-utils/dead-port.js';
import { startAdapter, type RunningAdapter } from './daemon.js';
import { tempHome } from './test-utils/daemon-harness.js';

const AEP = fileURLToPath(new URL('../../bin/aep.js', import.meta.url));
const TOKEN = 'restart-token';

const children: ChildProcess[] = [];
let running: RunningAdapter | null = null;
afterEach(async () => {
  await running?.close();
  running = null;
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/** `aep relay` on `port` in a child process; resolves once it listens. */
function startRelayProcess(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [AEP, 'relay', '--port', String(port)], { env: { ...process.env, AEP_TOKEN: TOKEN }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`relay did not start in 15 s: ${out}`)), 15_000);
    const seen = (chunk: Buffer): void => {
      out += chunk.toString();
      if (out.includes('listening on')) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.once('exit', (code) => reject(new Error(`relay exited (${code}) before listening: ${out}`)));
  });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  await exited;
}

/** POST a hook body; resolves with the reply body and how long it took. */
function hook(port: number, name: string, body: Record<string, unknown>): Promise<{ body: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: `/hook/${name}`, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ body: text, ms: Date.now() - started }));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ hook_event_name: name, ...body }));
  });
}

/** The id of the latest `attention.requested` of `session` the relay holds (polled up to `ms`). */
async function requestOnRelay(url: string, session: string, after: Set<string>, ms = 10_000): Promise<string> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const res = await fetch(`${url}/stream?from=all&live=0`, { headers: { authorization: `Bearer ${TOKEN}` } }).catch(() => null);
    if (res?.ok) {
      for (const line of (await res.text()).split('\n')) {
        if (!line.startsWith('data: ')) continue;
        const event = JSON.parse(line.slice(6)) as { type?: string; session?: string; id?: string };
        if (event.type === 'attention.requested' && event.session === session && event.id && !after.has(event.id)) return event.id;
      }
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no new attention.requested of ${session} reached ${url} in ${ms} ms`);
}

/** The real `aep respond`; resolves with its exit code and output. */
function respond(url: string, session: string, id: string, option: string): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [AEP, 'respond', session, id, '--option', option, '--relay', url, '--token', TOKEN, '--ack-window', '3000'], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })));
}

async function until(pred: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const SESSION = { session_id: 'restart-s1', cwd: '/tmp/w', transcript_path: '/tmp/w/t.jsonl' };
const permission = (id: string) => ({ ...SESSION, tool_name: 'Bash', tool_input: { command: `echo ${id}` }, permission_suggestions: [] });
const ALLOW = /"behavior":"allow"/;

describe('a relay restart during a held permission request', () => {
  it('the request raised while the relay is down is held; the operator answer after the ~2 s restart reaches the hook', async () => {
    const port = await deadPort();
    const url = `http://127.0.0.1:${port}`;
    let relay = await startRelayProcess(port);
    const logs: string[] = [];
    running = await startAdapter(claudeCode, { port: 0, relay: url, token: TOKEN, home: tempHome(), attentionTimeoutMs: 30_000, log: (l) => logs.push(l) });
    await until(() => running!.relayReady(), 5000, 'the relay link');
    await hook(running.port, 'SessionStart', { ...SESSION, source: 'startup' });
    await hook(running.port, 'UserPromptSubmit', { ...SESSION, prompt: 'ship it' });

    // 1. Answered remotely with the relay up.
    const seen = new Set<string>();
    const first = hook(running.port, 'PermissionRequest', permission('one'));
    const firstId = await requestOnRelay(url, SESSION.session_id, seen);
    seen.add(firstId);
    expect(await respond(url, SESSION.session_id, firstId, 'allow')).toMatchObject({ code: 0 });
    expect((await first).body).toMatch(ALLOW);

    // 2. The relay stops; the second request fires while it is down.
    await stopProcess(relay);
    await until(() => !running!.relayReady(), 5000, 'the link to notice the relay stopped');
    const downAt = Date.now();
    const second = hook(running.port, 'PermissionRequest', permission('two'));
    let settled = false;
    void second.then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 2000));
    expect(settled).toBe(false);

    // 3. The relay is back on its port; the operator answers there.
    relay = await startRelayProcess(port);
    const secondId = await requestOnRelay(url, SESSION.session_id, seen);
    const answer = await respond(url, SESSION.session_id, secondId, 'allow');
    expect(answer, answer.out).toMatchObject({ code: 0 });
    const reply = await second;
    expect(reply.body).toMatch(ALLOW);
    expect(Date.now() - downAt).toBeLessThan(10_000);
    expect(logs.some((l) => l.startsWith('relay link up') && l.includes('held events'))).toBe(true);
    await stopProcess(relay);
  }, 60_000);

  it('a relay still down when the grace ends: the hook gets the neutral reply at the grace, not at the end of the window', async () => {
    const port = await deadPort();
    running = await startAdapter(claudeCode, { port: 0, relay: `http://127.0.0.1:${port}`, token: TOKEN, home: tempHome(), attentionTimeoutMs: 30_000, linkGraceMs: 800 });
    await hook(running.port, 'SessionStart', { ...SESSION, source: 'startup' });
    const reply = await hook(running.port, 'PermissionRequest', permission('three'));
    expect(reply.body).toBe(claudeCode.neutralReply('PermissionRequest'));
    expect(reply.ms).toBeGreaterThanOrEqual(750);
    expect(reply.ms).toBeLessThan(5000);
  }, 20_000);
});
