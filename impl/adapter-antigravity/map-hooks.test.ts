import { describe, expect, it } from 'vitest';
import { hostOf, joinKey, lookupJoin, mapHook, sessionStarted } from './map-hooks.js';

const FULL = { ceiling: 'full', attention: 'full' } as const;
const C = 'conv-1';

describe('antigravity mapHook', () => {
  it('the join accepts the fixture array form and the daemon Map form', () => {
    const row = { conversationId: C, stepIdx: 2, name: 'view_file' };
    expect(lookupJoin([row], C, 2)).toEqual(row);
    expect(lookupJoin(new Map([[joinKey(C, 2), row]]), C, 2)).toEqual(row);
    expect(lookupJoin(new Map(), C, 2)).toBeUndefined();
    expect(mapHook('PostToolUse', { conversationId: C, stepIdx: 2, error: '' }, { join: new Map([[joinKey(C, 2), row]]) })).toEqual([{ type: 'tool.completed', data: { tool: { name: 'view_file' }, step_idx: 2 }, subject: 'view_file' }]);
  });

  it('error text and the Stop error are redacted+; paths are never carried', () => {
    const post = mapHook('PostToolUse', { conversationId: C, stepIdx: 1, error: 'denied' }, { join: [{ conversationId: C, stepIdx: 1, name: 'x' }] }, FULL)[0]!;
    expect(post.data.error).toEqual({ type: 'tool_error', message: 'denied' });
    const pre = mapHook('PreToolUse', { conversationId: C, stepIdx: 0, toolCall: { name: 'x', args: { a: 1 } }, transcriptPath: '/t', workspacePaths: ['/w'] }, {}, FULL)[0]!;
    expect(pre.data).toMatchObject({ args: { a: 1 } });
    expect(JSON.stringify(pre)).not.toContain('/t');
    expect(mapHook('Stop', { terminationReason: 'error', error: 'quota' }, {}, FULL)[0]!.data.error).toEqual({ type: 'error', message: 'quota' });
  });

  it('session.started names the host (the record\'s host marker) from the app data directory, never the path', () => {
    const cli = { transcriptPath: `/home/ana/.gemini/antigravity-cli/brain/${C}/.system_generated/logs/transcript.jsonl` };
    const desktop = { artifactDirectoryPath: `C:\\Users\\ana\\.gemini\\antigravity\\brain\\${C}` };
    expect(sessionStarted(cli)).toEqual({ type: 'session.started', data: { client: { name: 'antigravity-cli' } } });
    expect(hostOf(desktop)).toBe('antigravity');
    expect(hostOf({ transcriptPath: '/t' })).toBe('antigravity');
    expect(hostOf({ transcriptPath: 42 })).toBe('antigravity');
  });

  it('the error text\'s digest is `message_digest` (the record\'s "message digest at metadata"), on both failures', () => {
    const join = [{ conversationId: C, stepIdx: 1, name: 'x' }];
    expect(mapHook('PostToolUse', { conversationId: C, stepIdx: 1, error: 'boom' }, { join })[0]!.data).toEqual({ tool: { name: 'x' }, step_idx: 1, error: { type: 'tool_error' }, message_digest: '20b9458ca349a629a028ec64e716294a' });
    expect(Object.keys(mapHook('Stop', { terminationReason: 'error', error: 'quota' }, {})[0]!.data)).toEqual(['reason', 'error', 'termination_reason', 'message_digest']);
  });

  it('never attention, denial or delegation; the mechanical fallback', () => {
    const all = ['PreToolUse', 'PostToolUse', 'PreInvocation', 'PostInvocation', 'Stop'].flatMap((h) => mapHook(h, { conversationId: C, toolCall: { name: 'invoke_subagent' }, stepIdx: 0, invocationNum: 0 }, {}));
    expect(all.filter((m) => /^(attention|delegation)\./.test(m.type) || m.type === 'tool.denied')).toEqual([]);
    expect(mapHook('Notification', {}, {})).toEqual([{ type: 'x.antigravity.hook.notification', data: {} }]);
    expect(mapHook('PostToolUse', { conversationId: C }, {})).toEqual([{ type: 'x.antigravity.step.completed', data: { failed: false } }]);
  });
});
