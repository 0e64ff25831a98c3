/** The vendor-neutral mapping helpers: each one pinned, including the capture gates. */
import { describe, expect, it } from 'vitest';
import { ALLOW_DENY_OPTIONS, content, heldPermissionRequest, mapCommonHook, mapUnknownHook, put, snakeCase, str, toolRef } from './mapping.js';

const META = { ceiling: 'metadata' as const, attention: 'redacted' as const };
const FULL = { ceiling: 'full' as const, attention: 'full' as const };

describe('small helpers', () => {
  it('str keeps only non-empty strings', () => {
    expect(str('x')).toBe('x');
    expect(str('')).toBeUndefined();
    expect(str(3)).toBeUndefined();
  });
  it('put skips undefined', () => {
    const d: Record<string, unknown> = {};
    put(d, 'a', undefined);
    put(d, 'b', 0);
    expect(d).toEqual({ b: 0 });
    expect('a' in d).toBe(false);
  });
  it('snakeCase is the mechanical fallback name', () => {
    expect(snakeCase('WorktreeCreate')).toBe('worktree_create');
    expect(snakeCase('CwdChanged')).toBe('cwd_changed');
    expect(snakeCase('MCPServerReady')).toBe('mcp_server_ready');
    expect(snakeCase('')).toBe('unknown');
  });
  it('toolRef names the tool and carries the call id only when present', () => {
    expect(toolRef({ tool_name: 'Grep', tool_use_id: 'tu-9' })).toEqual({ name: 'Grep', call_id: 'tu-9' });
    expect(toolRef({})).toEqual({ name: 'unknown' });
  });
  it('content is absent below redacted, redacted at redacted, verbatim at full', () => {
    expect(content({ q: 'a' }, 'metadata')).toBeUndefined();
    expect(content('mail ada@example.org', 'redacted')).not.toContain('ada@example.org');
    expect(content({ q: 'a' }, 'full')).toEqual({ q: 'a' });
  });
});

describe('mapCommonHook', () => {
  it('leaves vendor hooks to the vendor (undefined) and silences PreCompact (null)', () => {
    expect(mapCommonHook('Notification', {}, 'acme', META)).toBeUndefined();
    expect(mapCommonHook('PreCompact', {}, 'acme', META)).toBeNull();
  });
  it('gates the session cwd by the ceiling', () => {
    const input = { source: 'startup', cwd: '/srv/proj' };
    expect(mapCommonHook('SessionStart', input, 'acme', META)).toEqual({ type: 'session.started', data: { client: { name: 'acme' }, trigger: 'startup' } });
    expect(mapCommonHook('SessionStart', input, 'acme', FULL)!.data.cwd).toBe('/srv/proj');
  });
  it('digests tool args always and carries them only at full', () => {
    const input = { tool_name: 'Bash', tool_use_id: 'c1', tool_input: { command: 'ls' } };
    const meta = mapCommonHook('PreToolUse', input, 'acme', META)!;
    expect(meta.subject).toBe('Bash');
    expect(meta.data).toEqual({ tool: { name: 'Bash', call_id: 'c1' }, args_digest: '4cf29611a66934862f29acfcc817e30b' });
    expect(Object.keys(meta.data)).toEqual(['tool', 'args_digest']);
    expect(mapCommonHook('PreToolUse', input, 'acme', FULL)!.data.args).toEqual({ command: 'ls' });
    const done = mapCommonHook('PostToolUse', { tool_name: 'Bash', tool_response: 'ok' }, 'acme', { ceiling: 'redacted', attention: 'redacted' })!;
    expect(done.type).toBe('tool.completed');
    expect(Object.keys(done.data)).toEqual(['tool', 'result_digest', 'result_redacted']);
  });
  it('names subagent events by the agent id when there is one', () => {
    expect(mapCommonHook('SubagentStop', { agent_id: 'sa-1' }, 'acme', META)).toEqual({ type: 'delegation.subagent.stopped', data: {}, subject: 'sa-1' });
  });
});

describe('mapUnknownHook', () => {
  it('is the x.{agent}.session.* fallback', () => {
    expect(mapUnknownHook('WorktreeCreate', 'acme')).toEqual({ type: 'x.acme.session.worktree_create', data: {} });
  });
});

describe('heldPermissionRequest', () => {
  const input = { tool_name: 'Bash', tool_input: { command: 'cat ~/.ssh/id_rsa' } };
  it('the prompt through the redaction pipeline at redacted, structure only at metadata; options copied', () => {
    const held = heldPermissionRequest('acme', input, ' — cat /home/ada/.ssh/id_rsa', { ceiling: 'full', attention: 'redacted' }, ALLOW_DENY_OPTIONS);
    expect(held).toEqual({
      type: 'attention.requested',
      data: { kind: 'permission', prompt: 'Permission requested: Bash — cat ~/.ssh/id_rsa', options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }], respond_via: ['control'] },
      subject: 'Bash',
    });
    expect(Object.isFrozen((held.data.options as object[])[0])).toBe(false);
    const bare = heldPermissionRequest('acme', {}, ' — x', { ceiling: 'metadata', attention: 'metadata' }, ALLOW_DENY_OPTIONS);
    expect([bare.data.prompt, bare.subject]).toEqual(['acme requests permission: unknown', 'unknown']);
  });
});
