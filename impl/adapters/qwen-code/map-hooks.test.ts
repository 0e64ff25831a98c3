import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../core/canonical.js';
import { validatePayload } from '../../core/payload.js';
import { pinShape } from '../../../runners/conformance/families/mappings.js';
import { describeWhenPresent } from '../../test-utils/suites.js';
import { mapHook, mapPermissionRequest } from './map-hooks.js';
import { standardPath } from '../../test-utils/standard.js';

const S = 'qs-lin-8';
const FULL = { ceiling: 'full', attention: 'full' } as const;

describe('qwen-code mapHook', () => {
  it('has the reference signature mapHook(input)', () => {
    expect(mapHook.length).toBe(1);
  });

  it('gates content by the ceiling', () => {
    const failure = { hook_event_name: 'StopFailure', session_id: S, error: 'rate_limit', error_details: 'retry at 10:00' };
    expect(mapHook(failure)!.data).toEqual({ reason: 'rate_limit' });
    expect(mapHook(failure, FULL)!.data).toEqual({ reason: 'rate_limit', error: { message: 'retry at 10:00' } });
    const todo = { hook_event_name: 'TodoCreated', session_id: S, todo_id: 't', todo_content: 'write docs', phase: 'postWrite' };
    expect(mapHook(todo)!.data).toEqual({});
    expect(mapHook(todo, FULL)!.data).toEqual({ task: { title: 'write docs' } });
    expect(mapHook({ hook_event_name: 'Stop', session_id: S, input_tokens: -1, output_tokens: 1.5 })!.data).toEqual({});
  });

  it('synthesizes the permission prompt from structure at a metadata attention ceiling', () => {
    const input = { hook_event_name: 'PermissionRequest', session_id: S, tool_name: 'write_file', tool_input: { file_path: '/home/lin/.ssh/config' } };
    expect(mapPermissionRequest(input, { ceiling: 'metadata', attention: 'metadata' }).data.prompt).toBe('qwen-code requests permission: write_file');
    expect(mapPermissionRequest(input).data.prompt).toBe('Permission requested: write_file — ~/.ssh/config');
  });

  it('every mapped payload is valid for its type, at full', () => {
    for (const hook of ['SessionStart', 'SessionEnd', 'UserPromptSubmit', 'Stop', 'StopFailure', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest', 'PermissionDenied', 'SubagentStart', 'SubagentStop', 'PostCompact', 'Notification', 'TodoCreated', 'TodoCompleted', 'SessionDelete']) {
      const mapped = mapHook({ hook_event_name: hook, session_id: S, source: 'startup', model: 'm', permission_mode: 'default', prompt: 'p', input_tokens: 3, error: 'e', tool_name: 't', tool_use_id: 'c', tool_input: {}, tool_response: 'r', agent_id: 'a', agent_type: 'x', trigger: 'auto', notification_type: 'idle_prompt', message: 'm', todo_id: 'td', todo_content: 'c' }, FULL)!;
      expect(validatePayload(mapped.type, mapped.data), hook).toEqual([]);
    }
  });
});

const STANDARD = standardPath('conformance', 'fixtures', 'mappings', 'qwen-code.json');
describeWhenPresent(STANDARD, "the standard's qwen-code.json (read at test time, never copied)", () => {
  const fixture = JSON.parse(readFileSync(STANDARD, 'utf8')) as { hooks: Record<string, { input: Record<string, unknown>; expected: unknown }>; fallback: { input: Record<string, unknown>; expected: unknown } };
  it.each([...Object.entries(fixture.hooks), ['fallback', fixture.fallback] as const])('%s', (_name, entry) => {
    expect(canonicalJson(pinShape(mapHook(entry.input)))).toBe(canonicalJson(pinShape(entry.expected)));
  });
});
