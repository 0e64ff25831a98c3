import { describe, expect, it } from 'vitest';
import { DEFAULT_POSTURE } from '../../adapter-kit/capture.js';
import { createEngine } from '../../adapter-kit/engine.js';
import { adapter, createAdapter } from './adapter.js';
import { configuredForTest } from '../../adapter-kit/test-utils/daemon-harness.js';
import { mapEvent, mapToolGate } from './map-events.js';
import { digest } from '../../core/digest.js';

function engineFor(control: boolean) {
  const events: Record<string, any>[] = [];
  const def = createAdapter({ control });
  const engine = createEngine(def, { posture: DEFAULT_POSTURE, timeoutMs: 5000, instruct: false, host: 't', epoch: 0, send: (l) => events.push(JSON.parse(l)), log: () => {} });
  return { def, engine, events };
}

describe('the pi adapter', () => {
  it('declares read-only by default and control.attention.respond only under AEP_PI_CONTROL=1', () => {
    expect(adapter.accepts).toEqual([]);
    expect(configuredForTest(adapter, {}).accepts).toEqual([]);
    expect(configuredForTest(adapter, { AEP_PI_CONTROL: 'true' }).accepts).toEqual([]);
    expect(configuredForTest(adapter, { AEP_PI_CONTROL: '1' }).accepts).toEqual(['control.attention.respond']);
    expect(configuredForTest(createAdapter({ control: true }), {}).accepts).toEqual([]);
    expect(adapter.defaultPort).toBe(8396);
    expect(adapter.neutralReply('tool_call')).toBe('{}');
  });

  it('gate off: a forwarded tool_call is answered {} at once and nothing is emitted', async () => {
    const { engine, events } = engineFor(false);
    expect(await engine.handleHook('tool_call', { session: 's', event: { type: 'tool_call', toolCallId: 'c', toolName: 'bash', input: {} } })).toBe('{}');
    expect(events).toEqual([]);
  });

  it('gate off: a respond command is nacked unsupported by the adapter itself too', () => {
    const { engine, events } = engineFor(false);
    const cmd = { aep: '0.1', id: 'c1', type: 'control.attention.respond', time: '2026-12-01T00:00:00Z', source: 'aep://t/agent/op', agent: 'op', session: 's', subject: 'x', data: { answer: { option: 'allow' } } };
    engine.onCommand(JSON.stringify(cmd), cmd);
    expect(events.map((e) => [e.type, e.data.reason])).toEqual([['control.rejected', 'unsupported']]);
  });

  it('a body without a session emits nothing; the session_id of the scenario runner is accepted too', async () => {
    const { engine, events } = engineFor(false);
    expect(await engine.handleHook('agent_start', { event: { type: 'agent_start' } })).toBe('{}');
    expect(events).toEqual([]);
    await engine.handleHook('session_start', { session_id: 'via-hint', event: { reason: 'new' } });
    expect(events.map((e) => [e.type, e.session, e.data])).toEqual([['session.started', 'via-hint', { client: { name: 'pi' }, reason: 'new' }]]);
  });

  it('the daemon reads the session id from the standard\'s {id, file, cwd} shape too', async () => {
    const { engine, events } = engineFor(false);
    await engine.handleHook('agent_start', { session: { id: 'pi-obj', file: '/tmp/x.jsonl', cwd: '/tmp' }, event: { type: 'agent_start' } });
    await engine.handleHook('session_shutdown', { session: { id: 'pi-obj' }, event: { type: 'session_shutdown', reason: 'new' } });
    expect(events.map((e) => [e.type, e.session, e.data])).toEqual([['run.started', 'pi-obj', {}], ['session.ended', 'pi-obj', { reason: 'normal', vendor_reason: 'new' }]]);
  });

  it('a bare agent_end (no assistant message) closes only a loop the daemon saw open', async () => {
    const { engine, events } = engineFor(false);
    await engine.handleHook('agent_end', { session: 'p2', event: { type: 'agent_end', messages: [] } });
    expect(events).toEqual([]);
    await engine.handleHook('agent_start', { session: 'p2', event: { type: 'agent_start' } });
    await engine.handleHook('agent_end', { session: 'p2', event: { type: 'agent_end', messages: [{ role: 'user', content: 'hi' }] } });
    expect(events.map((e) => [e.type, e.data, typeof e.run])).toEqual([['run.started', {}, 'string'], ['run.finished', {}, 'string']]);
    expect(events[1]!.run).toBe(events[0]!.run);
    // an assistant-decided end with no open run still says how the loop ended
    await engine.handleHook('agent_end', { session: 'p2', event: { type: 'agent_end', messages: [{ role: 'assistant', stopReason: 'aborted' }] } });
    expect(events.slice(2).map((e) => [e.type, e.data])).toEqual([['run.cancelled', { stop_reason: 'aborted' }]]);
  });

  it('deltas only when the extension flags them; the vendor plane rides at debug', async () => {
    const { engine, events } = engineFor(false);
    const update = { session: 's', event: { type: 'message_update', assistantMessageEvent: { type: 'text_delta', delta: 'x' } } };
    await engine.handleHook('message_update', update);
    expect(events).toEqual([]);
    await engine.handleHook('message_update', { ...update, deltas: true });
    expect(events.map((e) => [e.type, e.severity, e.data])).toEqual([['x.pi.message.delta', 'debug', { kind: 'text_delta' }]]);
  });
});

