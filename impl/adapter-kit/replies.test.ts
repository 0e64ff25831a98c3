/** The shared hook reply bytes and the common AdapterDef parts, pinned exactly. */
import { describe, expect, it } from 'vitest';
import { allowReply, contextReply, denyReply, permissionReply } from './replies.js';
import { defineAdapter } from './define.js';

describe('shared hook replies', () => {
  it('are exact bytes', () => {
    expect(allowReply()).toBe('{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}');
    expect(denyReply()).toBe('{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"Denied via AEP attention loop"}}}');
    expect(denyReply('use the staging db')).toBe('{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"use the staging db"}}}');
    expect(contextReply('PreToolUse', 'mind the lockfile')).toBe('{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"mind the lockfile"}}');
  });
  it('permissionReply answers over control only, else the given neutral reply', () => {
    expect(permissionReply({ kind: 'option', option: 'allow', via: 'control' }, 'N')).toBe(allowReply());
    expect(permissionReply({ kind: 'option', option: 'deny', text: 'no', via: 'control' }, 'N')).toBe(denyReply('no'));
    expect(permissionReply({ kind: 'option', option: 'allow', via: 'oob' }, 'N')).toBe('N');
    expect(permissionReply({ kind: 'timeout' }, '')).toBe('');
    expect(permissionReply({ kind: 'dismissed' }, '{}')).toBe('{}');
  });
});

describe('defineAdapter', () => {
  const handle = async () => 'h';
  it('fills the common parts from the vendor spec', async () => {
    const def = defineAdapter({ agent: 'acme', defaultPort: 9001, emits: ['run'], neutral: '{}', steerable: new Set(['Stop']), handle });
    expect(def.accepts).toEqual(['control.attention.respond']);
    expect(def.neutralReply('Anything')).toBe('{}');
    expect(def.steerable('Stop')).toBe(true);
    expect(def.steerable('PreToolUse')).toBe(false);
    expect(def.steeringReply('Stop', 't')).toBe(contextReply('Stop', 't'));
    expect('steeringCap' in def).toBe(false);
    expect(defineAdapter({ agent: 'acme', defaultPort: 9001, emits: [], neutral: '', steerable: new Set(), steeringCap: 5, handle }).steeringCap).toBe(5);
  });
});
