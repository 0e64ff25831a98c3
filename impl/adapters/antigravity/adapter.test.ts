/**
 * The Antigravity adapter end to end: a whole realistic conversation through the shim (the five
 * hooks, the hook name as the shim's argument, the extra fields the docs' worked examples show),
 * neutral replies byte for byte, no control block in the hello, the join, synthesized identity,
 * the log valid; then the example hooks.json commands, run exactly as written.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { validateStream } from '../../core/stream.js';
import { startAdapter, type RunningAdapter } from '../../adapter-kit/daemon.js';
import { startStubRelay, tempHome, type StubRelay } from '../../adapter-kit/test-utils/daemon-harness.js';
import { aepOnPath, runCommand, sessionLog, shimHook } from '../../test-utils/hook-command.js';
import { adapter } from './adapter.js';
import { EMPTY, EMPTY_DECISION } from './replies.js';
import { skipped, WHY } from '../../test-utils/skip.js';

const C = '0b7e5d3c-9a1f-4c2e-8d6b-5f4a3e2d1c0b';
let running: RunningAdapter | null = null;
let relay: StubRelay | null = null;
afterEach(async () => {
  await running?.close();
  await relay?.close();
  running = relay = null;
});

const base = (extra: Record<string, unknown>) => ({
  conversationId: C, workspacePaths: ['/home/mo/kestrel'], transcriptPath: `/home/mo/.gemini/antigravity-cli/brain/${C}/.system_generated/logs/transcript.jsonl`,
  artifactDirectoryPath: `/home/mo/.gemini/antigravity-cli/brain/${C}`, ...extra,
});

describe('antigravity adapter daemon', () => {
  it('byte-exact neutral replies: {"decision":""} on PreToolUse and Stop, {} elsewhere', () => {
    expect(EMPTY_DECISION).toBe('{"decision":""}');
    expect(['PreToolUse', 'PostToolUse', 'PreInvocation', 'PostInvocation', 'Stop', 'Whatever'].map((h) => adapter.neutralReply(h))).toEqual([EMPTY_DECISION, EMPTY, EMPTY, EMPTY, EMPTY_DECISION, EMPTY]);
  });

  it('a whole conversation through the shim: no control block, the stepIdx join, synthesized session and runs, the log valid', async () => {
    relay = await startStubRelay();
    const home = tempHome();
    running = await startAdapter(adapter, { port: 0, relay: relay.url, home, hostname: 'kestrel', instruct: true });
    while (!running.relayReady()) await new Promise((res) => setTimeout(res, 10));
    const hello = JSON.parse(relay.frames[0]!);
    expect(hello.capabilities.control).toBeUndefined();
    const calls: Array<[string, Record<string, unknown>, string]> = [
      ['PreInvocation', base({ invocationNum: 0, initialNumSteps: 0 }), EMPTY],
      ['PreToolUse', base({ stepIdx: 2, toolCall: { name: 'view_file', args: { AbsolutePath: '/home/mo/kestrel/go.mod' } } }), EMPTY_DECISION],
      ['PostToolUse', base({ stepIdx: 2, error: '', toolCall: null }), EMPTY],
      ['PreToolUse', base({ stepIdx: 3, toolCall: { name: 'run_command', args: { CommandLine: 'go vet ./...', Cwd: '/home/mo/kestrel', WaitMsBeforeAsync: 500 } } }), EMPTY_DECISION],
      ['PostToolUse', base({ stepIdx: 3, error: 'exit status 1' }), EMPTY],
      ['PreToolUse', base({ stepIdx: 4, toolCall: { name: 'ask_permission', args: {} } }), EMPTY_DECISION],
      ['PostInvocation', base({ invocationNum: 0, initialNumSteps: 0 }), EMPTY],
      ['PreInvocation', base({ invocationNum: 1, initialNumSteps: 5 }), EMPTY],
      ['PostToolUse', base({ stepIdx: 11, error: '' }), EMPTY],
      ['PostInvocation', base({ invocationNum: 1, initialNumSteps: 5 }), EMPTY],
      ['Stop', base({ executionNum: 1, terminationReason: 'model_stop', error: '', fullyIdle: true }), EMPTY_DECISION],
      ['PreInvocation', base({ invocationNum: 0, initialNumSteps: 6 }), EMPTY],
      ['Stop', base({ executionNum: 2, terminationReason: 'error', error: 'RESOURCE_EXHAUSTED', fullyIdle: false }), EMPTY_DECISION],
    ];
    for (const [hook, input, reply] of calls) expect(await shimHook('antigravity', hook, input, running.port)).toEqual({ code: 0, out: reply });
    const events = await relay.waitFor((es) => es.some((e) => e.type === 'run.failed'));
    const runs = [...new Set(events.map((e) => e.run).filter(Boolean))];
    expect(runs).toHaveLength(2);
    expect(events.map((e) => [e.type, e.run ? `r${runs.indexOf(e.run) + 1}` : null, e.step ?? null])).toEqual([
      ['session.started', null, null],
      ['run.started', 'r1', null],
      ['run.step.started', 'r1', '0'],
      ['tool.requested', 'r1', '0'],
      ['tool.completed', 'r1', '0'],
      ['tool.requested', 'r1', '0'],
      ['tool.failed', 'r1', '0'],
      ['tool.requested', 'r1', '0'],
      ['run.step.finished', 'r1', '0'],
      ['run.step.started', 'r1', '1'],
      ['x.antigravity.step.completed', 'r1', '1'],
      ['run.step.finished', 'r1', '1'],
      ['run.finished', 'r1', null],
      ['run.started', 'r2', null],
      ['run.step.started', 'r2', '0'],
      ['run.failed', 'r2', null],
    ]);
    expect(events.filter((e) => e.type.startsWith('attention.') || e.type === 'tool.denied' || e.type === 'session.ended')).toEqual([]);
    expect(events.find((e) => e.type === 'tool.failed')!.data).toMatchObject({ tool: { name: 'run_command' }, step_idx: 3 });
    expect(validateStream((await sessionLog(home, 'antigravity', C)).events)).toEqual([]);
  });

  it('a mid-run attach: the first invocation seen opens the run', async () => {
    const seen: Array<[string, string | undefined]> = [];
    running = await startAdapter(adapter, { port: 0, home: tempHome(), onEmit: (e) => seen.push([e.type, e.step]) });
    await shimHook('antigravity', 'PreInvocation', base({ invocationNum: 4, initialNumSteps: 9 }), running.port);
    expect(seen).toEqual([['session.started', undefined], ['run.started', undefined], ['run.step.started', '4']]);
  });

  it('tool events outside an open invocation carry no step; a Stop closes the invocation', async () => {
    const seen: Array<[string, string | undefined]> = [];
    running = await startAdapter(adapter, { port: 0, home: tempHome(), onEmit: (e) => seen.push([e.type, e.step]) });
    await shimHook('antigravity', 'PreToolUse', base({ stepIdx: 1, toolCall: { name: 'view_file', args: {} } }), running.port);
    await shimHook('antigravity', 'PreInvocation', base({ invocationNum: 2, initialNumSteps: 1 }), running.port);
    await shimHook('antigravity', 'PostToolUse', base({ stepIdx: 1, error: '' }), running.port);
    await shimHook('antigravity', 'Stop', base({ executionNum: 1, terminationReason: 'model_stop', error: '', fullyIdle: true }), running.port);
    await shimHook('antigravity', 'PreToolUse', base({ stepIdx: 5, toolCall: { name: 'list_dir', args: {} } }), running.port);
    expect(seen).toEqual([
      ['session.started', undefined], ['tool.requested', undefined], ['run.started', undefined], ['run.step.started', '2'], ['tool.completed', '2'], ['run.finished', undefined], ['tool.requested', undefined],
    ]);
  });

  it('the join is the daemon\'s, per conversation: another conversation\'s stepIdx never names a tool; a Stop forgets', async () => {
    const seen: Array<[string, string | undefined, unknown]> = [];
    running = await startAdapter(adapter, { port: 0, home: tempHome(), onEmit: (e) => seen.push([e.type, e.session, e.data?.tool ?? e.data?.failed]) });
    const other = 'a41c2f0e-77d3-4b1e-9c8a-2e6d5f4c3b2a';
    await shimHook('antigravity', 'PreToolUse', base({ stepIdx: 7, toolCall: { name: 'grep_search', args: {} } }), running.port);
    await shimHook('antigravity', 'PostToolUse', base({ conversationId: other, stepIdx: 7, error: '' }), running.port);
    await shimHook('antigravity', 'PostToolUse', base({ stepIdx: 7, error: '' }), running.port);
    await shimHook('antigravity', 'PostToolUse', base({ stepIdx: 7, error: '' }), running.port);
    await shimHook('antigravity', 'PreToolUse', base({ stepIdx: 8, toolCall: { name: 'list_dir', args: {} } }), running.port);
    await shimHook('antigravity', 'Stop', base({ executionNum: 1, terminationReason: 'model_stop', error: '', fullyIdle: true }), running.port);
    await shimHook('antigravity', 'PostToolUse', base({ stepIdx: 8, error: '' }), running.port);
    expect(seen.filter(([t]) => t.startsWith('tool.') || t.startsWith('x.'))).toEqual([
      ['tool.requested', C, { name: 'grep_search' }],
      ['x.antigravity.step.completed', other, false],
      ['tool.completed', C, { name: 'grep_search' }],
      ['x.antigravity.step.completed', C, false],
      ['tool.requested', C, { name: 'list_dir' }],
      ['x.antigravity.step.completed', C, false],
    ]);
  });

  it.skipIf(!existsSync('dist/impl/adapters/antigravity/adapter.js'))(`the example hooks.json commands run as written: exit 0 and the byte-exact neutral reply with no daemon${skipped(!existsSync('dist/impl/adapters/antigravity/adapter.js'), WHY.build)}`, async () => {
    const config = JSON.parse(readFileSync('impl/adapters/antigravity/hooks.example.json', 'utf8')) as Record<string, Record<string, unknown>>;
    const group = config['aep-observer']!;
    expect(Object.keys(group)).toEqual(['enabled', 'PreToolUse', 'PostToolUse', 'PreInvocation', 'PostInvocation', 'Stop']);
    const PATH = `${aepOnPath()}:${process.env.PATH ?? ''}`;
    for (const hook of ['PreToolUse', 'Stop', 'PostInvocation']) {
      const [entry] = group[hook] as Array<{ hooks: Array<{ command: string }> }>;
      const cmd = entry!.hooks[0]!.command;
      expect(cmd).toBe(`aep hook antigravity ${hook}`);
      const result = await runCommand('/bin/sh', ['-c', cmd], { input: JSON.stringify(base({ stepIdx: 1 })), env: { ...process.env, PATH, AEP_ANTIGRAVITY_PORT: '1' } });
      expect([result.status, result.stdout]).toEqual([0, adapter.neutralReply(hook)]);
    }
  });
});
