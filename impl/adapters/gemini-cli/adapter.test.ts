/**
 * The Gemini CLI adapter end to end: a whole realistic session driven through the hook shim exactly
 * as settings.example.json invokes it (every registered hook, with the extra fields Gemini CLI
 * really sends), through the daemon to a stub relay; the session log passes `aep validate`.
 * Observe-only: no control block in the hello, every command refused.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { command, daemonHarness, postHook, type Linked } from '../../adapter-kit/test-utils/daemon-harness.js';
import { runHookCommand, sessionLog } from '../../test-utils/hook-command.js';
import { adapter, HOOKS } from './adapter.js';

const settings = JSON.parse(readFileSync(new URL('./settings.example.json', import.meta.url), 'utf8')) as { hooks: Record<string, { matcher: string; hooks: { type: string; command: string; timeout: number }[] }[]> };
const S = '5e0b-gm-kestrel';
const base = { session_id: S, transcript_path: '/home/ivo/.gemini/tmp/p/chats/session-5e0b.jsonl', cwd: '/home/ivo/p' };

const daemon = daemonHarness();
afterEach(() => daemon.close());

function setup(): Promise<Linked> {
  return daemon.start(adapter.configure!({}) as typeof adapter, { hostname: 'kestrel', instruct: true });
}

describe('settings.example.json', () => {
  it('registers every mapped hook but the per-chunk AfterModel, with `aep hook gemini-cli <Event>` and millisecond timeouts', () => {
    expect(Object.keys(settings.hooks).sort()).toEqual(HOOKS.filter((h) => h !== 'AfterModel').sort());
    for (const [event, groups] of Object.entries(settings.hooks)) {
      expect(groups[0]!.hooks[0]).toMatchObject({ type: 'command', command: `aep hook gemini-cli ${event}` });
      expect(groups[0]!.hooks[0]!.timeout).toBeGreaterThanOrEqual(2000 + 1000);
    }
  });
});

describe('gemini-cli adapter daemon', () => {
  it('a whole session through the configured shim: exact replies, synthesized runs, a valid log', async () => {
    const { a, r, home } = await setup();
    const hello = JSON.parse(r.frames[0]!);
    expect(hello.identity.agent).toBe('gemini-cli');
    expect(hello.capabilities).not.toHaveProperty('control');
    const env = { AEP_GEMINI_CLI_PORT: String(a.port) };
    const t = (n: number) => `2026-11-02T09:00:${String(n).padStart(2, '0')}.000Z`;
    const session: Array<[string, Record<string, unknown>]> = [
      ['SessionStart', { source: 'startup' }],
      ['BeforeAgent', { prompt: 'write proof.txt' }],
      ['PreCompress', { trigger: 'auto' }],
      ['BeforeModel', { llm_request: { model: 'gemini-3.8-flash', messages: [{ role: 'user', content: 'write proof.txt' }], config: { topK: 64 } } }],
      ['BeforeToolSelection', { llm_request: { model: 'gemini-3.8-flash', toolConfig: { mode: 'AUTO' } } }],
      ['BeforeTool', { tool_name: 'run_shell_command', tool_input: { command: 'echo hi > proof.txt', description: 'Print hi' }, original_request_name: 'run_shell_command' }],
      ['Notification', { notification_type: 'ToolPermission', message: 'run_shell_command wants to write', details: { tool_name: 'run_shell_command' } }],
      ['AfterTool', { tool_name: 'run_shell_command', tool_input: { command: 'echo hi > proof.txt', description: 'Print hi' }, tool_response: { llmContent: 'Output: (empty)', returnDisplay: '' } }],
      ['AfterTool', { tool_name: 'read_file', tool_input: { file_path: 'nope' }, tool_response: { error: { type: 'FILE_NOT_FOUND', message: 'nope' } } }],
      ['AfterAgent', { prompt: 'write proof.txt', prompt_response: 'Done.', stop_hook_active: false }],
      ['BeforeAgent', { prompt: 'and again' }],
      ['BeforeAgent', { prompt: 'third, the second never finished' }],
      ['SessionEnd', { reason: 'exit' }],
      ['SessionEnd', { reason: 'exit' }],
    ];
    for (const [i, [hook, extra]] of session.entries()) {
      const cmd = settings.hooks[hook]![0]!.hooks[0]!.command;
      const result = await runHookCommand(cmd, JSON.stringify({ ...base, hook_event_name: hook, timestamp: t(i), ...extra }), env);
      expect(result, hook).toEqual({ code: 0, out: '{}', err: '' });
    }
    // AfterModel is unregistered by default; POSTed directly it is a debug-level vendor event.
    expect((await postHook(a.url, 'AfterModel', { ...base, hook_event_name: 'AfterModel', llm_request: { model: 'gemini-3.8-flash' }, llm_response: { candidates: [] } })).body).toBe('{}');
    const events = await r.waitFor((es) => es.length === 16);
    const [r1, r2, r3] = events.filter((e) => e.type === 'run.started');
    expect(events.map((e) => [e.type, e.run === undefined ? null : e.run === r1!.run ? 'r1' : e.run === r2!.run ? 'r2' : e.run === r3!.run ? 'r3' : '?'])).toEqual([
      ['session.started', null],
      ['run.started', 'r1'],
      ['session.compacted', null],
      ['x.gemini-cli.session.before_model', 'r1'],
      ['x.gemini-cli.session.before_tool_selection', 'r1'],
      ['tool.requested', 'r1'],
      ['progress.status', 'r1'],
      ['tool.completed', 'r1'],
      ['tool.failed', 'r1'],
      ['run.finished', 'r1'],
      ['run.started', 'r2'],
      ['run.cancelled', 'r2'],
      ['run.started', 'r3'],
      ['run.cancelled', 'r3'],
      ['session.ended', null],
      ['x.gemini-cli.session.after_model', null],
    ]);
    expect(events.find((e) => e.type === 'run.finished')!.cause).toBe(r1!.id);
    expect(events.filter((e) => e.type === 'run.cancelled').map((e) => e.cause)).toEqual([r2!.id, r3!.id]);
    expect(events.find((e) => e.type === 'x.gemini-cli.session.after_model')!.severity).toBe('debug');
    expect(events.find((e) => e.type === 'tool.failed')!.data.error).toEqual({ type: 'FILE_NOT_FOUND' });
    const requested = events.find((e) => e.type === 'tool.requested')!;
    expect(requested.data.tool.call_id).toMatch(/^call_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(events.find((e) => e.type === 'tool.completed')).toMatchObject({ cause: requested.id, data: { tool: { name: 'run_shell_command', call_id: requested.data.tool.call_id } } });
    // read_file's AfterTool had no BeforeTool: nothing to pair, so no call id and no cause
    expect(events.find((e) => e.type === 'tool.failed')!.cause).toBeUndefined();
    const log = await sessionLog(home, 'gemini-cli', S);
    expect(log.validate).toEqual({ code: 0, out: expect.stringMatching(/: \d+ events, valid\n$/) });
    expect(log.events.map((e) => e.id)).toEqual(events.map((e) => e.id));
  });

  it('two calls in one turn finishing in the other order: each terminal carries its own call_id and cause', async () => {
    const { a, r } = await setup();
    const post = (hook: string, extra: Record<string, unknown>) => postHook(a.url, hook, { ...base, hook_event_name: hook, ...extra });
    await post('BeforeAgent', { prompt: 'read both' });
    await post('BeforeTool', { tool_name: 'read_file', tool_input: { file_path: 'a.md' } });
    await post('BeforeTool', { tool_name: 'read_file', tool_input: { file_path: 'b.md' } });
    await post('BeforeTool', { tool_name: 'run_shell_command', tool_input: { description: 'ls', command: 'ls' } });
    await post('AfterTool', { tool_name: 'run_shell_command', tool_input: { command: 'ls', description: 'ls' }, tool_response: { llmContent: 'Output: x\nExit Code: 2' } });
    await post('AfterTool', { tool_name: 'read_file', tool_input: { file_path: 'b.md' }, tool_response: { llmContent: 'b' } });
    await post('AfterTool', { tool_name: 'read_file', tool_input: { file_path: 'a.md' }, tool_response: { llmContent: 'a' } });
    const events = await r.waitFor((es) => es.filter((e) => e.type.startsWith('tool.')).length === 6);
    const req = events.filter((e) => e.type === 'tool.requested');
    const ids = req.map((e) => e.data.tool.call_id);
    expect(new Set(ids).size).toBe(3);
    const terminals = events.filter((e) => e.type === 'tool.completed' || e.type === 'tool.failed');
    expect(terminals.map((e) => [e.type, e.data.tool.call_id, e.cause])).toEqual([
      ['tool.failed', ids[2], req[2]!.id],
      ['tool.completed', ids[1], req[1]!.id],
      ['tool.completed', ids[0], req[0]!.id],
    ]);
  });

  it('observe-only: commands are nacked unsupported and steering is never on', async () => {
    const { a, r } = await setup();
    expect(JSON.parse(r.frames[0]!).capabilities.control).toBeUndefined();
    await postHook(a.url, 'SessionStart', { hook_event_name: 'SessionStart', session_id: S, source: 'startup' });
    for (const type of ['control.attention.respond', 'x.gemini-cli.control.instruct']) r.send(command(type, S, { text: 'x' }));
    const nacks = (await r.waitFor((es) => es.filter((e) => e.type === 'control.rejected').length === 2)).filter((e) => e.type === 'control.rejected');
    expect(nacks.map((e) => e.data.reason)).toEqual(['unsupported', 'unsupported']);
    expect((await postHook(a.url, 'BeforeAgent', { hook_event_name: 'BeforeAgent', session_id: S })).body).toBe('{}');
  });

  it('a hook without a session_id is answered neutrally and emits nothing', async () => {
    const { a, r } = await setup();
    expect((await postHook(a.url, 'BeforeTool', { hook_event_name: 'BeforeTool', tool_name: 'x' })).body).toBe('{}');
    await new Promise((res) => setTimeout(res, 30));
    expect(r.events()).toEqual([]);
  });
});
