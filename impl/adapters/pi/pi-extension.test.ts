import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deadPort } from '../../test-utils/dead-port.js';
import { startFakeDaemon, type FakeDaemon } from '../../test-utils/plugin-daemon.js';

const FILE = join(dirname(fileURLToPath(import.meta.url)), 'pi-extension.js');

/** The notification set the factory registers by default, in registration order. */
const NOTIFICATIONS = [
  'session_start', 'session_shutdown', 'session_compact', 'session_info_changed', 'session_tree',
  'agent_start', 'agent_end', 'agent_settled', 'turn_start', 'turn_end',
  'message_start', 'message_end', 'tool_execution_start', 'tool_execution_end',
  'model_select', 'thinking_level_select',
];

type Handler = (event: unknown, ctx: unknown) => unknown;

/** A fake ExtensionAPI: records every `pi.on` registration. */
function fakePi(): { on(name: string, h: Handler): void; names: string[]; handlers: Map<string, Handler> } {
  const names: string[] = [];
  const handlers = new Map<string, Handler>();
  return { names, handlers, on: (name, h) => void (names.push(name), handlers.set(name, h)) };
}

const ctx = (session = 'pi-s1') => ({ sessionManager: { getSessionId: () => session, getSessionFile: () => '/home/u/.pi/sessions/x.jsonl' } });

