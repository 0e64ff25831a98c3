/**
 * Every documented adapter variable set on the real verb (`aep adapter <name>` through main(),
 * as a user runs it), its effect observed on the wire: the port variables move /healthz, the
 * hold variables move the window the daemon announces (x-aep-hold-ms) and the window a held
 * PermissionRequest waits. The list of adapters and variables is the registry's. And while the
 * relay link is down a held request waits AEP_LINK_GRACE_MS for the link, then is answered neutrally.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { holdEnvOf, ADAPTER_INTEGRATIONS, adapterNamed, neutralReply } from '../integrations/registry.js';
import { startStubRelay, tempHome } from '../adapter-kit/test-utils/daemon-harness.js';
import { HOLD_HEADER } from '../adapter-kit/shim.cjs';
import { deadPort } from '../test-utils/dead-port.js';
import { liveIo } from '../operator/test-utils/stack.js';
import { main } from './main.js';

interface Reply {
  status: number;
  hold?: string;
  body: string;
  ms: number;
}

function call(port: number, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Reply> {
  const started = Date.now();
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const hold = res.headers[HOLD_HEADER];
        resolve({ status: res.statusCode ?? 0, ...(typeof hold === 'string' ? { hold } : {}), body: Buffer.concat(chunks).toString('utf8'), ms: Date.now() - started });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Runs `aep adapter <name>` in process with `env` until the returned stop() is called. */
async function runVerb(name: string, env: Record<string, string>): Promise<{ port: number; stop(): Promise<number>; io: ReturnType<typeof liveIo> }> {
  const io = liveIo({ AEP_HOME: tempHome(), ...env });
  const exit = main(['adapter', name], io);
  const deadline = Date.now() + 5000;
  while (!/listening on http:\/\/127\.0\.0\.1:(\d+)/.test(io.err)) {
    if (Date.now() > deadline) throw new Error(`aep adapter ${name} did not start: ${io.err}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(io.err)![1]);
  return { port, io, stop: async () => (io.stop(), exit) };
}

describe('documented adapter variables, on the real verb', () => {
  it("each adapter's port variable moves its /healthz; its hold variable, then AEP_ATTENTION_TIMEOUT_MS, move the announced window", async () => {
    for (const i of ADAPTER_INTEGRATIONS) {
      const port = await deadPort();
      const own = await runVerb(i.command, { [i.portEnv]: String(port), [holdEnvOf(i.name)]: '300', AEP_ATTENTION_TIMEOUT_MS: '9000', AEP_RELAY_URL: 'none' });
      try {
        expect(own.port, i.name).toBe(port);
        const health = await call(port, 'GET', '/healthz');
        expect(JSON.parse(health.body), i.name).toEqual({ ok: true, adapter: i.name, relay: false });
        expect((await call(port, 'POST', '/hook/SessionStart', { hook_event_name: 'SessionStart', session_id: `env-${i.name}` })).hold, `${i.name}: ${holdEnvOf(i.name)}`).toBe('300');
      } finally {
        expect(await own.stop()).toBe(0);
      }
      const shared = await runVerb(i.command, { AEP_ADAPTER_PORT: '0', AEP_ATTENTION_TIMEOUT_MS: '400', AEP_RELAY_URL: 'none' });
      try {
        expect((await call(shared.port, 'POST', '/hook/SessionStart', { hook_event_name: 'SessionStart', session_id: `env2-${i.name}` })).hold, `${i.name}: AEP_ATTENTION_TIMEOUT_MS`).toBe('400');
      } finally {
        expect(await shared.stop()).toBe(0);
      }
    }
  }, 60_000);

  it('AEP_CODEX_HOLD_MS=300: a held PermissionRequest waits 300 ms, not the 20 s default, then gets the neutral reply', async () => {
    const relay = await startStubRelay();
    const codex = adapterNamed('codex')!;
    const verb = await runVerb('codex', { [codex.portEnv]: '0', AEP_CODEX_HOLD_MS: '300', AEP_RELAY_URL: relay.url });
    try {
      const deadline = Date.now() + 3000;
      while (!JSON.parse((await call(verb.port, 'GET', '/healthz')).body).relay && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const session = { session_id: 'env-hold', turn_id: 't1' };
      await call(verb.port, 'POST', '/hook/UserPromptSubmit', { hook_event_name: 'UserPromptSubmit', ...session, prompt: 'x' });
      const held = await call(verb.port, 'POST', '/hook/PermissionRequest', { hook_event_name: 'PermissionRequest', ...session, tool_name: 'shell', tool_input: { command: ['ls'] } });
      expect(held.hold).toBe('300');
      expect(held.body).toBe(neutralReply(codex, 'PermissionRequest'));
      expect(held.ms).toBeGreaterThanOrEqual(250);
      expect(held.ms).toBeLessThan(3000);
    } finally {
      await verb.stop();
      await relay.close();
    }
  }, 20_000);

  it('relay link down: a held PermissionRequest waits AEP_LINK_GRACE_MS for the link, then gets the neutral reply; 0 answers at once', async () => {
    const codex = adapterNamed('codex')!;
    for (const [grace, min, max] of [['600', 550, 3000], ['0', 0, 1500]] as const) {
      const verb = await runVerb('codex', { [codex.portEnv]: '0', AEP_RELAY_URL: `http://127.0.0.1:${await deadPort()}`, AEP_LINK_GRACE_MS: grace });
      try {
        const session = { session_id: `env-unseen-${grace}`, turn_id: 't1' };
        await call(verb.port, 'POST', '/hook/UserPromptSubmit', { hook_event_name: 'UserPromptSubmit', ...session, prompt: 'x' });
        const held = await call(verb.port, 'POST', '/hook/PermissionRequest', { hook_event_name: 'PermissionRequest', ...session, tool_name: 'shell', tool_input: { command: ['ls'] } });
        expect(held.body).toBe(neutralReply(codex, 'PermissionRequest'));
        expect(held.ms, `grace ${grace}`).toBeGreaterThanOrEqual(min);
        expect(held.ms, `grace ${grace}`).toBeLessThan(max);
      } finally {
        await verb.stop();
      }
    }
  }, 20_000);
});
