/**
 * The Codex adapter end to end through the kit daemon and a stub relay: hook replies asserted
 * byte for byte, identity (session_id → session, turn_id → run), the held PermissionRequest loop,
 * the interrupt drain and steering on Codex's five moments.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { validateEvent } from '../../core/envelope.js';
import { validateStream } from '../../core/stream.js';
import { startAdapter, type AdapterOptions, type RunningAdapter } from '../../adapter-kit/daemon.js';
import { command, postHook, startStubRelay, tempHome, type StubRelay } from '../../adapter-kit/test-utils/daemon-harness.js';
import { daemonOptions } from '../../adapter-kit/config.js';
import { adapter } from './adapter.js';

const S = 'thr_lark_31';
const ALLOW = '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}';
const DENY = '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"Denied via AEP attention loop"}}}';

let running: RunningAdapter | null = null;
let relay: StubRelay | null = null;

afterEach(async () => {
  const stream = relay?.frames.slice(1).map((f) => JSON.parse(f)) ?? [];
  await running?.close();
  await relay?.close();
  running = null;
  relay = null;
  expect(validateStream(stream)).toEqual([]);
});

async function setup(opts: Partial<AdapterOptions> = {}): Promise<{ a: RunningAdapter; r: StubRelay }> {
  relay = await startStubRelay();
  running = await startAdapter(adapter, { port: 0, relay: relay.url, home: tempHome(), hostname: 'lark-host', attentionTimeoutMs: 5000, ...opts });
  const deadline = Date.now() + 3000;
  while (!running.relayReady() && Date.now() < deadline) await new Promise((res) => setTimeout(res, 10));
  return { a: running, r: relay };
}

const hook = (name: string, extra: Record<string, unknown> = {}) => ({ hook_event_name: name, session_id: S, ...extra });
const ofType = (events: Record<string, any>[], type: string) => events.filter((e) => e.type === type);
const shell = { turn_id: 'turn_1', tool_name: 'shell', tool_input: { command: ['cargo', 'publish'], description: 'release the crate' } };

async function pendingRequest(r: StubRelay): Promise<Record<string, any>> {
  return ofType(await r.waitFor((es) => ofType(es, 'attention.requested').length > 0), 'attention.requested').at(-1)!;
}

describe('codex adapter daemon', () => {
  it('declares its identity and control in hello, and answers every observed hook with empty stdout', async () => {
    const { a, r } = await setup();
    const hello = JSON.parse(r.frames[0]!);
    expect(hello).toMatchObject({ type: 'hello', role: 'emitter', identity: { agent: 'codex' } });
    expect(hello.capabilities.control).toEqual({ accepts: ['control.attention.respond'], ack_window_ms: 10000 });
    expect(a.port).not.toBe(8378);
    for (const [name, extra] of [
      ['SessionStart', { source: 'startup', model: 'gpt-5.1-codex' }],
      ['UserPromptSubmit', { turn_id: 'turn_1', prompt: 'ship it' }],
      ['PreToolUse', { turn_id: 'turn_1', tool_name: 'shell', tool_use_id: 'c1', tool_input: { command: ['ls'] } }],
      ['PostToolUse', { turn_id: 'turn_1', tool_name: 'shell', tool_use_id: 'c1', tool_response: { exit_code: 2 } }],
      ['SubagentStart', { turn_id: 'turn_1', agent_id: 'sa', agent_type: 'explore' }],
      ['SubagentStop', { turn_id: 'turn_1', agent_id: 'sa' }],
      ['PreCompact', { trigger: 'auto' }],
      ['PostCompact', { trigger: 'auto' }],
      ['Stop', { turn_id: 'turn_1' }],
    ] as const) {
      expect(await postHook(a.url, name, hook(name, extra))).toEqual({ status: 200, body: '' });
    }
    const events = await r.waitFor((es) => es.length === 8);
    expect(events.map((e) => [e.type, e.run ?? null])).toEqual([
      ['session.started', null],
      ['run.started', 'turn_1'],
      ['tool.requested', 'turn_1'],
      ['tool.completed', 'turn_1'],
      ['delegation.subagent.started', 'turn_1'],
      ['delegation.subagent.stopped', 'turn_1'],
      ['session.compacted', null],
      ['run.finished', 'turn_1'],
    ]);
    expect(events.every((e) => e.session === S && e.agent === 'codex' && e.source === `aep://lark-host/agent/codex/session/${S}`)).toBe(true);
    for (const e of events) expect(validateEvent(e)).toEqual([]);
  });

  it('interrupt drain: a turn still open at the next prompt closes run.cancelled naming nobody; Interrupt names the user', async () => {
    const { a, r } = await setup();
    await postHook(a.url, 'UserPromptSubmit', hook('UserPromptSubmit', { turn_id: 'turn_a' }));
    await postHook(a.url, 'UserPromptSubmit', hook('UserPromptSubmit', { turn_id: 'turn_b' }));
    await postHook(a.url, 'Stop', hook('Stop', { turn_id: 'turn_b' }));
    await postHook(a.url, 'UserPromptSubmit', hook('UserPromptSubmit', { turn_id: 'turn_c' }));
    await postHook(a.url, 'Interrupt', hook('Interrupt', { turn_id: 'turn_c' }));
    await postHook(a.url, 'UserPromptSubmit', hook('UserPromptSubmit', { turn_id: 'turn_d' }));
    await postHook(a.url, 'Interrupt', hook('Interrupt', { turn_id: 'turn_c' }));
    const events = await r.waitFor((es) => es.length === 7);
    await new Promise((res) => setTimeout(res, 30));
    expect(events.map((e) => [e.type, e.run, e.data])).toEqual([
      ['run.started', 'turn_a', { trigger: 'user' }],
      ['run.cancelled', 'turn_a', {}],
      ['run.started', 'turn_b', { trigger: 'user' }],
      ['run.finished', 'turn_b', {}],
      ['run.started', 'turn_c', { trigger: 'user' }],
      ['run.cancelled', 'turn_c', { by: 'user' }],
      ['run.started', 'turn_d', { trigger: 'user' }],
    ]);
    expect(r.events()).toHaveLength(7);
  });

  it('the hold window defaults to 20 s for Codex, and AEP_CODEX_HOLD_MS / AEP_ATTENTION_TIMEOUT_MS override it', () => {
    expect(adapter.holdMs).toBe(20_000);
    expect(daemonOptions('codex', 8378, {}, {}, adapter.holdMs)).toMatchObject({ attentionTimeoutMs: 20_000 });
    expect(daemonOptions('codex', 8378, {}, { AEP_ATTENTION_TIMEOUT_MS: '45000' }, adapter.holdMs)).toMatchObject({ attentionTimeoutMs: 45_000 });
    expect(daemonOptions('codex', 8378, {}, { AEP_ATTENTION_TIMEOUT_MS: '45000', AEP_CODEX_HOLD_MS: '8000' }, adapter.holdMs)).toMatchObject({ attentionTimeoutMs: 8_000 });
  });

  it('SessionEnd and Interrupt (Codex gives them at most 3 s) answer at once, even with requests held', async () => {
    const { a, r } = await setup({ attentionTimeoutMs: 60_000 });
    await postHook(a.url, 'UserPromptSubmit', hook('UserPromptSubmit', { turn_id: 'turn_1' }));
    const held = postHook(a.url, 'PermissionRequest', hook('PermissionRequest', shell));
    await pendingRequest(r);
    let started = Date.now();
    expect(await postHook(a.url, 'Interrupt', hook('Interrupt', { turn_id: 'turn_1', model: 'gpt-5.3-codex', permission_mode: 'default' }))).toEqual({ status: 200, body: '' });
    expect(Date.now() - started).toBeLessThan(500);
    expect((await held).body).toBe('');
    await postHook(a.url, 'UserPromptSubmit', hook('UserPromptSubmit', { turn_id: 'turn_2' }));
    const held2 = postHook(a.url, 'PermissionRequest', hook('PermissionRequest', { ...shell, turn_id: 'turn_2' }));
    await r.waitFor((es) => ofType(es, 'attention.requested').length === 2);
    started = Date.now();
    expect(await postHook(a.url, 'SessionEnd', hook('SessionEnd', { reason: 'other' }))).toEqual({ status: 200, body: '' });
    expect(Date.now() - started).toBeLessThan(500);
    expect((await held2).body).toBe('');
    const events = await r.waitFor((es) => ofType(es, 'session.ended').length === 1);
    expect(events.map((e) => [e.type, e.run ?? null, e.data.resolution ?? e.data.by ?? e.data.reason ?? null])).toEqual([
      ['run.started', 'turn_1', null],
      ['attention.requested', 'turn_1', null],
      ['attention.resolved', 'turn_1', 'dismissed'],
      ['run.cancelled', 'turn_1', 'user'],
      ['run.started', 'turn_2', null],
      ['attention.requested', 'turn_2', null],
      ['attention.resolved', 'turn_2', 'dismissed'],
      ['run.cancelled', 'turn_2', null],
      ['session.ended', null, 'normal'],
    ]);
  });

  it('a remote deny closes the denied call: tool.denied{by:"runtime"} with the PreToolUse call_id, cause-linked to the answer', async () => {
    const { a, r } = await setup();
    const bash = { turn_id: 'turn_1', tool_name: 'Bash', model: 'gpt-5.3-codex', permission_mode: 'default', transcript_path: null };
    await postHook(a.url, 'UserPromptSubmit', hook('UserPromptSubmit', { turn_id: 'turn_1', prompt: 'release' }));
    await postHook(a.url, 'PreToolUse', hook('PreToolUse', { ...bash, tool_use_id: 'call_other', tool_input: { command: 'git status' } }));
    await postHook(a.url, 'PreToolUse', hook('PreToolUse', { ...bash, tool_use_id: 'call_pub', tool_input: { command: 'cargo publish' } }));
    const reply = postHook(a.url, 'PermissionRequest', hook('PermissionRequest', { ...bash, tool_input: { command: 'cargo publish', description: 'release the crate' } }));
    const req = await pendingRequest(r);
    r.send(command('control.attention.respond', S, { answer: { option: 'deny' } }, { subject: req.id }));
    expect((await reply).body).toBe(DENY);
    const events = await r.waitFor((es) => ofType(es, 'tool.denied').length === 1);
    const [answered] = ofType(events, 'attention.answered');
    const [denied] = ofType(events, 'tool.denied');
    expect(denied).toMatchObject({ run: 'turn_1', subject: 'Bash', cause: answered!.id, data: { tool: { name: 'Bash', call_id: 'call_pub' }, by: 'runtime' } });
    expect(Object.keys(denied!.data).sort()).toEqual(['by', 'tool']);
  });

  it('an escalated apply_patch run through exec_command: the deny closes the turn\'s open Bash call (PreToolUse Bash, PermissionRequest apply_patch)', async () => {
    const { a, r } = await setup();
    const patch = "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: notes.md\n+hi\n*** End Patch\nEOF";
    await postHook(a.url, 'UserPromptSubmit', hook('UserPromptSubmit', { turn_id: 'turn_1', prompt: 'write notes' }));
    await postHook(a.url, 'PreToolUse', hook('PreToolUse', { turn_id: 'turn_1', tool_name: 'Bash', tool_use_id: 'call_patch', tool_input: { command: patch } }));
    const reply = postHook(a.url, 'PermissionRequest', hook('PermissionRequest', { turn_id: 'turn_1', tool_name: 'apply_patch', tool_input: { patch: '*** Begin Patch\n*** Add File: notes.md\n+hi\n*** End Patch', description: 'add notes' } }));
    const req = await pendingRequest(r);
    r.send(command('control.attention.respond', S, { answer: { option: 'deny' } }, { subject: req.id }));
    expect((await reply).body).toBe(DENY);
    const events = await r.waitFor((es) => ofType(es, 'tool.denied').length === 1);
    const [answered] = ofType(events, 'attention.answered');
    const [denied] = ofType(events, 'tool.denied');
    expect(denied).toMatchObject({ run: 'turn_1', subject: 'Bash', cause: answered!.id, data: { tool: { name: 'Bash', call_id: 'call_patch' }, by: 'runtime', requested_tool: 'apply_patch' } });
    // the call is closed: a late PostToolUse of it adds no second terminal
    await postHook(a.url, 'PostToolUse', hook('PostToolUse', { turn_id: 'turn_1', tool_name: 'Bash', tool_use_id: 'call_patch', tool_input: { command: patch }, tool_response: '' }));
    await postHook(a.url, 'Stop', hook('Stop', { turn_id: 'turn_1' }));
    const all = await r.waitFor((es) => ofType(es, 'run.finished').length === 1);
    expect(ofType(all, 'tool.completed')).toEqual([]);
  });

  it('each PostToolUse terminal carries its call_id and cause-links its own tool.requested, in any order', async () => {
    const { a, r } = await setup();
    const bash = { turn_id: 'turn_1', tool_name: 'Bash' };
    await postHook(a.url, 'UserPromptSubmit', hook('UserPromptSubmit', { turn_id: 'turn_1', prompt: 'two' }));
    await postHook(a.url, 'PreToolUse', hook('PreToolUse', { ...bash, tool_use_id: 'c_a', tool_input: { command: 'a' } }));
    await postHook(a.url, 'PreToolUse', hook('PreToolUse', { ...bash, tool_use_id: 'c_b', tool_input: { command: 'b' } }));
    await postHook(a.url, 'PostToolUse', hook('PostToolUse', { ...bash, tool_use_id: 'c_b', tool_input: { command: 'b' }, tool_response: '' }));
    await postHook(a.url, 'PostToolUse', hook('PostToolUse', { ...bash, tool_use_id: 'c_a', tool_input: { command: 'a' }, tool_response: '' }));
    const events = await r.waitFor((es) => ofType(es, 'tool.completed').length === 2);
    const req = new Map(ofType(events, 'tool.requested').map((e) => [e.data.tool.call_id, e.id]));
    expect(ofType(events, 'tool.completed').map((e) => [e.data.tool.call_id, e.cause])).toEqual([['c_b', req.get('c_b')], ['c_a', req.get('c_a')]]);
  });

  it('parallel calls of one tool: a PostToolUse dismisses the held request of its own call only (the request adds description)', async () => {
    const { a, r } = await setup({ attentionTimeoutMs: 60_000 });
    const bash = { turn_id: 'turn_1', tool_name: 'Bash' };
    await postHook(a.url, 'UserPromptSubmit', hook('UserPromptSubmit', { turn_id: 'turn_1', prompt: 'test and lint' }));
    await postHook(a.url, 'PreToolUse', hook('PreToolUse', { ...bash, tool_use_id: 'call_test', tool_input: { command: 'npm test' } }));
    await postHook(a.url, 'PreToolUse', hook('PreToolUse', { ...bash, tool_use_id: 'call_lint', tool_input: { command: 'npm run lint' } }));
    const heldTest = postHook(a.url, 'PermissionRequest', hook('PermissionRequest', { ...bash, tool_input: { command: 'npm test', description: 'run the tests' } }));
    await r.waitFor((es) => ofType(es, 'attention.requested').length === 1);
    const heldLint = postHook(a.url, 'PermissionRequest', hook('PermissionRequest', { ...bash, tool_input: { command: 'npm run lint', description: 'lint' } }));
    const [reqTest, reqLint] = ofType(await r.waitFor((es) => ofType(es, 'attention.requested').length === 2), 'attention.requested');
    expect(await postHook(a.url, 'PostToolUse', hook('PostToolUse', { ...bash, tool_use_id: 'call_lint', tool_input: { command: 'npm run lint' }, tool_response: '' }))).toEqual({ status: 200, body: '' });
    expect((await heldLint).body).toBe('');
    const resolved = ofType(await r.waitFor((es) => ofType(es, 'tool.completed').length === 1), 'attention.resolved');
    expect(resolved.map((e) => [e.subject, e.data.resolution])).toEqual([[reqLint!.id, 'dismissed']]);
    // the other call's request is still held, and still answerable
    r.send(command('control.attention.respond', S, { answer: { option: 'allow' } }, { subject: reqTest!.id }));
    expect((await heldTest).body).toBe(ALLOW);
  });

  it('allow: acked, answered, resolved (cause-linked, on the turn), and the exact allow reply', async () => {
    const { a, r } = await setup();
    const reply = postHook(a.url, 'PermissionRequest', hook('PermissionRequest', shell));
    const req = await pendingRequest(r);
    expect(req).toMatchObject({ run: 'turn_1', subject: 'shell', capture: 'redacted', severity: 'notice' });
    expect(req.data.prompt).toBe('Permission requested: shell — cargo publish (release the crate)');
    const cmd = command('control.attention.respond', S, { answer: { option: 'allow' } }, { subject: req.id });
    r.send(cmd);
    expect((await reply).body).toBe(ALLOW);
    const events = await r.waitFor((es) => ofType(es, 'attention.resolved').length === 1);
    expect(events.map((e) => [e.type, e.cause ?? null])).toEqual([
      ['attention.requested', null],
      ['control.accepted', cmd.id],
      ['attention.answered', cmd.id],
      ['attention.resolved', events[2]!.id],
    ]);
    expect(events[2]).toMatchObject({ subject: req.id, run: 'turn_1', data: { answer: { option: 'allow' }, via: 'control' } });
  });

  it('deny, an option word as text, and guidance text each give their exact reply', async () => {
    const { a, r } = await setup();
    const answers: Array<[Record<string, unknown>, string]> = [
      [{ option: 'deny' }, DENY],
      [{ text: ' Allow ' }, ALLOW],
      [{ text: 'publish to the staging registry instead' }, '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"publish to the staging registry instead"}}}'],
    ];
    for (const [answer, expected] of answers) {
      const before = ofType(r.events(), 'attention.requested').length;
      const reply = postHook(a.url, 'PermissionRequest', hook('PermissionRequest', shell));
      await r.waitFor((es) => ofType(es, 'attention.requested').length === before + 1);
      r.send(command('control.attention.respond', S, { answer }, { subject: ofType(r.events(), 'attention.requested').at(-1)!.id }));
      expect((await reply).body).toBe(expected);
    }
    const answered = ofType(await r.waitFor((es) => ofType(es, 'attention.answered').length === 3), 'attention.answered');
    expect(answered.map((e) => e.data.answer)).toEqual([{ option: 'deny' }, { option: 'allow' }, { option: 'deny', text: 'publish to the staging registry instead' }]);
  });

  it('timeout frees the hook with empty stdout (Codex shows its own prompt)', async () => {
    const { a, r } = await setup({ attentionTimeoutMs: 80 });
    expect((await postHook(a.url, 'PermissionRequest', hook('PermissionRequest', shell))).body).toBe('');
    const [timeout] = ofType(await r.waitFor((es) => ofType(es, 'attention.timeout').length === 1), 'attention.timeout');
    expect(timeout).toMatchObject({ run: 'turn_1', data: { after_ms: 80 } });
  });

  it('control.cancel is not accepted: nacked unsupported', async () => {
    const { r } = await setup();
    const cancel = command('control.cancel', S, {}, { run: 'turn_1' });
    r.send(cancel);
    const [nack] = ofType(await r.waitFor((es) => ofType(es, 'control.rejected').length === 1), 'control.rejected');
    expect(nack).toMatchObject({ cause: cancel.id, run: 'turn_1', data: { reason: 'unsupported' } });
  });

  it('steering rides additionalContext on the five documented moments only, never on a held reply', async () => {
    const moments = ['SessionStart', 'SubagentStart', 'PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'PermissionRequest', 'SessionEnd'];
    expect(moments.filter((m) => adapter.steerable(m)).sort()).toEqual(['PostToolUse', 'PreToolUse', 'SessionStart', 'SubagentStart', 'UserPromptSubmit']);
    const { a, r } = await setup({ instruct: true });
    expect(JSON.parse(r.frames[0]!).capabilities.control.accepts).toEqual(['control.attention.respond', 'x.codex.control.instruct']);
    const cmd = command('x.codex.control.instruct', S, { text: 'Run clippy before publishing.' });
    r.send(cmd);
    await r.waitFor((es) => ofType(es, 'control.accepted').length === 1);
    expect((await postHook(a.url, 'Stop', hook('Stop', { turn_id: 'turn_1' }))).body).toBe('');
    expect((await postHook(a.url, 'SubagentStop', hook('SubagentStop', { turn_id: 'turn_1' }))).body).toBe('');
    const reply = await postHook(a.url, 'SubagentStart', hook('SubagentStart', { turn_id: 'turn_1', agent_id: 'sa' }));
    expect(reply.body).toBe('{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"Run clippy before publishing."}}');
    const [delivered] = ofType(await r.waitFor((es) => ofType(es, 'x.codex.instruction.delivered').length === 1), 'x.codex.instruction.delivered');
    expect(delivered).toMatchObject({ cause: cmd.id, session: S });
    expect((await postHook(a.url, 'PreToolUse', hook('PreToolUse', { tool_name: 'shell', tool_input: {} }))).body).toBe('');
  });

  it('a hook without a session_id is answered neutrally and emits nothing', async () => {
    const { a, r } = await setup();
    expect((await postHook(a.url, 'SessionStart', { hook_event_name: 'SessionStart' })).body).toBe('');
    await new Promise((res) => setTimeout(res, 30));
    expect(r.events()).toEqual([]);
  });
});