describe('pi-extension.js under a fake pi host', () => {
  let daemon: FakeDaemon;
  const saved = new Map<string, string | undefined>();
  const setEnv = (name: string, value: string | undefined): void => {
    if (!saved.has(name)) saved.set(name, process.env[name]);
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  };
  const load = async (env: Record<string, string | undefined> = {}, port?: number) => {
    setEnv('AEP_PI_PORT', String(port ?? daemon.port));
    setEnv('AEP_ATTENTION_TIMEOUT_MS', '0');
    for (const name of ['AEP_PI_CONTROL', 'AEP_PI_DELTAS', 'AEP_PI_GATE_TOOLS']) setEnv(name, env[name]);
    const mod = (await import(pathToFileURL(FILE).href)) as { default: (pi: unknown) => void };
    const pi = fakePi();
    mod.default(pi);
    return pi;
  };

  beforeEach(async () => {
    daemon = await startFakeDaemon();
  });
  afterEach(async () => {
    await daemon.close();
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    saved.clear();
  });

  it('is one default-exported factory with no imports or Node built-ins', async () => {
    const mod = (await import(pathToFileURL(FILE).href)) as Record<string, unknown>;
    expect(Object.keys(mod)).toEqual(['default']);
    const src = readFileSync(FILE, 'utf8').replace(/^\s*\/\/.*$/gm, '');
    expect(src).not.toMatch(/^\s*import\s/m);
    expect(src).not.toMatch(/\brequire\(|node:|Buffer/);
  });

  it('default posture: exactly the notification events, never tool_call or another interception surface', async () => {
    const pi = await load();
    expect(pi.names).toEqual(NOTIFICATIONS);
    for (const h of pi.handlers.values()) expect(h({ type: 'x' }, ctx())).toBeUndefined();
  });

  it('AEP_PI_DELTAS=1 adds the two stream updates, flagged as deltas', async () => {
    const pi = await load({ AEP_PI_DELTAS: '1' });
    expect(pi.names).toEqual([...NOTIFICATIONS, 'message_update', 'tool_execution_update']);
    pi.handlers.get('message_update')!({ message: { role: 'assistant' }, assistantMessageEvent: { type: 'text_delta', delta: 'hi' } }, ctx());
    const [got] = await daemon.waitFor(1);
    expect(got).toEqual({ hook: 'message_update', body: { session: 'pi-s1', event: { message: { role: 'assistant' }, assistantMessageEvent: { type: 'text_delta', delta: 'hi' }, type: 'message_update' }, deltas: true } });
  });

  it('AEP_PI_CONTROL=1 registers tool_call, and only that, on top of the notifications', async () => {
    const pi = await load({ AEP_PI_CONTROL: '1' });
    expect(pi.names).toEqual([...NOTIFICATIONS, 'tool_call']);
  });

  it('an invalid AEP_PI_GATE_TOOLS gates nothing: tool_call stays unregistered', async () => {
    const pi = await load({ AEP_PI_CONTROL: '1', AEP_PI_GATE_TOOLS: '(' });
    expect(pi.names).toEqual(NOTIFICATIONS);
  });

  it('forwards each notification in order as {session, event}', async () => {
    const pi = await load();
    pi.handlers.get('session_start')!({ type: 'session_start', reason: 'startup' }, ctx());
    pi.handlers.get('agent_start')!({}, ctx());
    pi.handlers.get('tool_execution_start')!({ toolCallId: 't1', toolName: 'bash', args: { command: 'ls' } }, ctx());
    const got = await daemon.waitFor(3);
    expect(got).toEqual([
      { hook: 'session_start', body: { session: 'pi-s1', event: { type: 'session_start', reason: 'startup' }, session_file: '/home/u/.pi/sessions/x.jsonl' } },
      { hook: 'agent_start', body: { session: 'pi-s1', event: { type: 'agent_start' } } },
      { hook: 'tool_execution_start', body: { session: 'pi-s1', event: { toolCallId: 't1', toolName: 'bash', args: { command: 'ls' }, type: 'tool_execution_start' } } },
    ]);
  });

  describe('the gate', () => {
    const call = { toolCallId: 'c1', toolName: 'bash', input: { command: 'rm -rf build' } };

    it('blocks only on a {"block":true} answer, with the reason', async () => {
      daemon.reply('tool_call', { body: '{"block":true,"reason":"not on prod"}' });
      const pi = await load({ AEP_PI_CONTROL: '1' });
      await expect(pi.handlers.get('tool_call')!(call, ctx())).resolves.toEqual({ block: true, reason: 'not on prod' });
      expect(daemon.received.at(-1)).toEqual({ hook: 'tool_call', body: { session: 'pi-s1', event: { ...call, type: 'tool_call' } } });
    });

    it.each(['{}', '{"block":false}', 'garbage'])('answer %s lets the tool run', async (reply) => {
      daemon.reply('tool_call', { body: reply });
      const pi = await load({ AEP_PI_CONTROL: '1' });
      await expect(pi.handlers.get('tool_call')!(call, ctx())).resolves.toBeUndefined();
    });

    it('AEP_PI_GATE_TOOLS scopes it: an unmatched tool is not even forwarded', async () => {
      const pi = await load({ AEP_PI_CONTROL: '1', AEP_PI_GATE_TOOLS: '^write$' });
      await expect(pi.handlers.get('tool_call')!(call, ctx())).resolves.toBeUndefined();
      await new Promise((r) => setTimeout(r, 50));
      expect(daemon.received).toEqual([]);
    });

    it('never throws: a broken ctx, a dead daemon and a hung one all let the tool run', async () => {
      const brokenCtx = { sessionManager: { getSessionId: () => { throw new Error('boom'); } } };
      const pi = await load({ AEP_PI_CONTROL: '1' }, await deadPort());
      await expect(pi.handlers.get('tool_call')!(call, brokenCtx)).resolves.toBeUndefined();
      await expect(pi.handlers.get('tool_call')!(null, null)).resolves.toBeUndefined();
      daemon.reply('tool_call', { hang: true });
      const hung = await load({ AEP_PI_CONTROL: '1' });
      const t0 = Date.now();
      await expect(hung.handlers.get('tool_call')!(call, ctx())).resolves.toBeUndefined();
      expect(Date.now() - t0).toBeLessThan(8000);
    }, 15_000);
  });

  it('fail-open: with a dead or hung daemon every notification returns at once', async () => {
    const dead = await load({}, await deadPort());
    daemon.reply('message_end', { hang: true });
    const hung = await load();
    const t0 = Date.now();
    for (let i = 0; i < 300; i++) {
      expect(dead.handlers.get('message_end')!({ message: { role: 'assistant' } }, ctx())).toBeUndefined();
      expect(hung.handlers.get('message_end')!({ message: { role: 'assistant' } }, ctx())).toBeUndefined();
    }
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(hung.handlers.get('turn_end')!(circular, ctx())).toBeUndefined();
    expect(Date.now() - t0).toBeLessThan(500);
  });
});
