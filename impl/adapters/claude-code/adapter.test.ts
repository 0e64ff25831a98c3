/**
 * The Claude Code adapter end to end through the kit daemon and a stub relay: hook replies are
 * asserted byte for byte, events in order with their cause links.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validateEvent } from '../../core/envelope.js';
import { validateStream } from '../../core/stream.js';
import { startAdapter, type AdapterOptions, type RunningAdapter } from '../../adapter-kit/daemon.js';
import { command, postHook, startStubRelay, tempHome, type StubRelay } from '../../adapter-kit/test-utils/daemon-harness.js';
import { adapter } from './adapter.js';

const S = 'cc_t1';
const ALLOW = '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}';
const DENY = '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"Denied via AEP attention loop"}}}';

let running: RunningAdapter | null = null;
let relay: StubRelay | null = null;
let home = '';

afterEach(async () => {
  await running?.close();
  // Every scenario's durable record (the session log, what `aep validate` reads) is a valid AEP stream.
  const log = home ? join(home, 'logs', 'claude-code', `${S}.jsonl`) : '';
  const stream = log && existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : [];
  home = '';
  await relay?.close();
  running = null;
  relay = null;
  expect(validateStream(stream)).toEqual([]);
});

async function setup(opts: Partial<AdapterOptions> = {}): Promise<{ a: RunningAdapter; r: StubRelay; home: string }> {
  relay = await startStubRelay();
  home = tempHome();
  running = await startAdapter(adapter, { port: 0, relay: relay.url, token: 'tok-1', home, hostname: 'test-host', attentionTimeoutMs: 5000, ...opts });
  await relay.waitFor(() => running!.relayReady() || false).catch(() => undefined);
  return { a: running, r: relay, home };
}

const hook = (name: string, extra: Record<string, unknown> = {}) => ({ hook_event_name: name, session_id: S, cwd: '/tmp/w', ...extra });
const ofType = (events: Record<string, any>[], type: string) => events.filter((e) => e.type === type);
const bash = { tool_name: 'Bash', tool_input: { command: 'make deploy', description: 'ship it' } };

async function pendingRequest(r: StubRelay): Promise<Record<string, any>> {
  const events = await r.waitFor((es) => ofType(es, 'attention.requested').length > 0);
  return ofType(events, 'attention.requested').at(-1)!;
}

describe('claude-code adapter daemon', () => {
  it('says hello with identity and control, reports relay readiness, logs and sends every event', async () => {
    const { a, r, home } = await setup();
    const hello = JSON.parse(r.frames[0]!);
    expect(hello).toMatchObject({ type: 'hello', versions: ['0.1'], role: 'emitter', identity: { agent: 'claude-code' } });
    expect(hello.capabilities.control).toEqual({ accepts: ['control.attention.respond'], ack_window_ms: 10000 });
    expect(r.authorization()).toBe('Bearer tok-1');
    const health = await fetch(`${a.url}/healthz`).then((res) => res.text());
    expect(health).toBe('{"ok":true,"adapter":"claude-code","relay":true}');

    expect(await postHook(a.url, 'SessionStart', hook('SessionStart', { source: 'startup' }))).toEqual({ status: 200, body: '{}' });
    expect((await postHook(a.url, 'UserPromptSubmit', hook('UserPromptSubmit', { prompt: 'hi' }))).body).toBe('{}');
    await postHook(a.url, 'PreToolUse', hook('PreToolUse', { tool_name: 'Read', tool_use_id: 'tu1', tool_input: { file_path: '/x' } }));
    await postHook(a.url, 'Stop', hook('Stop'));
    const events = await r.waitFor((es) => es.length === 4);
    expect(events.map((e) => e.type)).toEqual(['session.started', 'run.started', 'tool.requested', 'run.finished']);
    expect(events.map((e) => e.seq)).toEqual([0, 1, 2, 3]);
    expect(events.every((e) => e.epoch === a.epoch && e.session === S && e.source === `aep://test-host/agent/claude-code/session/${S}`)).toBe(true);
    expect(events[0]!.run).toBeUndefined();
    expect(events[1]!.run).toBeTypeOf('string');
    expect(events[2]!.run).toBe(events[1]!.run);
    expect(events[3]!.run).toBe(events[1]!.run);
    for (const e of events) expect(validateEvent(e)).toEqual([]);
    await a.flushLog!(); // the session log is written off the reply path
    const log = readFileSync(join(home, 'logs', 'claude-code', `${S}.jsonl`), 'utf8').trim().split('\n');
    expect(log).toEqual(r.frames.slice(1));
  });

  it('queues events in the outbox until the relay hello, and reports relay:false without one', async () => {
    const home = tempHome();
    running = await startAdapter(adapter, { port: 0, home, hostname: 'h' });
    expect(await fetch(`${running.url}/healthz`).then((res) => res.text())).toBe('{"ok":true,"adapter":"claude-code","relay":false}');
    expect((await postHook(running.url, 'SessionStart', hook('SessionStart'))).body).toBe('{}');
    await running.flushLog!();
    expect(readFileSync(join(home, 'logs', 'claude-code', `${S}.jsonl`), 'utf8')).toContain('"session.started"');
  });

  it('bumps the persisted epoch at each start', async () => {
    const home = tempHome();
    const first = await startAdapter(adapter, { port: 0, home });
    await first.close();
    const second = await startAdapter(adapter, { port: 0, home });
    await second.close();
    expect(second.epoch).toBe(first.epoch + 1);
  });

  it('allow: acked, answered, resolved (cause-linked), and the exact allow reply', async () => {
    const { a, r } = await setup();
    const reply = postHook(a.url, 'PermissionRequest', hook('PermissionRequest', bash));
    const req = await pendingRequest(r);
    expect(req.data).toEqual({ kind: 'permission', prompt: 'Permission requested: Bash — make deploy (ship it)', options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }], respond_via: ['control'] });
    expect(req.capture).toBe('redacted');
    const cmd = command('control.attention.respond', S, { answer: { option: 'allow' } }, { subject: req.id, cause: req.id });
    r.send(cmd);
    expect((await reply).body).toBe(ALLOW);
    const events = await r.waitFor((es) => ofType(es, 'attention.resolved').length === 1);
    const [ack] = ofType(events, 'control.accepted');
    const [answered] = ofType(events, 'attention.answered');
    const [resolved] = ofType(events, 'attention.resolved');
    expect(ack).toMatchObject({ cause: cmd.id, data: {} });
    expect(answered).toMatchObject({ subject: req.id, cause: cmd.id, data: { answer: { option: 'allow' }, via: 'control' } });
    expect(resolved).toMatchObject({ subject: req.id, cause: answered!.id, data: { resolution: 'answered' } });
    expect(events.map((e) => e.type).slice(-4)).toEqual(['attention.requested', 'control.accepted', 'attention.answered', 'attention.resolved']);
    for (const e of events) expect(validateEvent(e)).toEqual([]);
  });

  it('deny: the canned deny message', async () => {
    const { a, r } = await setup();
    const reply = postHook(a.url, 'PermissionRequest', hook('PermissionRequest', bash));
    const req = await pendingRequest(r);
    r.send(command('control.attention.respond', S, { answer: { option: 'deny' } }, { subject: req.id }));
    expect((await reply).body).toBe(DENY);
  });

  it('an option word sent as text is that option (and records no text)', async () => {
    const { a, r } = await setup();
    const reply = postHook(a.url, 'PermissionRequest', hook('PermissionRequest', bash));
    const req = await pendingRequest(r);
    r.send(command('control.attention.respond', S, { answer: { text: '  ALLOW ' } }, { subject: req.id }));
    expect((await reply).body).toBe(ALLOW);
    const [answered] = ofType(await r.waitFor((es) => ofType(es, 'attention.answered').length === 1), 'attention.answered');
    expect(answered!.data.answer).toEqual({ option: 'allow' });
  });

  it('other text is a deny carrying the text as guidance; text never grants', async () => {
    const { a, r } = await setup();
    const reply = postHook(a.url, 'PermissionRequest', hook('PermissionRequest', bash));
    const req = await pendingRequest(r);
    r.send(command('control.attention.respond', S, { answer: { text: 'allow it but use --dry-run first' } }, { subject: req.id }));
    expect((await reply).body).toBe('{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"allow it but use --dry-run first"}}}');
    const [answered] = ofType(await r.waitFor((es) => ofType(es, 'attention.answered').length === 1), 'attention.answered');
    expect(answered!.data.answer).toEqual({ option: 'deny', text: 'allow it but use --dry-run first' });
  });

  it('timeout: attention.timeout and the neutral reply (fail open)', async () => {
    const { a, r } = await setup({ attentionTimeoutMs: 120 });
    const started = Date.now();
    const reply = await postHook(a.url, 'PermissionRequest', hook('PermissionRequest', bash));
    expect(reply.body).toBe('{}');
    expect(Date.now() - started).toBeLessThan(2000);
    const events = await r.waitFor((es) => ofType(es, 'attention.timeout').length === 1);
    const req = ofType(events, 'attention.requested')[0]!;
    expect(ofType(events, 'attention.timeout')[0]).toMatchObject({ subject: req.id, cause: req.id, data: { after_ms: 120 } });
  });

  it('a retransmitted command gets one decision, re-acked byte-identically', async () => {
    const { a, r } = await setup();
    const reply = postHook(a.url, 'PermissionRequest', hook('PermissionRequest', bash));
    const req = await pendingRequest(r);
    const cmd = command('control.attention.respond', S, { answer: { option: 'deny' } }, { subject: req.id });
    r.send(cmd);
    expect((await reply).body).toBe(DENY);
    await r.waitFor((es) => ofType(es, 'attention.resolved').length === 1);
    r.send(cmd);
    await r.waitFor((es) => ofType(es, 'control.accepted').length === 2);
    const acks = r.frames.filter((f) => f.includes('"control.accepted"'));
    expect(acks).toHaveLength(2);
    expect(acks[1]).toBe(acks[0]);
    expect(ofType(r.events(), 'attention.answered')).toHaveLength(1);
  });

  it('an unknown request id is rejected (invalid); an undeclared type is nacked unsupported', async () => {
    const { r } = await setup();
    const unknown = command('control.attention.respond', S, { answer: { option: 'allow' } }, { subject: '01JZZZZZZZZZZZZZZZZZZZZZZZ' });
    const pause = command('control.pause', S, {});
    r.send(unknown);
    r.send(pause);
    const events = await r.waitFor((es) => ofType(es, 'control.rejected').length === 2);
    const [first, second] = ofType(events, 'control.rejected');
    expect(first).toMatchObject({ cause: unknown.id, data: { reason: 'invalid' } });
    expect(second).toMatchObject({ cause: pause.id, data: { reason: 'unsupported' } });
    expect(first!.data.detail).toBeUndefined(); // detail is redacted-class; the ceiling is metadata
  });

  it('at a redacted ceiling a rejection carries its detail', async () => {
    const { r } = await setup({ posture: { ceiling: 'redacted', attention: 'redacted' } });
    r.send(command('control.attention.respond', S, { answer: { option: 'allow' } }, { subject: 'nope' }));
    const [nack] = ofType(await r.waitFor((es) => ofType(es, 'control.rejected').length === 1), 'control.rejected');
    expect(nack).toMatchObject({ capture: 'redacted', data: { reason: 'invalid' } });
    expect(nack!.data.detail).toMatch(/no pending attention request 'nope'/);
  });

  it('AskUserQuestion: one form; an invalid answer is nacked and stays pending; a valid one answers with updatedInput', async () => {
    const { a, r } = await setup();
    const questions = [
      { question: 'Which envs?', header: 'Envs', multiSelect: true, options: [{ label: 'staging' }, { label: 'prod' }, { label: 'dev' }] },
      { question: 'Flag name?', header: 'Flag', multiSelect: false, options: [{ label: 'retry_v2' }] },
    ];
    const reply = postHook(a.url, 'PermissionRequest', hook('PermissionRequest', { tool_name: 'AskUserQuestion', tool_input: { questions } }));
    const req = await pendingRequest(r);
    expect(req.data.kind).toBe('form');
    expect(req.data.fields).toHaveLength(2);
    const bad = command('control.attention.respond', S, { answer: { values: { '1': ['1'] } } }, { subject: req.id });
    r.send(bad);
    await r.waitFor((es) => ofType(es, 'control.rejected').length === 1);
    expect(ofType(r.events(), 'control.rejected')[0]).toMatchObject({ cause: bad.id, data: { reason: 'invalid' } });
    const good = command('control.attention.respond', S, { answer: { values: { '1': ['1', '3'], '2': 'retry_backoff' } } }, { subject: req.id });
    r.send(good);
    expect((await reply).body).toBe(
      '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"questions":' +
        JSON.stringify(questions) +
        ',"answers":{"Which envs?":"staging, dev","Flag name?":"retry_backoff"}}}}}',
    );
    const [answered] = ofType(await r.waitFor((es) => ofType(es, 'attention.answered').length === 1), 'attention.answered');
    expect(answered).toMatchObject({ cause: good.id, subject: req.id, data: { answer: { values: { '1': ['1', '3'], '2': 'retry_backoff' } }, via: 'control' } });
  });

  it('AskUserQuestion at a metadata attention ceiling: free-text answers are dropped from the record', async () => {
    const { a, r } = await setup({ posture: { ceiling: 'metadata', attention: 'metadata' } });
    const questions = [{ question: 'Name?', header: 'N', multiSelect: false, options: [{ label: 'a' }] }, { question: 'Pick', header: 'P', multiSelect: false, options: [{ label: 'x' }] }];
    const reply = postHook(a.url, 'PermissionRequest', hook('PermissionRequest', { tool_name: 'AskUserQuestion', tool_input: { questions } }));
    const req = await pendingRequest(r);
    expect(req.data.prompt).toBe('claude-code asks 2 questions');
    expect(req.data.fields[0].label).toBe('1');
    r.send(command('control.attention.respond', S, { answer: { values: { '1': 'my secret name', '2': '1' } } }, { subject: req.id }));
    expect((await reply).body).toContain('"answers":{"Name?":"my secret name","Pick":"x"}');
    const [answered] = ofType(await r.waitFor((es) => ofType(es, 'attention.answered').length === 1), 'attention.answered');
    expect(answered!.data.answer).toEqual({ values: { '2': '1' } });
  });

  it('a form times out as a whole', async () => {
    const { a, r } = await setup({ attentionTimeoutMs: 100 });
    const reply = await postHook(a.url, 'PermissionRequest', hook('PermissionRequest', { tool_name: 'AskUserQuestion', tool_input: { questions: [{ question: 'Q', options: [{ label: 'a' }] }] } }));
    expect(reply.body).toBe('{}');
    await r.waitFor((es) => ofType(es, 'attention.timeout').length === 1);
  });

  it('PostToolUse while a request is pending dismisses it and frees the hook neutrally', async () => {
    const { a, r } = await setup();
    const reply = postHook(a.url, 'PermissionRequest', hook('PermissionRequest', bash));
    const req = await pendingRequest(r);
    // another Bash call completing (a parallel call) leaves it held; the same call dismisses it
    await postHook(a.url, 'PostToolUse', hook('PostToolUse', { tool_name: 'Bash', tool_use_id: 'tu8', tool_input: { command: 'ls' }, tool_response: { ok: true } }));
    expect(ofType(r.events(), 'attention.resolved')).toHaveLength(0);
    await postHook(a.url, 'PostToolUse', hook('PostToolUse', { tool_name: 'Bash', tool_use_id: 'tu9', tool_input: { description: 'ship it', command: 'make deploy' }, tool_response: { ok: true } }));
    expect((await reply).body).toBe('{}');
    const events = r.events();
    const resolved = ofType(events, 'attention.resolved');
    expect(resolved).toHaveLength(1);
    expect(resolved[0]).toMatchObject({ subject: req.id, cause: req.id, data: { resolution: 'dismissed' } });
    expect(events.map((e) => e.type).slice(-2)).toEqual(['attention.resolved', 'tool.completed']);
    // answering it now is an unknown request
    r.send(command('control.attention.respond', S, { answer: { option: 'allow' } }, { subject: req.id }));
    await r.waitFor((es) => ofType(es, 'control.rejected').length === 1);
  });

  const elicitation = {
    mcp_server_name: 'deployer',
    message: 'Canary settings',
    requested_schema: { type: 'object', properties: { region: { type: 'string', enum: ['eu', 'us'] }, percent: { type: 'number', minimum: 1, maximum: 50 } }, required: ['region'] },
  };

  it('Elicitation accept: the exact accept reply with the content', async () => {
    const { a, r } = await setup();
    const reply = postHook(a.url, 'Elicitation', hook('Elicitation', elicitation));
    const req = await pendingRequest(r);
    expect(req.subject).toBe('deployer');
    r.send(command('control.attention.respond', S, { answer: { values: { region: 'us' } } }, { subject: req.id }));
    r.send(command('control.attention.respond', S, { answer: { values: { region: 'mars' } } }, { subject: req.id }));
    expect((await reply).body).toBe('{"hookSpecificOutput":{"hookEventName":"Elicitation","action":"accept","content":{"region":"us"}}}');
  });

  it('an invalid elicitation answer is nacked and the request stays pending', async () => {
    const { a, r } = await setup();
    const reply = postHook(a.url, 'Elicitation', hook('Elicitation', elicitation));
    const req = await pendingRequest(r);
    r.send(command('control.attention.respond', S, { answer: { values: { region: 'mars' } } }, { subject: req.id }));
    await r.waitFor((es) => ofType(es, 'control.rejected').length === 1);
    r.send(command('control.attention.respond', S, { answer: { values: { region: 'eu', percent: 5 } } }, { subject: req.id }));
    expect((await reply).body).toBe('{"hookSpecificOutput":{"hookEventName":"Elicitation","action":"accept","content":{"region":"eu","percent":5}}}');
  });

  it('ElicitationResult while pending settles it out of band; an orphan result emits nothing', async () => {
    const { a, r } = await setup();
    const reply = postHook(a.url, 'Elicitation', hook('Elicitation', elicitation));
    const req = await pendingRequest(r);
    await postHook(a.url, 'ElicitationResult', hook('ElicitationResult', { mcp_server_name: 'deployer', action: 'accept', content: { region: 'eu' } }));
    expect((await reply).body).toBe('{}');
    const events = await r.waitFor((es) => ofType(es, 'attention.resolved').length === 1);
    expect(ofType(events, 'attention.answered')[0]).toMatchObject({ subject: req.id, data: { via: 'oob', answer: { values: { region: 'eu' } } } });
    const count = r.events().length;
    expect((await postHook(a.url, 'ElicitationResult', hook('ElicitationResult', { mcp_server_name: 'deployer', action: 'accept', content: {} }))).body).toBe('{}');
    await new Promise((res) => setTimeout(res, 50));
    expect(r.events()).toHaveLength(count);
  });

  it('steering (AEP_INSTRUCT): queued, delivered on the next eligible reply, audited; never on a held reply', async () => {
    const { a, r } = await setup({ instruct: true });
    const hello = JSON.parse(r.frames[0]!);
    expect(hello.capabilities.control.accepts).toEqual(['control.attention.respond', 'x.claude-code.control.instruct']);
    const cmd = command('x.claude-code.control.instruct', S, { text: 'Prefer small commits.' });
    r.send(cmd);
    await r.waitFor((es) => ofType(es, 'control.accepted').length === 1);
    // a held permission reply carries the decision only
    const held = postHook(a.url, 'PermissionRequest', hook('PermissionRequest', bash));
    const req = await pendingRequest(r);
    r.send(command('control.attention.respond', S, { answer: { option: 'allow' } }, { subject: req.id }));
    expect((await held).body).toBe(ALLOW);
    // Stop is not a context-accepting moment
    expect((await postHook(a.url, 'Stop', hook('Stop'))).body).toBe('{}');
    const reply = await postHook(a.url, 'PreToolUse', hook('PreToolUse', { tool_name: 'Read', tool_input: {} }));
    expect(reply.body).toBe('{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"Prefer small commits."}}');
    const events = await r.waitFor((es) => ofType(es, 'x.claude-code.instruction.delivered').length === 1);
    const [delivered] = ofType(events, 'x.claude-code.instruction.delivered');
    expect(delivered).toMatchObject({ cause: cmd.id });
    expect(typeof delivered!.data.queued_ms).toBe('number');
    expect(delivered!.data.text).toBeUndefined();
    expect((await postHook(a.url, 'PreToolUse', hook('PreToolUse', { tool_name: 'Read', tool_input: {} }))).body).toBe('{}');
  });

  it('steering left in the queue is dropped, with an audit event, before session.ended', async () => {
    const { a, r } = await setup({ instruct: true });
    const one = command('x.claude-code.control.instruct', S, { text: 'first' });
    const two = command('x.claude-code.control.instruct', S, { text: 'second' });
    r.send(one);
    r.send(two);
    await r.waitFor((es) => ofType(es, 'control.accepted').length === 2);
    await postHook(a.url, 'SessionEnd', hook('SessionEnd', { reason: 'logout' }));
    const events = await r.waitFor((es) => ofType(es, 'session.ended').length === 1);
    expect(events.slice(-3).map((e) => [e.type, e.cause ?? null, e.data.reason])).toEqual([
      ['x.claude-code.instruction.dropped', one.id, 'session-ended'],
      ['x.claude-code.instruction.dropped', two.id, 'session-ended'],
      ['session.ended', null, 'normal'],
    ]);
  });

  it('steering is refused as unsupported unless opted in', async () => {
    const { r } = await setup();
    const cmd = command('x.claude-code.control.instruct', S, { text: 'hi' });
    r.send(cmd);
    const [nack] = ofType(await r.waitFor((es) => ofType(es, 'control.rejected').length === 1), 'control.rejected');
    expect(nack).toMatchObject({ cause: cmd.id, data: { reason: 'unsupported' } });
  });

  it('SessionEnd dismisses a pending request before session.ended', async () => {
    const { a, r } = await setup();
    const reply = postHook(a.url, 'PermissionRequest', hook('PermissionRequest', bash));
    await pendingRequest(r);
    await postHook(a.url, 'SessionEnd', hook('SessionEnd', { reason: 'other' }));
    expect((await reply).body).toBe('{}');
    expect(r.events().map((e) => e.type).slice(-2)).toEqual(['attention.resolved', 'session.ended']);
  });

  it('after a relay reconnect, a pending request is redelivered byte-identically and can still be answered', async () => {
    const { a, r } = await setup();
    const reply = postHook(a.url, 'PermissionRequest', hook('PermissionRequest', bash));
    const req = await pendingRequest(r);
    r.drop();
    await r.waitFor(() => r.frames.filter((f) => f.includes('"type":"hello"')).length === 2 && ofType(r.events(), 'attention.requested').length === 2);
    const copies = r.frames.filter((f) => f.includes('"attention.requested"'));
    expect(copies[1]).toBe(copies[0]);
    r.send(command('control.attention.respond', S, { answer: { option: 'allow' } }, { subject: req.id }));
    expect((await reply).body).toBe(ALLOW);
  });

  it('rejects a body that is not a JSON object with 400', async () => {
    const { a } = await setup();
    expect((await postHook(a.url, 'PreToolUse', 'not json')).status).toBe(400);
    expect((await postHook(a.url, 'PreToolUse', '[1]')).status).toBe(400);
  });
});
