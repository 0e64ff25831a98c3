/**
 * The Cline adapter end to end: a whole realistic session through the shim with every one of the
 * ten subprocess hooks (and the extra base fields the SDK sends), `{}` replies byte for byte,
 * per-agent minted runs, the iteration step, the delegation pair on the parent run, the log valid.
 * Then the example hooks directory, executed as Cline executes it.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validateStream } from '../../core/stream.js';
import { startAdapter, type RunningAdapter } from '../../adapter-kit/daemon.js';
import { startStubRelay, tempHome, type StubRelay } from '../../adapter-kit/test-utils/daemon-harness.js';
import { aepOnPath, runCommand, sessionLog, shimHook } from '../../test-utils/hook-command.js';
import { adapter } from './adapter.js';
import { skipped, WHY } from '../../test-utils/skip.js';

const S = 'task_wren_8';
let running: RunningAdapter | null = null;
let relay: StubRelay | null = null;
afterEach(async () => {
  await running?.close();
  await relay?.close();
  running = relay = null;
});

const base = (hookName: string, extra: Record<string, unknown> = {}) => ({
  clineVersion: '3.0.65', hookName, timestamp: '1764583200000', taskId: S, workspaceRoots: ['/home/lee/wren'], userId: 'usr_lee',
  agent_id: 'agent_root', parent_agent_id: null, conversationId: S, model: { provider: 'openrouter', slug: 'qwen3-coder' },
  workspaceInfo: { rootPath: '/home/lee/wren', latestGitCommitHash: '9f8e7d6', latestGitBranchName: 'main' }, sessionContext: { mode: 'act' }, ...extra,
});
const ofType = (es: Record<string, any>[], t: string) => es.filter((e) => e.type === t);

describe('cline adapter daemon', () => {
  it('a whole session through the shim: ten hooks, {} replies, minted runs per agent, the log valid', async () => {
    relay = await startStubRelay();
    const home = tempHome();
    running = await startAdapter(adapter, { port: 0, relay: relay.url, home, hostname: 'wren-host' });
    while (!running.relayReady()) await new Promise((res) => setTimeout(res, 10));
    expect(JSON.parse(relay.frames[0]!).capabilities.control).toEqual({ accepts: [], ack_window_ms: 10000 });
    const child = { agent_id: 'agent_sub', parent_agent_id: 'agent_root' };
    const calls: Array<[string, unknown]> = [
      ['TaskStart', base('agent_start', { taskStart: { taskMetadata: { taskId: S } } })],
      ['UserPromptSubmit', base('prompt_submit', { iteration: 0 })],
      ['PreToolUse', base('tool_call', { iteration: 1, tool_call: { id: 'call_a', name: 'read_file', input: { path: 'src/wren.ts' } } })],
      ['PostToolUse', base('tool_result', { iteration: 1, tool_result: { id: 'call_a', name: 'read_file', input: {}, output: 'export const wren = 1', durationMs: 12, startedAt: 'a', endedAt: 'b' } })],
      ['TaskStart', base('agent_start', child)],
      ['PreToolUse', base('tool_call', { ...child, iteration: 1, tool_call: { id: 'call_b', name: 'execute_command', input: { command: 'npm test' } } })],
      ['PostToolUse', base('tool_result', { ...child, iteration: 1, tool_result: { id: 'call_b', name: 'execute_command', input: {}, output: null, error: 'exit 1', durationMs: 900 } })],
      ['TaskError', base('agent_error', { ...child, iteration: 1, error: { name: 'ToolError', message: 'tests failed' } })],
      ['PreCompact', base('pre_compact', { preCompact: { contextSize: 99000, compactionStrategy: 'truncate-middle', tokensIn: 80000, tokensOut: 2000, contextJsonPath: '/tmp/c.json' } })],
      ['TaskComplete', base('agent_end', { iteration: 3 })],
      ['TaskResume', base('agent_resume', { taskResume: { previousState: {} } })],
      ['TaskCancel', base('agent_abort', { reason: 'user closed the panel' })],
      ['SessionShutdown', base('session_shutdown', { reason: 'exit' })],
    ];
    for (const [hook, input] of calls) expect(await shimHook('cline', hook, input, running.port)).toEqual({ code: 0, out: '{}' });
    const events = await relay.waitFor((es) => es.some((e) => e.type === 'session.ended'));
    const [root1, sub, root2] = ofType(events, 'run.started');
    expect(events.map((e) => [e.type, e.run === root1!.run ? 'root1' : e.run === sub!.run ? 'sub' : e.run === root2!.run ? 'root2' : e.run ?? null, e.step ?? null])).toEqual([
      ['run.started', 'root1', null],
      ['x.cline.prompt.submitted', 'root1', '0'],
      ['tool.requested', 'root1', '1'],
      ['tool.completed', 'root1', '1'],
      ['delegation.subagent.started', 'root1', null],
      ['run.started', 'sub', null],
      ['tool.requested', 'sub', '1'],
      ['tool.failed', 'sub', '1'],
      ['run.failed', 'sub', '1'],
      ['delegation.subagent.stopped', 'root1', null],
      ['session.compacted', null, null],
      ['run.finished', 'root1', '3'],
      ['run.started', 'root2', null],
      ['run.cancelled', 'root2', null],
      ['session.ended', null, null],
    ]);
    expect(new Set([root1!.run, sub!.run, root2!.run]).size).toBe(3);
    expect(ofType(events, 'x.cline.prompt.submitted')[0]!.severity).toBe('debug');
    expect(ofType(events, 'run.failed')[0]!.data).toEqual({ reason: 'ToolError', error: { type: 'ToolError' } });
    expect(validateStream((await sessionLog(home, 'cline', S)).events)).toEqual([]);
  });

  it.skipIf(!existsSync('dist/impl/adapters/cline/adapter.js'))(`the example hooks directory runs as Cline runs it: exit 0, {} with no daemon; the event with one${skipped(!existsSync('dist/impl/adapters/cline/adapter.js'), WHY.build)}`, async () => {
    const dir = join('impl', 'adapters', 'cline', 'hooks');
    const names = readdirSync(dir).sort();
    expect(names).toEqual(['PostToolUse', 'PreCompact', 'PreToolUse', 'SessionShutdown', 'TaskCancel', 'TaskComplete', 'TaskError', 'TaskResume', 'TaskStart', 'UserPromptSubmit']);
    const PATH = `${aepOnPath()}:${process.env.PATH ?? ''}`;
    const dead = await runCommand(join(dir, 'PreToolUse'), [], { input: JSON.stringify(base('tool_call')), env: { ...process.env, PATH, AEP_CLINE_PORT: '1' } });
    expect([dead.status, dead.stdout]).toEqual([0, '{}']);
    const seen: string[] = [];
    running = await startAdapter(adapter, { port: 0, home: tempHome(), onEmit: (e) => seen.push(e.type) });
    const live = await runCommand(join(dir, 'TaskStart'), [], { input: JSON.stringify(base('agent_start')), env: { ...process.env, PATH, AEP_CLINE_PORT: String(running.port) } });
    expect([live.status, live.stdout]).toEqual([0, '{}']);
    expect(seen).toEqual(['run.started']);
  });

  it('a hook without a taskId is answered {} and emits nothing', async () => {
    const seen: string[] = [];
    running = await startAdapter(adapter, { port: 0, home: tempHome(), onEmit: (e) => seen.push(e.type) });
    expect(await shimHook('cline', 'TaskStart', { hookName: 'agent_start' }, running.port)).toEqual({ code: 0, out: '{}' });
    expect(seen).toEqual([]);
  });
});