describe('map-events beyond the pins', () => {
  const RED = { ceiling: 'redacted', attention: 'redacted' } as const;

  it('an agent loop opens a run with no trigger claim: the bus does not say what started it', () => {
    expect(mapEvent({ session: 's', event: { type: 'agent_start' } })).toEqual({ type: 'run.started', data: {} });
  });

  it('session_shutdown: every vendor teardown is orderly, session.ended{reason: normal} with the vendor reason beside it', () => {
    for (const reason of ['quit', 'reload', 'fork']) expect(mapEvent({ session: 's', event: { type: 'session_shutdown', reason } })).toEqual({ type: 'session.ended', data: { reason: 'normal', vendor_reason: reason } });
    expect(mapEvent({ session: 's', event: { type: 'session_shutdown' } })).toEqual({ type: 'session.ended', data: { reason: 'normal' } });
  });

  it('the typed reasons ride as reason; every run terminal decided by a stopReason carries it raw', () => {
    expect(mapEvent({ session: 's', event: { type: 'session_start', reason: 'reload' } })!.data).toEqual({ client: { name: 'pi' }, reason: 'reload' });
    expect(mapEvent({ session: 's', event: { type: 'session_compact', reason: 'overflow', willRetry: true } })!.data).toEqual({ reason: 'overflow', will_retry: true });
    const end = (stopReason: string) => mapEvent({ session: 's', event: { type: 'agent_end', messages: [{ role: 'assistant', stopReason, usage: { input: 7, output: 3 } }] } });
    expect(end('error')).toEqual({ type: 'run.failed', data: { reason: 'error', stop_reason: 'error', error: { type: 'error' } } });
    expect(end('aborted')).toEqual({ type: 'run.cancelled', data: { stop_reason: 'aborted' } });
    expect(end('length')).toEqual({ type: 'run.finished', data: { stop_reason: 'length', 'gen_ai.usage.input_tokens': 7, 'gen_ai.usage.output_tokens': 3 } });
  });

  it('a tool failure is the generic class error at metadata; a partial result under deltas is its digest', () => {
    expect(mapEvent({ session: 's', event: { type: 'tool_execution_end', toolName: 'grep', toolCallId: 'k', isError: true, result: { content: [{ type: 'text', text: 'bad regex' }] } } })).toEqual({
      type: 'tool.failed', data: { tool: { name: 'grep', call_id: 'k' }, error: { type: 'error' } }, subject: 'grep',
    });
    const update = { session: 's', event: { type: 'tool_execution_update', toolName: 'grep', toolCallId: 'k', partialResult: { lines: 3 } } };
    expect(mapEvent(update)).toBeNull();
    expect(mapEvent(update, { deltas: true })).toEqual({ type: 'x.pi.tool.update', data: { tool: { name: 'grep', call_id: 'k' }, partial_digest: digest({ lines: 3 }) }, subject: 'grep' });
    expect(mapEvent(update, { deltas: true, posture: { ceiling: 'full', attention: 'full' } })!.data).toMatchObject({ partial: { lines: 3 } });
  });

  it('interception surfaces are never observations', () => {
    for (const type of ['tool_call', 'tool_result', 'input', 'context', 'before_agent_start', 'user_bash', 'session_before_fork']) {
      expect(mapEvent({ session: 's', event: { type } }, { deltas: true })).toBeNull();
    }
  });

  it('content rides redacted at a redacted ceiling: message text, error messages, tool failures, deltas', () => {
    const msg = mapEvent({ session: 's', event: { type: 'message_start', message: { role: 'user', content: [{ type: 'text', text: 'mail dan@example.com' }] } } }, { posture: RED })!;
    expect(msg.data).toEqual({ content_digest: digest('mail dan@example.com'), content: 'mail [REDACTED:pii]' });
    const full = mapEvent({ session: 's', event: { type: 'message_end', message: { role: 'assistant', content: 'done', stopReason: 'stop' } } }, { posture: { ceiling: 'full', attention: 'full' } })!;
    expect(full.data).toEqual({ content_digest: digest('done'), content: 'done', stop_reason: 'stop' });
    expect(mapEvent({ session: 's', event: { type: 'message_start', message: { role: 'user', content: 'hi' } } })!.data).toEqual({ content_digest: digest('hi') });
    const failed = mapEvent({ session: 's', event: { type: 'agent_end', messages: [{ role: 'assistant', stopReason: 'error', errorMessage: 'quota' }] } }, { posture: RED })!;
    expect(failed.data).toEqual({ reason: 'error', stop_reason: 'error', error: { type: 'error', message: 'quota' } });
    const tool = mapEvent({ session: 's', event: { type: 'tool_execution_end', toolName: 'edit', toolCallId: 'c', isError: true, result: { content: 'no match' } } }, { posture: RED })!;
    expect(tool.data).toEqual({ tool: { name: 'edit', call_id: 'c' }, error: { type: 'error', message: 'no match' } });
    const delta = mapEvent({ session: 's', event: { type: 'message_update', assistantMessageEvent: { type: 'text_delta', delta: 'hi' } } }, { deltas: true, posture: RED })!;
    expect(delta.data).toEqual({ kind: 'text_delta', delta: 'hi' });
  });

  it('the session file rides session.started at redacted+ only, through the pipeline', () => {
    const input = { session: 's', event: { type: 'session_start', reason: 'new' }, session_file: '/home/ana/.pi/agent/sessions/s.jsonl' };
    expect(mapEvent(input)!.data).toEqual({ client: { name: 'pi' }, reason: 'new' });
    expect(mapEvent(input, { posture: RED })!.data).toEqual({ client: { name: 'pi' }, reason: 'new', session_file: '~/.pi/agent/sessions/s.jsonl' });
  });

  it('the standard\'s session shape {id, file, cwd}: the paths (and a resumed session\'s file) at redacted+ only', () => {
    const input = { session: { id: 'p1', file: '/home/ana/.pi/agent/sessions/p1.jsonl', cwd: '/home/ana/src/wren' }, event: { type: 'session_start', reason: 'resume', previousSessionFile: '/home/ana/.pi/agent/sessions/p0.jsonl' } };
    expect(mapEvent(input)!.data).toEqual({ client: { name: 'pi' }, reason: 'resume' });
    expect(mapEvent(input, { posture: RED })!.data).toEqual({
      client: { name: 'pi' }, reason: 'resume', session_file: '~/.pi/agent/sessions/p1.jsonl', cwd: '~/src/wren', previous_session_file: '~/.pi/agent/sessions/p0.jsonl',
    });
  });

  it('a session name is user content: absent at metadata, redacted at redacted', () => {
    const input = { session: 's', event: { type: 'session_info_changed', name: 'call ana at ana@example.com' } };
    expect(mapEvent(input)).toEqual({ type: 'x.pi.session.info', data: {} });
    expect(mapEvent(input, { posture: RED })).toEqual({ type: 'x.pi.session.info', data: { name: 'call ana at [REDACTED:pii]' } });
  });

  it('the gate request names the tool, and the command only at redacted+', () => {
    const call = { toolName: 'bash', toolCallId: 'c', input: { command: 'git push' } };
    expect(mapToolGate(call).data.prompt).toBe('Permission requested: bash — git push');
    expect(mapToolGate(call, { ceiling: 'metadata', attention: 'metadata' }).data.prompt).toBe('pi requests permission: bash');
    expect(mapToolGate(call, DEFAULT_POSTURE, '2026-12-01T00:01:00Z').data.expires_at).toBe('2026-12-01T00:01:00Z');
  });
});
