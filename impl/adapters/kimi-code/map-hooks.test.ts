import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../core/canonical.js';
import { validatePayload } from '../../core/payload.js';
import { pinShape } from '../../../runners/conformance/families/mappings.js';
import { describeWhenPresent } from '../../test-utils/suites.js';
import { mapHook, promptText } from './map-hooks.js';
import { standardPath } from '../../test-utils/standard.js';

const S = 'ks-ilse-2';
const FULL = { ceiling: 'full', attention: 'full' } as const;

describe('kimi-code mapHook', () => {
  it('has the reference signature mapHook(input)', () => {
    expect(mapHook.length).toBe(1);
  });

  it('joins the text parts of a content-part prompt, at redacted and above only', () => {
    expect(promptText([{ type: 'text', text: 'a' }, { type: 'image_url' }, { type: 'text', text: 'b' }])).toBe('a\nb');
    expect(promptText([{ type: 'image_url' }])).toBeUndefined();
    const input = { hook_event_name: 'UserPromptSubmit', session_id: S, prompt: [{ type: 'text', text: 'fix it' }] };
    expect(mapHook(input)!.data).toEqual({ trigger: 'user' });
    expect(mapHook(input, FULL)!.data).toEqual({ trigger: 'user', prompt: 'fix it' });
  });

  it('gates feedback, error messages and titles; never forwards cwd, stop_hook_active or turn_id', () => {
    const result = { hook_event_name: 'PermissionResult', session_id: S, decision: 'rejected', feedback: 'no', turn_id: 't' };
    expect(mapHook(result, { ceiling: 'metadata', attention: 'metadata' })!.data).toEqual({ answer: { option: 'rejected' }, via: 'oob' });
    expect(mapHook({ hook_event_name: 'StopFailure', session_id: S, error_message: 'boom' }, FULL)!.data).toEqual({ reason: 'error', error: { message: 'boom' } });
    for (const hook of ['SessionStart', 'Stop', 'Interrupt']) {
      expect(JSON.stringify(mapHook({ hook_event_name: hook, session_id: S, cwd: '/home/ilse/x', stop_hook_active: true, turn_id: 'turn_9' }, FULL))).not.toMatch(/ilse|stop_hook|turn_9/);
    }
  });

  it('the permission request claims no options and is answered out of band', () => {
    const mapped = mapHook({ hook_event_name: 'PermissionRequest', session_id: S, tool_name: 'Bash', display: 'Run ls?' })!;
    expect(mapped.data).toEqual({ kind: 'permission', prompt: 'Run ls?', respond_via: ['oob'] });
    expect(mapHook({ hook_event_name: 'PermissionRequest', session_id: S, tool_name: 'Bash', display: 'Run ls?' }, { ceiling: 'metadata', attention: 'metadata' })!.data.prompt).toBe('kimi-code requests permission: Bash');
    expect(mapHook({ hook_event_name: 'PermissionResult', session_id: S })!.type).toBe('x.kimi-code.session.permission_result');
  });

  it('every mapped payload is valid for its type, at full', () => {
    const hooks = ['SessionStart', 'SessionEnd', 'UserPromptSubmit', 'Stop', 'StopFailure', 'Interrupt', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest', 'PermissionResult', 'SubagentStart', 'SubagentStop', 'PreCompact', 'PostCompact', 'Notification', 'TaskStarted'];
    for (const hook of hooks) {
      const mapped = mapHook({ hook_event_name: hook, session_id: S, source: 'startup', prompt: 'p', error_type: 'E', error_message: 'm', tool_name: 'Bash', tool_call_id: 'c', tool_input: {}, tool_output: 'o', error: { name: 'X', message: 'y' }, display: 'd', decision: 'approved', feedback: 'f', selected_label: 'l', agent_name: 'a', trigger: 'auto', token_count: 3, estimated_token_count: 2, notification_type: 'task.completed', title: 't', severity: 'info' }, FULL)!;
      expect(validatePayload(mapped.type, mapped.data), hook).toEqual([]);
    }
  });
});

const STANDARD = standardPath('conformance', 'fixtures', 'mappings', 'kimi-code.json');
describeWhenPresent(STANDARD, "the standard's kimi-code.json hooks (read at test time, never copied; ws_modes belongs to the web bridge)", () => {
  const fixture = JSON.parse(readFileSync(STANDARD, 'utf8')) as { hooks: Record<string, { input: Record<string, unknown>; expected: unknown }>; fallback: { input: Record<string, unknown>; expected: unknown } };
  it.each([...Object.entries(fixture.hooks), ['fallback', fixture.fallback] as const])('%s', (_name, entry) => {
    expect(canonicalJson(pinShape(mapHook(entry.input)))).toBe(canonicalJson(pinShape(entry.expected)));
  });
});
