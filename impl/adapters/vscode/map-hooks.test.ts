import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../core/canonical.js';
import { validatePayload } from '../../core/payload.js';
import { pinShape } from '../../../runners/conformance/families/mappings.js';
import { describeWhenPresent } from '../../test-utils/suites.js';
import { mapGateRequest, mapHook, sessionOf } from './map-hooks.js';
import { standardPath } from '../../test-utils/standard.js';

const FULL = { ceiling: 'full', attention: 'full' } as const;

describe('vscode mapHook', () => {
  it('has the reference signature mapHook(input)', () => {
    expect(mapHook.length).toBe(1);
  });

  it('reads both casings of the hook name and the session; no session is the unknown lane', () => {
    expect(mapHook({ hookEventName: 'Stop', sessionId: 's' })).toEqual({ type: 'run.finished', data: {} });
    expect(sessionOf({ sessionId: 'vs-1' })).toBe('vs-1');
    expect(sessionOf({ session_id: 'vs-2', sessionId: 'other' })).toBe('vs-2');
    expect(sessionOf({})).toBe('unknown');
  });

  it('never forwards transcript_path; args and prompt only at full', () => {
    const start = mapHook({ hook_event_name: 'SessionStart', session_id: 's', transcript_path: '/home/ana/t.md', source: 'new', cwd: '/w' }, FULL)!;
    expect(JSON.stringify(start)).not.toContain('t.md');
    expect(mapHook({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'x', tool_input: { a: 1 } }, FULL)!.data.args).toEqual({ a: 1 });
  });

  it('the gate request offers the vendor decisions; its prompt is structural at a metadata attention ceiling', () => {
    const input = { hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'create_file', tool_input: { filePath: '/home/ana/w/.env' } };
    expect(mapGateRequest(input).data).toEqual({ kind: 'permission', prompt: 'Permission requested: create_file — ~/w/.env', options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }, { id: 'ask', label: 'Ask in VS Code' }], respond_via: ['control'] });
    expect(mapGateRequest(input, { ceiling: 'metadata', attention: 'metadata' }).data.prompt).toBe('vscode requests permission: create_file');
    expect(validatePayload('attention.requested', mapGateRequest(input).data)).toEqual([]);
  });

  it('every mapped payload is valid for its type, at full', () => {
    for (const hook of ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PreCompact', 'SubagentStart', 'SubagentStop', 'Stop', 'agentStop']) {
      const mapped = mapHook({ hook_event_name: hook, session_id: 's', source: 'new', model: 'm', agent_type: 'Plan', prompt: 'p', tool_name: 't', tool_use_id: 'c', tool_input: {}, tool_response: 'ok', trigger: 'auto', agent_id: 'a' }, FULL)!;
      expect(validatePayload(mapped.type, mapped.data), hook).toEqual([]);
    }
  });
});

const STANDARD = standardPath('conformance', 'fixtures', 'mappings', 'vscode.json');
describeWhenPresent(STANDARD, "the standard's vscode.json (read at test time, never copied)", () => {
  const fixture = JSON.parse(readFileSync(STANDARD, 'utf8')) as { hooks: Record<string, { input: Record<string, unknown>; expected: unknown }>; fallback: { input: Record<string, unknown>; expected: unknown } };
  it.each([...Object.entries(fixture.hooks), ['fallback', fixture.fallback] as const])('%s', (_name, entry) => {
    expect(canonicalJson(pinShape(mapHook(entry.input)))).toBe(canonicalJson(pinShape(entry.expected)));
  });
});
