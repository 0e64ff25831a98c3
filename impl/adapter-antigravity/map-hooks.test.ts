import { describe, expect, it } from 'vitest';
import { joinKey, lookupJoin, mapHook } from './map-hooks.js';

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

  it('never attention, denial or delegation; the mechanical fallback', () => {
    const all = ['PreToolUse', 'PostToolUse', 'PreInvocation', 'PostInvocation', 'Stop'].flatMap((h) => mapHook(h, { conversationId: C, toolCall: { name: 'invoke_subagent' }, stepIdx: 0, invocationNum: 0 }, {}));
    expect(all.filter((m) => /^(attention|delegation)\./.test(m.type) || m.type === 'tool.denied')).toEqual([]);
    expect(mapHook('Notification', {}, {})).toEqual([{ type: 'x.antigravity.hook.notification', data: {} }]);
    expect(mapHook('PostToolUse', { conversationId: C }, {})).toEqual([{ type: 'x.antigravity.step.completed', data: { failed: false } }]);
  });
});
