import { describe, expect, it } from 'vitest';
import { digest } from '../../core/digest.js';
import { fallbackType, hostOf, joinedName, mapHook, sessionStarted } from './map-hooks.js';

const FULL = { ceiling: 'full', attention: 'full' } as const;
const RED = { ceiling: 'redacted', attention: 'redacted' } as const;
const C = 'conv-1';

describe('antigravity mapHook', () => {
  it('a PostToolUse takes the join the way the daemon hands it: its result {name}, nothing when unjoined', () => {
    expect(mapHook('PostToolUse', { conversationId: C, stepIdx: 2, error: '' }, { join: { name: 'view_file' } })).toEqual([{ type: 'tool.completed', data: { tool: { name: 'view_file' }, step_idx: 2 }, subject: 'view_file' }]);
    expect(mapHook('PostToolUse', { conversationId: C, stepIdx: 2, error: '' }, {})).toEqual([{ type: 'x.antigravity.step.completed', data: { failed: false, step_idx: 2 } }]);
    // A join result without a usable name is no join: the name is never invented.
    for (const join of [{ name: '' }, { name: 7 }, [{ conversationId: C, stepIdx: 2, name: 'x' }], null]) {
      expect(mapHook('PostToolUse', { conversationId: C, stepIdx: 2, error: 'e' }, { join: join as never })[0]!.type).toBe('x.antigravity.step.completed');
    }
    expect(joinedName({ name: 'grep_search' })).toBe('grep_search');
    expect(joinedName(undefined)).toBeUndefined();
  });

  it('a joined failure carries the class at metadata and nothing else of the error; the message from redacted up', () => {
    const input = { conversationId: C, stepIdx: 1, error: 'exit status 3 in /home/mo/kestrel' };
    expect(mapHook('PostToolUse', input, { join: { name: 'run_command' } })[0]).toEqual({ type: 'tool.failed', data: { tool: { name: 'run_command' }, step_idx: 1, error: { type: 'tool_error' } }, subject: 'run_command' });
    expect(mapHook('PostToolUse', input, { join: { name: 'run_command' } }, FULL)[0]!.data.error).toEqual({ type: 'tool_error', message: 'exit status 3 in /home/mo/kestrel' });
    expect((mapHook('PostToolUse', input, { join: { name: 'run_command' } }, RED)[0]!.data.error as { message: string }).message).toBeTypeOf('string');
  });

  it('Stop: an error fails the run with its reason and class (no termination_reason, no digest beside); other reasons finish it', () => {
    expect(mapHook('Stop', { terminationReason: 'error', error: 'quota', executionNum: 4, fullyIdle: false }, {})).toEqual([
      { type: 'run.failed', data: { reason: 'error', error: { type: 'error' }, execution_num: 4, fully_idle: false } },
    ]);
    expect(mapHook('Stop', { terminationReason: 'error', error: 'quota' }, {}, FULL)[0]!.data.error).toEqual({ type: 'error', message: 'quota' });
    expect(mapHook('Stop', { terminationReason: 'max_steps_exceeded', executionNum: 2, fullyIdle: true }, {})).toEqual([
      { type: 'run.finished', data: { termination_reason: 'max_steps_exceeded', execution_num: 2, fully_idle: true } },
    ]);
    expect(mapHook('Stop', {}, {})).toEqual([{ type: 'run.finished', data: {} }]);
  });

  it('PreInvocation is the step alone, whatever its invocationNum: the run is synthesized by the daemon', () => {
    expect(mapHook('PreInvocation', { conversationId: C, invocationNum: 0, initialNumSteps: 2 }, {})).toEqual([{ type: 'run.step.started', data: { initial_num_steps: 2 }, step: '0' }]);
    expect(mapHook('PostInvocation', { conversationId: C, invocationNum: 7, initialNumSteps: 2 }, {})).toEqual([{ type: 'run.step.finished', data: {}, step: '7' }]);
  });

  it('args: digest at metadata, the args at full; paths are never carried', () => {
    const pre = mapHook('PreToolUse', { conversationId: C, stepIdx: 0, toolCall: { name: 'x', args: { a: 1 } }, transcriptPath: '/t', workspacePaths: ['/w'] }, {}, FULL)[0]!;
    expect(pre.data).toMatchObject({ args: { a: 1 }, args_digest: digest({ a: 1 }) });
    expect(JSON.stringify(pre)).not.toContain('/t');
    expect(mapHook('PreToolUse', { conversationId: C, stepIdx: 0, toolCall: { name: 'x', args: { a: 1 } } }, {})[0]!.data).toEqual({ tool: { name: 'x' }, step_idx: 0, args_digest: digest({ a: 1 }) });
  });

  it("session.started names the host (the record's host marker) from the app data directory, never the path", () => {
    const cli = { transcriptPath: `/home/ana/.gemini/antigravity-cli/brain/${C}/.system_generated/logs/transcript.jsonl` };
    const desktop = { artifactDirectoryPath: `C:\\Users\\ana\\.gemini\\antigravity\\brain\\${C}` };
    expect(sessionStarted(cli)).toEqual({ type: 'session.started', data: { client: { name: 'antigravity-cli' } } });
    expect(hostOf(desktop)).toBe('antigravity');
    expect(hostOf({ transcriptPath: '/t' })).toBe('antigravity');
    expect(hostOf({ transcriptPath: 42 })).toBe('antigravity');
  });

  it('never attention, denial or delegation', () => {
    const all = ['PreToolUse', 'PostToolUse', 'PreInvocation', 'PostInvocation', 'Stop'].flatMap((h) => mapHook(h, { conversationId: C, toolCall: { name: 'invoke_subagent' }, stepIdx: 0, invocationNum: 0 }, {}));
    expect(all.filter((m) => /^(attention|delegation)\./.test(m.type) || m.type === 'tool.denied')).toEqual([]);
    expect(mapHook('PostToolUse', { conversationId: C }, {})).toEqual([{ type: 'x.antigravity.step.completed', data: { failed: false } }]);
  });

  it('the mechanical fallback: x.antigravity.hook.<the name lower-cased as one segment>', () => {
    expect(mapHook('Notification', {}, {})).toEqual([{ type: 'x.antigravity.hook.notification', data: {} }]);
    expect(mapHook('BeforeCompactionStarts', {}, {})[0]!.type).toBe('x.antigravity.hook.beforecompactionstarts');
    expect(fallbackType('pre-Commit hook')).toBe('x.antigravity.hook.pre_commit_hook');
    expect(fallbackType('Ünïcode')).toBe('x.antigravity.hook.n_code');
    expect(fallbackType('')).toBe('x.antigravity.hook.unknown');
    expect(fallbackType('***')).toBe('x.antigravity.hook.unknown');
  });
});
