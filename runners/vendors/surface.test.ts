/**
 * The hook-surface differ on two capture sets of our own: the next release fires one more hook
 * and drops one member; the differ names exactly those, and only the removal touches the used
 * surface.
 */
import { describe, expect, it } from 'vitest';
import { diffSurface, renderChanges, replyShape, surfaceOf, usedChanges, type CapturedHook } from './surface.js';

const pre = (input: Record<string, unknown>): string => JSON.stringify({ session_id: 's1', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls', description: 'list' }, ...input });
const pinned: CapturedHook[] = [
  { scenario: 'allow', hook: 'SessionStart', payload: JSON.stringify({ session_id: 's1', source: 'startup' }) },
  { scenario: 'allow', hook: 'PreToolUse', payload: pre({ permission_mode: 'default' }), reply: '{}' },
  { scenario: 'allow', hook: 'Stop', payload: JSON.stringify({ session_id: 's1', stop_hook_active: false }) },
];
const next: CapturedHook[] = [
  { scenario: 'allow', hook: 'SessionStart', payload: JSON.stringify({ session_id: 's1', source: 'startup' }) },
  // permission_mode is gone from PreToolUse
  { scenario: 'allow', hook: 'PreToolUse', payload: pre({}), reply: '{}' },
  { scenario: 'allow', hook: 'Stop', payload: JSON.stringify({ session_id: 's1', stop_hook_active: false }) },
  // a hook the pinned release never fired
  { scenario: 'allow', hook: 'PostToolBatch', payload: JSON.stringify({ session_id: 's1', tools: [{ name: 'Bash' }] }) },
];

describe('the hook-surface differ', () => {
  it('names the added hook and the removed member, and nothing else', () => {
    const d = diffSurface(surfaceOf(pinned), surfaceOf(next));
    expect(d).toEqual({ addedHooks: ['PostToolBatch'], removedHooks: [], changes: [{ hook: 'PreToolUse', member: 'permission_mode', change: 'removed', before: ['string'] }] });
    expect(renderChanges(d)).toEqual(['+ hook PostToolBatch', '- PreToolUse.permission_mode (string)']);
    // the addition is news; the removal touches what the adapter used
    expect(usedChanges(d)).toEqual([{ hook: 'PreToolUse', member: 'permission_mode', change: 'removed', before: ['string'] }]);
  });

  it('the same captures differ by nothing; a hook gone and a member retyped are used changes', () => {
    expect(diffSurface(surfaceOf(pinned), surfaceOf(pinned))).toEqual({ addedHooks: [], removedHooks: [], changes: [] });
    const retyped = [pinned[0]!, { ...pinned[1]!, payload: pre({ permission_mode: null }) }];
    const d = diffSurface(surfaceOf(pinned), surfaceOf(retyped));
    expect(d.removedHooks).toEqual(['Stop']);
    expect(usedChanges(d)).toEqual([{ hook: 'Stop', change: 'removed' }, { hook: 'PreToolUse', member: 'permission_mode', change: 'type', before: ['string'], after: ['null'] }]);
  });

  it('reply shapes: members with types, a plain text reply, an empty one; compared only when both sides kept replies', () => {
    expect(replyShape('{"hookSpecificOutput":{"decision":{"behavior":"allow"}}}')).toBe('hookSpecificOutput.decision.behavior:string, hookSpecificOutput.decision:object, hookSpecificOutput:object');
    expect(replyShape('ok')).toBe('text');
    expect(replyShape('')).toBe('empty');
    const deny = [{ ...pinned[1]!, reply: '{"decision":"block"}' }];
    expect(diffSurface(surfaceOf([pinned[1]!]), surfaceOf(deny)).changes.map((c) => `${c.change} ${c.member}`)).toEqual(['removed reply {object}', 'added reply {decision:string}']);
    expect(diffSurface(surfaceOf([{ ...pinned[1]!, reply: undefined }]), surfaceOf(deny)).changes).toEqual([]);
  });
});
