/**
 * The Qwen Code adapter end to end: a whole realistic session through the hook shim exactly as
 * settings.command.example.json invokes it (every registered hook, with the common fields Qwen
 * Code 0.24 really sends), the held PermissionRequest answered over a stub relay, the native
 * http-hook entry of settings.example.json, and a session log that passes `aep validate`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { command, daemonHarness, postHook, tempHome, type Linked } from '../../adapter-kit/test-utils/daemon-harness.js';
import { startAdapter } from '../../adapter-kit/daemon.js';
import { runHookCommand, sessionLog } from '../../test-utils/hook-command.js';
import { adapter, HOOKS } from './adapter.js';

type Config = { hooks: Record<string, { matcher?: string; hooks: Record<string, any>[] }[]> };
const load = (f: string): Config => JSON.parse(readFileSync(new URL(f, import.meta.url), 'utf8'));
const http = load('./settings.example.json');
const commands = load('./settings.command.example.json');
const S = 'qs-tova-12';
const common = { session_id: S, transcript_path: '/home/tova/.qwen/tmp/qs-tova-12.jsonl', cwd: '/home/tova/api', permission_mode: 'default' };
const ALLOW = '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}';

const daemon = daemonHarness();
afterEach(() => daemon.close());

function setup(instruct = false): Promise<Linked> {
  return daemon.start(adapter.configure!({}) as typeof adapter, { hostname: 'tova', attentionTimeoutMs: 5000, instruct });
}

describe('the example configurations', () => {
  it('register the same hooks: native http hooks to the daemon, or the `aep hook qwen-code <Event>` shim', () => {
    expect(Object.keys(http.hooks).sort()).toEqual([...HOOKS].sort());
    expect(Object.keys(commands.hooks).sort()).toEqual([...HOOKS].sort());
    for (const event of HOOKS) {
      expect(http.hooks[event]![0]!.hooks[0]).toMatchObject({ type: 'http', url: `http://127.0.0.1:8380/hook/${event}` });
      expect(commands.hooks[event]![0]!.hooks[0]).toMatchObject({ type: 'command', command: `aep hook qwen-code ${event}` });
    }
    // Seconds: the held PermissionRequest outlasts the 55 s hold plus the shim's 5 s margin.
    expect(http.hooks.PermissionRequest![0]!.hooks[0]!.timeout).toBeGreaterThan(60);
    expect(commands.hooks.PermissionRequest![0]!.hooks[0]!.timeout).toBeGreaterThan(60);
  });
});

describe('qwen-code adapter daemon', () => {
  it('a whole session through the configured shim: exact replies, the held loop, synthesized runs, a valid log', async () => {
    const { a, r, home } = await setup();
    expect(JSON.parse(r.frames[0]!).capabilities.control).toEqual({ accepts: ['control.attention.respond'], ack_window_ms: 10000 });
    const env = { AEP_QWEN_CODE_PORT: String(a.port) };
    const shell = { tool_name: 'run_shell_command', tool_input: { command: 'make migrate', description: 'apply migrations' } };
    const hook = async (event: string, extra: Record<string, unknown>) => {
      const cmd = commands.hooks[event]![0]!.hooks[0]!.command as string;
      return runHookCommand(cmd, JSON.stringify({ ...common, hook_event_name: event, timestamp: new Date().toISOString(), ...extra }), env);
    };
    const ok = { code: 0, out: '{}', err: '' };
    expect(await hook('SessionStart', { source: 'startup', model: 'qwen4-coder-plus', agent_type: 'default' })).toEqual(ok);
    expect(await hook('UserPromptSubmit', { prompt: 'migrate the schema', prompt_id: 'p1' })).toEqual(ok);
    expect(await hook('TodoCreated', { todo_id: 't1', todo_content: 'migrate', todo_status: 'pending', all_todos: [], phase: 'validation' })).toEqual(ok);
    expect(await hook('TodoCreated', { todo_id: 't1', todo_content: 'migrate', todo_status: 'pending', all_todos: [], phase: 'postWrite' })).toEqual(ok);
    expect(await hook('PreToolUse', { ...shell, tool_use_id: 'call_1', tool_call_id: 'call_1' })).toEqual(ok);
    expect(await hook('Notification', { notification_type: 'permission_prompt', message: 'approve make migrate?', title: 'Qwen Code' })).toEqual(ok);
    const held = hook('PermissionRequest', { ...shell, permission_suggestions: [] });
    const req = (await r.waitFor((es) => es.some((e) => e.type === 'attention.requested'))).find((e) => e.type === 'attention.requested')!;
    r.send(command('control.attention.respond', S, { answer: { text: 'allow' } }, { subject: req.id }));
    expect(await held).toEqual({ code: 0, out: ALLOW, err: '' });
    expect(await hook('PostToolUse', { ...shell, tool_use_id: 'call_1', tool_response: { output: 'applied 3', exit_code: 0 }, duration_ms: 900 })).toEqual(ok);
    expect(await hook('PreToolUse', { tool_name: 'read_file', tool_input: { file_path: 'x' }, tool_use_id: 'call_2' })).toEqual(ok);
    expect(await hook('PostToolUseFailure', { tool_name: 'read_file', tool_input: { file_path: 'x' }, tool_use_id: 'call_2', error: 'ENOENT', is_interrupt: false })).toEqual(ok);
    expect(await hook('PermissionDenied', { tool_name: 'write_file', tool_use_id: 'call_3', reason: 'rule' })).toEqual(ok);
    expect(await hook('SubagentStart', { agent_id: 'sa1', agent_type: 'tester' })).toEqual(ok);
    expect(await hook('SubagentStop', { agent_id: 'sa1', agent_type: 'tester', stop_hook_active: false })).toEqual(ok);
    expect(await hook('TodoCompleted', { todo_id: 't1', todo_content: 'migrate', previous_status: 'pending', all_todos: [], phase: 'postWrite' })).toEqual(ok);
    expect(await hook('PreCompact', { trigger: 'auto', custom_instructions: '' })).toEqual(ok);
    expect(await hook('PostCompact', { trigger: 'auto', compact_summary: 'short' })).toEqual(ok);
    expect(await hook('Notification', { notification_type: 'idle_prompt', message: 'idle' })).toEqual(ok);
    expect(await hook('Stop', { stop_hook_active: false, last_assistant_message: 'done', input_tokens: 10, output_tokens: 5 })).toEqual(ok);
    expect(await hook('UserPromptSubmit', { prompt: 'now the seed data' })).toEqual(ok);
    expect(await hook('StopFailure', { error: 'server_error', error_details: '502' })).toEqual(ok);
    expect(await hook('UserPromptSubmit', { prompt: 'again' })).toEqual(ok);
    // A hook of the 0.24 surface the example does not register, POSTed straight to the daemon (as an http hook would).
    expect(await postHook(a.url, 'UserPromptExpansion', { ...common, hook_event_name: 'UserPromptExpansion', command_name: 'review' })).toEqual({ status: 200, body: '{}' });
    expect(await hook('SessionEnd', { reason: 'prompt_input_exit' })).toEqual(ok);
    const events = await r.waitFor((es) => es.some((e) => e.type === 'session.ended'));
    expect(events.map((e) => e.type)).toEqual([
      'session.started', 'run.started', 'progress.task.planned', 'tool.requested',
      'attention.requested', 'control.accepted', 'attention.answered', 'attention.resolved',
      'tool.completed', 'tool.requested', 'tool.failed', 'tool.denied',
      'delegation.subagent.started', 'delegation.subagent.stopped', 'progress.task.completed', 'session.compacted', 'progress.status',
      'run.finished', 'run.started', 'run.failed', 'run.started', 'x.qwen-code.session.user_prompt_expansion', 'run.cancelled', 'session.ended',
    ]);
    const started = events.filter((e) => e.type === 'run.started');
    expect(events.find((e) => e.type === 'run.finished')).toMatchObject({ run: started[0]!.run, cause: started[0]!.id, data: { 'gen_ai.usage.input_tokens': 10 } });
    expect(events.find((e) => e.type === 'attention.requested')).toMatchObject({ run: started[0]!.run, subject: 'run_shell_command' });
    expect(events.find((e) => e.type === 'run.cancelled')).toMatchObject({ run: started[2]!.run, cause: started[2]!.id });
    const log = await sessionLog(home, 'qwen-code', S);
    expect(log.validate).toEqual({ code: 0, out: expect.stringMatching(/: \d+ events, valid\n$/) });
    expect(log.events.length).toBe(events.length);
  });

  it('the http-hook entry: the daemon answers the POST body Qwen Code reads, with Content-Type application/json', async () => {
    const { a } = await setup();
    const url = new URL(http.hooks.PreToolUse![0]!.hooks[0]!.url as string);
    const res = await fetch(`${a.url}${url.pathname}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...common, hook_event_name: 'PreToolUse', tool_name: 'ls', tool_input: {} }) });
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.text()).toBe('{}');
  });

  it("a repeated UserPromptSubmit with the open run's prompt_id (Qwen Code 0.24.4 sending tool results back) continues the run", async () => {
    const { a, r } = await setup();
    const pid = `${S}########0`;
    await postHook(a.url, 'UserPromptSubmit', { ...common, hook_event_name: 'UserPromptSubmit', prompt_id: pid, prompt: 'Run it.' });
    await postHook(a.url, 'PostToolUse', { ...common, hook_event_name: 'PostToolUse', prompt_id: pid, tool_name: 'run_shell_command', tool_use_id: 'c1', tool_input: {}, tool_response: 'ok' });
    expect((await postHook(a.url, 'UserPromptSubmit', { ...common, hook_event_name: 'UserPromptSubmit', prompt_id: pid, prompt: '' })).body).toBe('{}');
    await postHook(a.url, 'Stop', { ...common, hook_event_name: 'Stop', prompt_id: pid, stop_hook_active: false });
    await postHook(a.url, 'UserPromptSubmit', { ...common, hook_event_name: 'UserPromptSubmit', prompt_id: `${S}########1`, prompt: 'Again.' });
    const events = await r.waitFor((es) => es.filter((e) => e.type === 'run.started').length === 2);
    const runEvents = events.filter((e) => e.type.startsWith('run.') || e.type.startsWith('tool.'));
    expect(runEvents.map((e) => e.type)).toEqual(['run.started', 'tool.completed', 'run.finished', 'run.started']);
    expect(runEvents[1]!.run).toBe(runEvents[0]!.run);
    expect(runEvents[2]!.run).toBe(runEvents[0]!.run);
    expect(runEvents[3]!.run).not.toBe(runEvents[0]!.run);
  });

  it('a remote deny records the call as tool.denied by the runtime, cause-linked to the answer (Qwen Code fires no hook after it)', async () => {
    const { a, r } = await setup();
    await postHook(a.url, 'UserPromptSubmit', { ...common, hook_event_name: 'UserPromptSubmit', prompt_id: 'p9', prompt: 'Run it.' });
    const held = postHook(a.url, 'PermissionRequest', { ...common, hook_event_name: 'PermissionRequest', prompt_id: 'p9', tool_name: 'run_shell_command', tool_input: { command: 'rm -r build' } });
    const req = (await r.waitFor((es) => es.some((e) => e.type === 'attention.requested'))).find((e) => e.type === 'attention.requested')!;
    r.send(command('control.attention.respond', S, { answer: { option: 'deny' } }, { subject: req.id }));
    expect((await held).body).toBe('{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"Denied via AEP attention loop"}}}');
    const events = await r.waitFor((es) => es.some((e) => e.type === 'tool.denied'));
    const answered = events.find((e) => e.type === 'attention.answered')!;
    expect(events.find((e) => e.type === 'tool.denied')).toMatchObject({ run: req.run, cause: answered.id, subject: 'run_shell_command', data: { tool: { name: 'run_shell_command' }, by: 'runtime' } });
    // A timeout is no deny: the vendor asks its own user, and nothing is recorded for the call.
    const timedOut = await startAdapter(adapter.configure!({}) as typeof adapter, { port: 0, relay: r.url, home: tempHome(), attentionTimeoutMs: 100 });
    try {
      expect((await postHook(timedOut.url, 'PermissionRequest', { ...common, session_id: 'qs-other', hook_event_name: 'PermissionRequest', tool_name: 'ls', tool_input: {} })).body).toBe('{}');
    } finally {
      await timedOut.close();
    }
    expect(r.events().filter((e) => e.type === 'tool.denied')).toHaveLength(1);
  });

  it("Qwen Code 0.24.4's own captured session (conformance/fixtures/vendors, the lane's tool-fails run) replays into one run with one failed tool", async () => {
    const { a, r } = await setup();
    const dir = new URL('../../../conformance/fixtures/vendors/qwen-code-0.24.4/tool-fails/', import.meta.url);
    const files = readdirSync(dir).filter((f) => f.endsWith('.json') && !f.includes('PermissionRequest')).sort();
    for (const f of files) {
      const body = JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as Record<string, unknown>;
      expect((await postHook(a.url, String(body.hook_event_name), body)).body).toBe('{}');
    }
    const events = await r.waitFor((es) => es.some((e) => e.type === 'run.finished'));
    expect(events.map((e) => e.type).filter((t) => t.startsWith('run.') || t.startsWith('tool.'))).toEqual(['run.started', 'tool.requested', 'tool.failed', 'run.finished']);
  });

  it('SessionEnd frees a held PermissionRequest (dismissed) and drops queued steering', async () => {
    const { a, r } = await setup(true);
    await postHook(a.url, 'SessionStart', { ...common, hook_event_name: 'SessionStart', source: 'startup' });
    r.send(command('x.qwen-code.control.instruct', S, { text: 'prefer small commits' }));
    await r.waitFor((es) => es.some((e) => e.type === 'control.accepted'));
    const held = postHook(a.url, 'PermissionRequest', { ...common, hook_event_name: 'PermissionRequest', tool_name: 'write_file', tool_input: {} });
    await r.waitFor((es) => es.some((e) => e.type === 'attention.requested'));
    expect((await postHook(a.url, 'SessionEnd', { ...common, hook_event_name: 'SessionEnd', reason: 'other' })).body).toBe('{}');
    expect((await held).body).toBe('{}');
    const events = await r.waitFor((es) => es.some((e) => e.type === 'session.ended'));
    expect(events.map((e) => e.type).slice(-3)).toEqual(['attention.resolved', 'x.qwen-code.instruction.dropped', 'session.ended']);
  });
});
