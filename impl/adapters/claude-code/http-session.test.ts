/**
 * End to end through the recommended wiring: a whole Claude Code session POSTed to the daemon
 * at the URLs of settings.example.json (what Claude Code's http hooks do), with payloads shaped
 * like what Claude Code 2.1.197 sends (prompt_id, effort, permission_mode, duration_ms, ...) for
 * every wired hook, remote answers over a relay, and the adapter's own log checked by
 * `aep validate` (the CLI verb, in-process) and `validateStream`.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validateStream } from '../../core/stream.js';
import { main } from '../../cli/main.js';
import { fakeIo } from '../../test-utils/cli-io.js';
import { startAdapter, type RunningAdapter } from '../../adapter-kit/daemon.js';
import { command, startStubRelay, tempHome, type StubRelay } from '../../adapter-kit/test-utils/daemon-harness.js';
import { adapter } from './adapter.js';
import { WIRED } from './wiring.js';

const S = '5b0e9d2a-61c4-4f0e-9a57-2c1d3e4f5a6b';
const settings = JSON.parse(readFileSync(new URL('./settings.example.json', import.meta.url), 'utf8'));
const ALLOW = '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}';
const DENY = '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"Denied via AEP attention loop"}}}';

let daemon: RunningAdapter | null = null;
let relay: StubRelay | null = null;
afterEach(async () => {
  await daemon?.close();
  await relay?.close();
  daemon = null;
  relay = null;
});

/** POST a hook body to the path the http wiring names for `event`, on the test daemon. */
function post(base: string, event: string, body: unknown): Promise<{ status: number; body: string }> {
  const wired = settings.hooks[event]?.[0]?.hooks?.[0]?.url as string | undefined;
  const path = wired ? new URL(wired).pathname : `/hook/${event}`;
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': payload.length } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

describe('a whole Claude Code session through the http wiring', () => {
  it('every wired hook, remote answers, and a log that passes aep validate', async () => {
    relay = await startStubRelay();
    const home = tempHome();
    daemon = await startAdapter(adapter, { port: 0, relay: relay.url, token: 't', home, hostname: 'dev-box', attentionTimeoutMs: 5000 });
    await relay.waitFor(() => daemon!.relayReady());
    const base = { session_id: S, transcript_path: `/home/dev/.claude/projects/-srv-app/${S}.jsonl`, cwd: '/srv/app' };
    const turn = (prompt: string) => ({ ...base, prompt_id: prompt, permission_mode: 'default', effort: { level: 'high' } });
    const posted = new Set<string>();
    const hook = async (event: string, fields: Record<string, unknown>, reply = '{}') => {
      posted.add(event);
      const res = await post(daemon!.url, event, { ...fields, hook_event_name: event });
      expect({ event, ...res }).toEqual({ event, status: 200, body: reply });
    };
    const requests = () => relay!.events().filter((e) => e.type === 'attention.requested');
    /** A held hook answered over the relay; resolves once the reply arrived. */
    const held = async (event: string, fields: Record<string, unknown>, answer: Record<string, unknown>, reply: string) => {
      posted.add(event);
      const before = requests().length;
      const pending = post(daemon!.url, event, { ...fields, hook_event_name: event });
      await relay!.waitFor(() => requests().length > before);
      relay!.send(command('control.attention.respond', S, { answer }, { subject: requests().at(-1)!.id }));
      expect(await pending).toEqual({ status: 200, body: reply });
    };

    const P1 = '0f3c2b1a-aaaa-4bbb-8ccc-000000000001';
    await hook('SessionStart', { ...base, source: 'startup', model: 'claude-opus-4-8' });
    await hook('Setup', { ...base, trigger: 'init' });
    await hook('InstructionsLoaded', { ...base, file_path: '/srv/app/CLAUDE.md', memory_type: 'Project', load_reason: 'session_start' });
    await hook('ConfigChange', { ...base, source: 'local_settings', file_path: '/srv/app/.claude/settings.local.json' });
    await hook('UserPromptExpansion', { ...turn(P1), expansion_type: 'slash_command', command_name: 'fix', command_args: 'the sync retries', prompt: '/fix the sync retries' });
    await hook('UserPromptSubmit', { ...turn(P1), prompt: 'fix the sync retries', session_title: 'Sync retries' });
    // a Bash call allowed remotely
    const build = { command: 'npm run build', description: 'Build the project' };
    await hook('PreToolUse', { ...turn(P1), tool_name: 'Bash', tool_input: build, tool_use_id: 'toolu_b1' });
    await hook('MessageDisplay', { ...base, prompt_id: P1, turn_id: 't-1', message_id: 'm-1', index: 0, final: true, delta: 'Building first.' });
    await held('PermissionRequest', { ...turn(P1), tool_name: 'Bash', tool_input: build, permission_suggestions: [{ type: 'addDirectories', directories: ['/srv/app'], destination: 'session' }] }, { option: 'allow' }, ALLOW);
    await hook('PostToolUse', { ...turn(P1), tool_name: 'Bash', tool_input: build, tool_response: { stdout: 'ok', stderr: '', interrupted: false }, tool_use_id: 'toolu_b1', duration_ms: 812 });
    // a Bash call denied remotely: no post-tool hook follows
    const wipe = { command: 'rm -rf dist', description: 'Clean' };
    await hook('PreToolUse', { ...turn(P1), tool_name: 'Bash', tool_input: wipe, tool_use_id: 'toolu_b2' });
    await held('PermissionRequest', { ...turn(P1), tool_name: 'Bash', tool_input: wipe }, { option: 'deny' }, DENY);
    // the plan approved remotely: echoed back as updatedInput
    const plan = { plan: 'Wrap sync() in retry(3)' };
    await hook('PreToolUse', { ...turn(P1), tool_name: 'ExitPlanMode', tool_input: plan, tool_use_id: 'toolu_p1' });
    await held('PermissionRequest', { ...turn(P1), permission_mode: 'plan', tool_name: 'ExitPlanMode', tool_input: plan }, { option: 'allow' },
      '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"plan":"Wrap sync() in retry(3)"}}}}');
    await hook('PostToolUse', { ...turn(P1), tool_name: 'ExitPlanMode', tool_input: plan, tool_response: { plan: plan.plan }, tool_use_id: 'toolu_p1', duration_ms: 3 });
    // a question answered remotely
    const questions = [{ question: 'How many retries?', header: 'Retries', multiSelect: false, options: [{ label: '3' }, { label: '5' }] }];
    await hook('PreToolUse', { ...turn(P1), tool_name: 'AskUserQuestion', tool_input: { questions }, tool_use_id: 'toolu_q1' });
    await held('PermissionRequest', { ...turn(P1), tool_name: 'AskUserQuestion', tool_input: { questions } }, { values: { '1': '2' } },
      `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"questions":${JSON.stringify(questions)},"answers":{"How many retries?":"5"}}}}}`);
    await hook('PostToolUse', { ...turn(P1), tool_name: 'AskUserQuestion', tool_input: { questions, answers: { 'How many retries?': '5' } }, tool_response: {}, tool_use_id: 'toolu_q1', duration_ms: 1 });
    await hook('PostToolBatch', { ...turn(P1), tool_calls: [{ tool_name: 'AskUserQuestion', tool_input: { questions }, tool_use_id: 'toolu_q1', tool_response: '5' }] });
    // a subagent, its tool call, and an internal agent's stop
    await hook('SubagentStart', { ...turn(P1), agent_id: 'ag-7', agent_type: 'Explore' });
    await hook('PreToolUse', { ...turn(P1), agent_id: 'ag-7', agent_type: 'Explore', tool_name: 'Grep', tool_input: { pattern: 'retry' }, tool_use_id: 'toolu_g1' });
    await hook('PostToolUse', { ...turn(P1), agent_id: 'ag-7', agent_type: 'Explore', tool_name: 'Grep', tool_input: { pattern: 'retry' }, tool_response: { numFiles: 2 }, tool_use_id: 'toolu_g1', duration_ms: 40 });
    await hook('SubagentStop', { ...turn(P1), agent_id: 'ag-7', agent_type: 'Explore', agent_transcript_path: '/home/dev/.claude/ag-7.jsonl', stop_hook_active: false, last_assistant_message: 'Found 2 files.' });
    await hook('SubagentStop', { ...turn(P1), agent_id: 'ag-internal', agent_type: '', stop_hook_active: false });
    // failures and policy denials
    await hook('PreToolUse', { ...turn(P1), tool_name: 'Edit', tool_input: { file_path: '/srv/app/sync.ts' }, tool_use_id: 'toolu_e1' });
    await hook('PostToolUseFailure', { ...turn(P1), tool_name: 'Edit', tool_input: { file_path: '/srv/app/sync.ts' }, tool_use_id: 'toolu_e1', error: 'old_string not found', is_interrupt: false, duration_ms: 2 });
    await hook('PreToolUse', { ...turn(P1), tool_name: 'WebFetch', tool_input: { url: 'https://example.org' }, tool_use_id: 'toolu_w1' });
    await hook('PermissionDenied', { ...turn(P1), tool_name: 'WebFetch', tool_input: { url: 'https://example.org' }, tool_use_id: 'toolu_w1', reason: 'auto mode classifier' });
    await hook('Notification', { ...base, prompt_id: P1, message: 'Claude needs your permission', notification_type: 'permission_prompt' });
    await hook('Notification', { ...base, prompt_id: P1, message: 'Claude is waiting for your input', notification_type: 'idle_prompt' });
    await hook('TaskCreated', { ...turn(P1), task_id: 'task-1', task_subject: 'Add retries', teammate_name: 'ana', team_name: 'core' });
    await hook('TaskCompleted', { ...turn(P1), task_id: 'task-1', task_subject: 'Add retries' });
    await hook('TeammateIdle', { ...base, teammate_name: 'ana', team_name: 'core' });
    // MCP elicitation: a form settled in Claude Code's own dialog, a URL sign-in completed, one left open
    const schema = { type: 'object', properties: { region: { type: 'string', enum: ['eu', 'us'] } }, required: ['region'] };
    posted.add('Elicitation');
    const before = requests().length;
    const form = post(daemon.url, 'Elicitation', { ...turn(P1), hook_event_name: 'Elicitation', mcp_server_name: 'deployer', message: 'Pick a region', requested_schema: schema, elicitation_id: 'el-1' });
    await relay.waitFor(() => requests().length > before);
    await hook('ElicitationResult', { ...turn(P1), mcp_server_name: 'deployer', elicitation_id: 'el-1', action: 'accept', content: { region: 'eu' } });
    expect(await form).toEqual({ status: 200, body: '{}' });
    await hook('Elicitation', { ...turn(P1), mcp_server_name: 'tracker', mode: 'url', elicitation_id: 'el-2', url: 'https://tracker.example/login', message: 'Sign in' });
    await hook('ElicitationResult', { ...turn(P1), mcp_server_name: 'tracker', mode: 'url', elicitation_id: 'el-2', action: 'accept' });
    await hook('Elicitation', { ...turn(P1), mcp_server_name: 'wiki', mode: 'url', elicitation_id: 'el-3', url: 'https://wiki.example/login', message: 'Sign in' });
    await hook('CwdChanged', { ...base, prompt_id: P1, old_cwd: '/srv/app', new_cwd: '/srv/app/api' });
    await hook('FileChanged', { ...base, file_path: '/srv/app/.env', event: 'change' });
    await hook('WorktreeRemove', { ...base, worktree_path: '/srv/app-worktrees/spike' });
    await hook('PostCompact', { ...turn(P1), trigger: 'auto', compact_summary: 'Retries added.' });
    await hook('SessionStart', { ...base, source: 'compact' });
    await hook('Stop', { ...turn(P1), stop_hook_active: false, last_assistant_message: 'Done.', background_tasks: [], session_crons: [] });
    await hook('MessageDisplay', { ...base, prompt_id: P1, turn_id: 't-1', message_id: 'm-2', index: 0, final: true, delta: 'Done.' });
    // a scheduled wake-up that fails on a rate limit, then a turn cut short by the exit
    const P2 = '0f3c2b1a-aaaa-4bbb-8ccc-000000000002';
    const P3 = '0f3c2b1a-aaaa-4bbb-8ccc-000000000003';
    await hook('UserPromptSubmit', { ...turn(P2), prompt: 'check the nightly job', source: 'schedule_wakeup' });
    await hook('StopFailure', { ...turn(P2), error: 'rate_limit', error_details: '429 Too Many Requests' });
    await hook('UserPromptSubmit', { ...turn(P3), prompt: 'one more thing', source: 'user' });
    await hook('SessionEnd', { ...base, prompt_id: '0f3c2b1a-aaaa-4bbb-8ccc-000000000004', reason: 'prompt_input_exit' });

    expect(WIRED.filter((h) => !posted.has(h))).toEqual([]);
    const events = await relay.waitFor((es) => es.some((e) => e.type === 'session.ended'));
    await daemon!.flushLog!(); // the session log is written off the reply path
    const log = join(home, 'logs', 'claude-code', `${S}.jsonl`);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    expect(lines).toEqual(relay.frames.slice(1));
    // the adapter's own log passes `aep validate`
    const io = fakeIo();
    expect(await main(['validate', log], io)).toBe(0);
    expect(io.out).toBe(`${log}: ${lines.length} events, valid\n`);
    expect(validateStream(lines.map((l) => JSON.parse(l)))).toEqual([]);

    const types = events.map((e) => e.type);
    expect(types.filter((t) => t === 'session.started')).toHaveLength(1);
    expect(types.filter((t) => t === 'attention.requested')).toHaveLength(7);
    expect(types.filter((t) => t === 'attention.resolved' || t === 'attention.timeout')).toHaveLength(7);
    const denied = events.find((e) => e.type === 'tool.denied' && e.data.by === 'runtime');
    expect(denied).toMatchObject({ run: P1, data: { tool: { name: 'Bash', call_id: 'toolu_b2' } } });
    const sub = events.find((e) => e.type === 'delegation.subagent.started')!;
    expect(events.filter((e) => e.cause === sub.id).map((e) => e.type)).toEqual(['tool.requested', 'tool.completed', 'delegation.subagent.stopped']);
    expect(events.filter((e) => e.type.startsWith('run.')).map((e) => [e.type, e.run, e.data.trigger ?? e.data.by ?? e.data.reason ?? null])).toEqual([
      ['run.started', P1, 'user'],
      ['run.finished', P1, null],
      ['run.started', P2, 'schedule'],
      ['run.failed', P2, 'error'],
      ['run.started', P3, 'user'],
      ['run.cancelled', P3, 'user'],
    ]);
    expect(types.slice(-3)).toEqual(['attention.resolved', 'run.cancelled', 'session.ended']);
    expect(events[0]!.data['gen_ai.request.model']).toBe('claude-opus-4-8');
  }, 30_000);
});
