/**
 * Test-only: the shared suite for the OpenCode-family plugin files (opencode-plugin.js,
 * kilocode-plugin.js). Each file is loaded under Node the way the vendor's loader would (by file
 * URL), called with a fake `PluginInput`, and driven through its hooks against a fake daemon.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deadPort } from './dead-port.js';
import { startFakeDaemon, type FakeDaemon } from './plugin-daemon.js';

type Hooks = Record<string, (...args: unknown[]) => Promise<void>>;

export interface PluginFileSpec {
  /** Absolute path of the plugin file. */
  file: string;
  /** The port variable the plugin reads (`AEP_OPENCODE_PORT`). */
  portEnv: string;
  /** The exports the vendor loader sees, and how to get the plugin function from them. */
  exports: string[];
  plugin(mod: Record<string, unknown>): (input: unknown) => Promise<Hooks>;
  /** The hooks it must register, sorted: the observation hooks, plus `dispose` where the vendor has it. */
  hooks: string[];
}

/** The hooks a plugin registers: exactly these, never a mutating one. */
export const OBSERVATION_HOOKS = ['event', 'permission.ask', 'tool.execute.after', 'tool.execute.before'];

export function pluginFileSuite(spec: PluginFileSpec): void {
  let daemon: FakeDaemon;
  const saved: Record<string, string | undefined> = {};
  const setEnv = (name: string, value: string | undefined): void => {
    if (!(name in saved)) saved[name] = process.env[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  };
  const load = async (port: number): Promise<Hooks> => {
    setEnv(spec.portEnv, String(port));
    const mod = (await import(pathToFileURL(spec.file).href)) as Record<string, unknown>;
    return spec.plugin(mod)({ serverUrl: new URL('http://127.0.0.1:4096'), directory: '/work/proj', worktree: '/work/proj' });
  };
  const bus = (type: string, properties: Record<string, unknown>) => ({ event: { type, properties } });

  beforeEach(async () => {
    daemon = await startFakeDaemon();
    setEnv('AEP_ATTENTION_TIMEOUT_MS', '0');
  });
  afterEach(async () => {
    await daemon.close();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
      delete saved[name];
    }
  });

  describe('the file', () => {
    it('is Bun-clean: no imports, no require, no Node built-ins, no Node globals but an env read', () => {
      const src = readFileSync(spec.file, 'utf8').replace(/^\s*\/\/.*$/gm, '').replace(/\/\*\*[\s\S]*?\*\//g, '');
      expect(src).not.toMatch(/^\s*import\s/m);
      expect(src).not.toMatch(/\brequire\(|node:|Buffer|__dirname/);
    });

    it('exports only what the vendor loader should see', async () => {
      const mod = (await import(pathToFileURL(spec.file).href)) as Record<string, unknown>;
      expect(Object.keys(mod).sort()).toEqual(spec.exports);
    });

    it('registers exactly the observation hooks, never a mutating one', async () => {
      const hooks = await load(daemon.port);
      expect(Object.keys(hooks).sort()).toEqual(spec.hooks);
      expect(spec.hooks.filter((h) => !OBSERVATION_HOOKS.includes(h))).toEqual(spec.hooks.includes('dispose') ? ['dispose'] : []);
    });

    if (spec.hooks.includes('dispose')) {
      it('dispose lets the queued moments reach the daemon first, and is bounded when it hangs', async () => {
        daemon.reply('bus', { delayMs: 300 });
        const hooks = await load(daemon.port);
        await hooks.event!(bus('session.status', { sessionID: 's8', status: { type: 'busy' } }));
        await hooks.event!(bus('session.idle', { sessionID: 's8' }));
        await hooks.dispose!();
        expect(daemon.received.map((r) => (r.body.event as { type: string }).type)).toEqual(['session.status', 'session.idle']);
        daemon.reply('bus', { hang: true });
        await hooks.event!(bus('session.idle', { sessionID: 's8' }));
        const t0 = Date.now();
        await hooks.dispose!();
        expect(Date.now() - t0).toBeLessThan(2500);
      });
    }
  });

  describe('forwarding', () => {
    it('forwards bus events, in order, with the session hint and the server URL', async () => {
      const hooks = await load(daemon.port);
      await hooks.event!(bus('session.created', { info: { id: 's1', version: '1.0.0' } }));
      await hooks.event!(bus('file.edited', { file: '/work/proj/a.ts' }));
      await hooks.event!(bus('session.idle', { sessionID: 's1' }));
      const got = await daemon.waitFor(3);
      expect(got.map((r) => r.hook)).toEqual(['bus', 'bus', 'bus']);
      expect(got[0]!.body).toEqual({ kind: 'bus', event: { type: 'session.created', properties: { info: { id: 's1', version: '1.0.0' } } }, session_id: 's1', server_url: 'http://127.0.0.1:4096/' });
      expect(got[1]!.body).toEqual({ kind: 'bus', event: { type: 'file.edited', properties: { file: '/work/proj/a.ts' } }, session_id: 's1', server_url: 'http://127.0.0.1:4096/' });
      expect((got[2]!.body.event as { type: string }).type).toBe('session.idle');
    });

    it('forwards the tool pair without touching the output', async () => {
      const hooks = await load(daemon.port);
      const before = { args: { command: 'ls' } };
      const after = { title: 'ls', output: 'a.ts', metadata: { exit: 0 } };
      await hooks['tool.execute.before']!({ tool: 'bash', sessionID: 's2', callID: 'c1' }, before);
      await hooks['tool.execute.after']!({ tool: 'bash', sessionID: 's2', callID: 'c1', args: { command: 'ls' } }, after);
      const got = await daemon.waitFor(2);
      expect(got.map((r) => r.hook)).toEqual(['tool.before', 'tool.after']);
      expect(got[0]!.body).toEqual({ kind: 'tool.before', input: { tool: 'bash', sessionID: 's2', callID: 'c1' }, output: { args: { command: 'ls' } }, session_id: 's2', server_url: 'http://127.0.0.1:4096/' });
      expect(got[1]!.body).toEqual({ kind: 'tool.after', input: { tool: 'bash', sessionID: 's2', callID: 'c1', args: { command: 'ls' } }, output: after, session_id: 's2', server_url: 'http://127.0.0.1:4096/' });
      expect(before).toEqual({ args: { command: 'ls' } });
      expect(after).toEqual({ title: 'ls', output: 'a.ts', metadata: { exit: 0 } });
    });

    it.each([
      ['{"status":"allow"}', 'allow'],
      ['{"status":"deny"}', 'deny'],
      ['{}', 'ask'],
      ['{"status":"maybe"}', 'ask'],
      ['not json', 'ask'],
    ])('a held permission.ask answered %s leaves output.status %s', async (reply, status) => {
      daemon.reply('permission.ask', { body: reply });
      const hooks = await load(daemon.port);
      const output = { status: 'ask' };
      await hooks['permission.ask']!({ id: 'p1', type: 'bash', sessionID: 's3', title: 'rm -rf build' }, output);
      expect(output.status).toBe(status);
      expect(daemon.received.at(-1)).toEqual({ hook: 'permission.ask', body: { kind: 'permission.ask', permission: { id: 'p1', type: 'bash', sessionID: 's3', title: 'rm -rf build' }, server_url: 'http://127.0.0.1:4096/' } });
    });
  });

  describe('fail-open', () => {
    it('a dead daemon: every hook resolves at once and the ask leaves the host prompt in charge', async () => {
      const hooks = await load(await deadPort());
      const t0 = Date.now();
      await hooks.event!(bus('session.created', { info: { id: 's4' } }));
      await hooks['tool.execute.before']!({ tool: 'bash', sessionID: 's4', callID: 'c' }, { args: {} });
      const output = { status: 'ask' };
      await hooks['permission.ask']!({ id: 'p', type: 'bash', sessionID: 's4', title: 't' }, output);
      expect(output.status).toBe('ask');
      expect(Date.now() - t0).toBeLessThan(2000);
    });

    it('a slow daemon: observation hooks never wait for it', async () => {
      daemon.reply('bus', { hang: true });
      const hooks = await load(daemon.port);
      const t0 = Date.now();
      for (let i = 0; i < 300; i++) await hooks.event!(bus('session.status', { sessionID: 's5', status: { type: 'busy' } }));
      expect(Date.now() - t0).toBeLessThan(500);
      await daemon.waitFor(1);
    });

    it('a hung ask is bounded by the attention timeout + 5 s, output untouched', async () => {
      daemon.reply('permission.ask', { hang: true });
      const hooks = await load(daemon.port);
      const output = { status: 'ask' };
      const t0 = Date.now();
      await hooks['permission.ask']!({ id: 'p', type: 'bash', sessionID: 's6', title: 't' }, output);
      const took = Date.now() - t0;
      expect(output.status).toBe('ask');
      expect(took).toBeGreaterThanOrEqual(4900);
      expect(took).toBeLessThan(8000);
    }, 15_000);

    it('an unserializable moment is dropped, never thrown into the host', async () => {
      const hooks = await load(daemon.port);
      const circular: Record<string, unknown> = { sessionID: 's7' };
      circular.self = circular;
      await expect(hooks.event!({ event: { type: 'session.status', properties: circular } })).resolves.toBeUndefined();
      await expect(hooks['tool.execute.before']!(null, null)).resolves.toBeUndefined();
      await expect(hooks['permission.ask']!(circular, { status: 'ask' })).resolves.toBeUndefined();
      await hooks.event!(bus('session.idle', { sessionID: 's7' }));
      expect((await daemon.waitFor(1)).map((r) => (r.body.event as { type: string }).type)).toEqual(['session.idle']);
    });
  });
}
