import { describe, expect, it } from 'vitest';
import { JoinTable } from './join.js';

describe('the Antigravity daemon join (conversationId, stepIdx) → {name}', () => {
  it('hands back the join result once, per conversation, and forgets a stopped conversation', () => {
    const t = new JoinTable();
    t.remember('conv-a', 4, 'run_command');
    t.remember('conv-b', 4, 'view_file');
    t.remember('conv-a', 5, 'grep_search');
    expect(t.take('conv-b', 4)).toEqual({ name: 'view_file' });
    expect(t.take('conv-b', 4)).toBeUndefined();
    expect(t.take('conv-a', 9)).toBeUndefined();
    expect(t.take('conv-a', 4)).toEqual({ name: 'run_command' });
    t.remember('conv-a', 6, 'list_dir');
    t.remember('conv-b', 1, 'write_file');
    t.forget('conv-a');
    expect(t.size).toBe(1);
    expect(t.take('conv-a', 5)).toBeUndefined();
    expect(t.take('conv-b', 1)).toEqual({ name: 'write_file' });
  });

  it('a later PreToolUse at the same step replaces the name', () => {
    const t = new JoinTable();
    t.remember('c', 1, 'first');
    t.remember('c', 1, 'second');
    expect(t.take('c', 1)).toEqual({ name: 'second' });
  });
});
