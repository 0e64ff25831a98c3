import { describe, expect, it } from 'vitest';
import { digest } from '../../core/digest.js';
import { THINKING_ALIASES, mapEvent } from './map-events.js';

describe('AG-UI mapEvent', () => {
  it('steps name their subject and envelope step; the name in data only from redacted up', () => {
    expect(mapEvent({ type: 'STEP_STARTED', stepName: 'draft' })).toEqual({ type: 'run.step.started', data: {}, subject: 'draft', step: 'draft' });
    expect(mapEvent({ type: 'STEP_FINISHED', stepName: 'draft' }, { ceiling: 'redacted' })).toEqual({ type: 'run.step.finished', data: { name: 'draft' }, subject: 'draft', step: 'draft' });
    expect(mapEvent({ type: 'STEP_STARTED' })).toEqual({ type: 'run.step.started', data: {} });
  });

  it('a tool result takes the name the receiver joined into the event, its subject the call id', () => {
    expect(mapEvent({ type: 'TOOL_CALL_RESULT', toolCallId: 'q7', toolCallName: 'lookup_order', content: 'shipped' })).toEqual({
      type: 'tool.completed', data: { tool: { name: 'lookup_order', call_id: 'q7' }, result_digest: digest('shipped') }, subject: 'q7',
    });
    expect(mapEvent({ type: 'TOOL_CALL_RESULT', toolCallId: 'q8', content: 'x' })).toMatchObject({ data: { tool: { name: 'unknown', call_id: 'q8' } }, subject: 'q8' });
    expect(mapEvent({ type: 'TOOL_CALL_RESULT', toolCallName: 'lookup_order' })).toEqual({ type: 'tool.completed', data: { tool: { name: 'lookup_order' } }, subject: 'lookup_order' });
  });

  it('text messages: the start carries the role, the end only an assistant (or unstated) reply, both subject the message id', () => {
    expect(mapEvent({ type: 'TEXT_MESSAGE_START', messageId: 'msg_9', role: 'developer' })).toEqual({ type: 'x.agui.text_message.start', data: { role: 'developer' }, subject: 'msg_9' });
    expect(mapEvent({ type: 'TEXT_MESSAGE_END', messageId: 'msg_9', role: 'assistant' })).toEqual({ type: 'x.agui.text_message.end', data: {}, subject: 'msg_9' });
    expect(mapEvent({ type: 'TEXT_MESSAGE_END', messageId: 'msg_9' })).toEqual({ type: 'x.agui.text_message.end', data: {}, subject: 'msg_9' });
    for (const role of ['user', 'system', 'developer', 'tool']) expect(mapEvent({ type: 'TEXT_MESSAGE_END', messageId: 'msg_9', role })).toBeNull();
    const reply = { type: 'TEXT_MESSAGE_END', messageId: 'msg_9', role: 'assistant', content: 'call +1 415 555 0100' };
    expect(mapEvent(reply)).toEqual({ type: 'x.agui.text_message.end', data: {}, subject: 'msg_9' });
    expect(mapEvent(reply, { ceiling: 'full' })).toEqual({ type: 'x.agui.text_message.end', data: { content: 'call +1 415 555 0100' }, subject: 'msg_9' });
  });

  it('the deprecated THINKING_* members map exactly as their REASONING_* replacements, deltas fork included', () => {
    for (const [old, replacement] of Object.entries(THINKING_ALIASES)) {
      const event = { messageId: 'r1', delta: 'weighing options' };
      for (const opts of [{}, { deltas: true }, { deltas: true, ceiling: 'full' as const }]) {
        expect(mapEvent({ ...event, type: old }, opts)).toEqual(mapEvent({ ...event, type: replacement }, opts));
      }
    }
    expect(mapEvent({ type: 'THINKING_END' })).toEqual({ type: 'x.agui.reasoning.end', data: {} });
    expect(mapEvent({ type: 'THINKING_TEXT_MESSAGE_START' })).toEqual({ type: 'x.agui.reasoning_message.start', data: {} });
    expect(mapEvent({ type: 'THINKING_TEXT_MESSAGE_CONTENT', delta: 'x' })).toBeNull();
    expect(mapEvent({ type: 'THINKING_TEXT_MESSAGE_CONTENT', delta: 'x' }, { deltas: true })).toEqual({ type: 'x.agui.reasoning_message.content', data: {} });
  });

  it('payloads the record calls redacted: absent at metadata, through the pipeline at redacted, verbatim at full', () => {
    const snapshot = { owner: 'dan@example.com', n: 2 };
    expect(mapEvent({ type: 'STATE_SNAPSHOT', snapshot })).toEqual({ type: 'state.snapshot', data: {} });
    expect(mapEvent({ type: 'STATE_SNAPSHOT', snapshot }, { ceiling: 'redacted' })).toEqual({ type: 'state.snapshot', data: { state: { owner: '[REDACTED:pii]', n: 2 } } });
    expect(mapEvent({ type: 'STATE_SNAPSHOT', snapshot }, { ceiling: 'full' })).toEqual({ type: 'state.snapshot', data: { state: snapshot } });
    const patch = [{ op: 'replace', path: '/owner', value: 'eve@example.com' }];
    expect(mapEvent({ type: 'STATE_DELTA', delta: patch })).toEqual({ type: 'state.delta', data: { ops: 1 } });
    expect(mapEvent({ type: 'STATE_DELTA', delta: patch }, { ceiling: 'redacted' })).toEqual({ type: 'state.delta', data: { ops: 1, delta: [{ op: 'replace', path: '/owner', value: '[REDACTED:pii]' }] } });
    expect(mapEvent({ type: 'CUSTOM', name: 'cart', value: { items: 3 } })).toEqual({ type: 'x.agui.custom.event', data: { name: 'cart' } });
    expect(mapEvent({ type: 'CUSTOM', name: 'cart', value: { items: 3 } }, { ceiling: 'full' })).toEqual({ type: 'x.agui.custom.event', data: { name: 'cart', value: { items: 3 } } });
    expect(mapEvent({ type: 'RUN_ERROR', code: 'quota', message: 'over quota' })).toEqual({ type: 'run.failed', data: { reason: 'quota' } });
    expect(mapEvent({ type: 'RUN_ERROR', message: 'over quota' }, { ceiling: 'full' })).toEqual({ type: 'run.failed', data: { reason: 'error', error: { message: 'over quota' } } });
    const parts = [{ type: 'text', text: 'ring dan@example.com' }];
    expect(mapEvent({ type: 'TOOL_CALL_RESULT', toolCallId: 'q', content: parts }, { ceiling: 'redacted' })!).toMatchObject({ data: { result_redacted: [{ type: 'text', text: 'ring [REDACTED:pii]' }] } });
  });
});
