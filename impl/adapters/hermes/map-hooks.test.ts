import { describe, expect, it } from 'vitest';
import { clarifyCard, clarifyOutcome, flattenChoice, normalizeChoices } from './map-clarify.js';
import { mapHook, schemaDrift } from './map-hooks.js';

const FULL = { ceiling: 'full', attention: 'full' } as const;
const META = { ceiling: 'metadata', attention: 'metadata' } as const;
const env = (hook: string, extra: Record<string, unknown> = {}, top: Record<string, unknown> = {}) => ({ hook_event_name: hook, tool_name: null, tool_input: null, session_id: 's', cwd: '/w', extra: { telemetry_schema_version: 'hermes.observer.v1', ...extra }, ...top });

describe('hermes clarify normalization', () => {
  it('flattens like the vendor entry point: unwrap, trim, join lists, drop empties, at most four', () => {
    expect([flattenChoice(' a '), flattenChoice({ text: 'b' }), flattenChoice(['c', ['d']]), flattenChoice({ other: 1 }), flattenChoice(null)]).toEqual(['a', 'b', 'c d', '', '']);
    expect(normalizeChoices(['1', '', '2', '3', '4', '5'])).toEqual(['1', '2', '3', '4']);
    expect(normalizeChoices('x')).toEqual([]);
  });

  it('the card: labels are content (placeholders at metadata); no question, no card', () => {
    expect(clarifyCard({ question: 'Q?', choices: ['x'] }, 'metadata')).toEqual({ kind: 'form', prompt: 'hermes asks a question', fields: [{ id: '1', type: 'select', label: 'Question 1', required: true, other: true, choices: [{ id: '1', label: 'Option 1' }] }], respond_via: ['oob'] });
    expect(clarifyCard({ question: '   ' }, 'full')).toBeNull();
    expect(clarifyCard({ choices: ['a'] }, 'full')).toBeNull();
  });

  it('the outcome: ids for picks, gated text for Other, sentinels for timeout and dismissal', () => {
    const result = (user_response: string) => JSON.stringify({ question: 'Q', choices_offered: ['yes', 'no'], user_response });
    expect(clarifyOutcome('ok', result('no'), 'metadata')).toEqual({ kind: 'answered', values: { '1': '2' } });
    expect(clarifyOutcome('ok', result('maybe later'), 'metadata')).toEqual({ kind: 'answered', values: {} });
    expect(clarifyOutcome('ok', result('maybe later'), 'full')).toEqual({ kind: 'answered', values: { '1': 'maybe later' } });
    expect(clarifyOutcome('ok', result('[user did not respond within 3m]'), 'full')).toEqual({ kind: 'timeout' });
    expect(clarifyOutcome('ok', result('[clarify prompt could not be delivered]'), 'full')).toEqual({ kind: 'dismissed' });
    expect(clarifyOutcome('ok', JSON.stringify({ error: 'no ui' }), 'full')).toEqual({ kind: 'dismissed' });
    expect(clarifyOutcome('blocked', undefined, 'full')).toEqual({ kind: 'dismissed' });
    expect(clarifyOutcome('ok', '{not json', 'full')).toBeNull();
  });
});

describe('hermes mapHook', () => {
  it('the approval card: synthesized prompt at metadata, the command at redacted+', () => {
    const pre = env('pre_approval_request', { command: 'sudo reboot', pattern_key: 'terminal:sudo', session_key: 's' }, { session_id: '' });
    expect(mapHook(pre, META)[0]!.data.prompt).toBe('hermes requests approval: terminal:sudo');
    expect(mapHook(pre, FULL)[0]!.data.prompt).toBe('Approval requested: sudo reboot');
  });

  it('content is gated: the user message, error text, the block rule, the child goal', () => {
    expect(mapHook(env('pre_llm_call', { user_message: 'hello' }), FULL)[0]!.data.prompt).toBe('hello');
    expect(mapHook(env('pre_llm_call', { user_message: 'hello' }))[0]!.data.prompt).toBeUndefined();
    expect(mapHook(env('post_tool_call', { status: 'blocked', error_message: 'no' }, { tool_name: 't' }), FULL)[0]!.data).toMatchObject({ by: 'policy', rule: 'no' });
    expect(mapHook(env('post_tool_call', { status: 'error', error_message: 'boom' }, { tool_name: 't' }), FULL)[0]!.data.error).toEqual({ type: 'error', message: 'boom' });
    expect(mapHook(env('subagent_start', { child_session_id: 'c', child_goal: 'g' }), FULL)[0]!.data).toEqual({ child: { session: 'c' }, goal: 'g' });
  });

  it('an on_session_end neither completed nor interrupted still closes the run as finished', () => {
    expect(mapHook(env('on_session_end', { completed: false, interrupted: false }))).toEqual([{ type: 'run.finished', data: {} }]);
  });

  it('the drift sentinel', () => {
    expect(schemaDrift(env('x'))).toBeNull();
    expect(schemaDrift({ extra: {} })).toBeNull();
    expect(schemaDrift({ extra: { telemetry_schema_version: 'hermes.observer.v2' } })).toMatch(/re-verify/);
  });
});
