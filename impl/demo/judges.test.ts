/** The demo's beats, decided from what the relay holds (pure): each judge passes the happy case and fails a broken one. */
import { describe, expect, it } from 'vitest';
import { ALLOW_REPLY } from './hooks.js';
import { judgeAttention, judgeCancel, judgeLifecycle, judgeTail, judgeTools } from './run.js';

describe('demo judges', () => {
  it('tools: every lifecycle and tool type present', () => {
    expect(judgeTools(['session.started', 'run.started', 'tool.requested', 'tool.completed', 'tool.requested', 'tool.failed'])).toEqual({ ok: true, detail: 'tool.requested, tool.completed, tool.requested, tool.failed' });
    expect(judgeTools(['session.started', 'run.started', 'tool.requested', 'tool.completed']).ok).toBe(false);
  });

  it('attention: exit 0, the allow reply, the five events', () => {
    const all = ['attention.requested', 'control.attention.respond', 'control.accepted', 'attention.answered', 'attention.resolved'];
    expect(judgeAttention(0, ALLOW_REPLY, all)).toEqual({ ok: true, detail: 'aep respond exit 0; the held hook replied allow' });
    expect(judgeAttention(0, '{}', all)).toEqual({ ok: false, detail: 'aep respond exit 0; the held hook replied "{}"' });
    expect(judgeAttention(3, ALLOW_REPLY, all).ok).toBe(false);
  });

  it('tail: the two runs join exactly, the second right after the saved position', () => {
    expect(judgeTail([0, 1, 2], [3, 4], [0, 1, 2, 3, 4], 2)).toEqual({ ok: true, detail: 'first run 0..2, after the restart 3..4; relay 0..4: no gap, no duplicate' });
    expect(judgeTail([0, 1, 2], [2, 3, 4], [0, 1, 2, 3, 4], 2)).toMatchObject({ ok: false, detail: expect.stringMatching(/MISMATCH$/) });
  });

  it('cancel: ack and outcome cause-linked to the command', () => {
    const events = [{ type: 'control.accepted', cause: 'c1' }, { type: 'run.cancelled', cause: 'c1' }];
    expect(judgeCancel(0, events, 'c1')).toEqual({ ok: true, detail: 'aep cancel exit 0; control.accepted and run.cancelled both cause-linked to c1' });
    expect(judgeCancel(0, events.slice(0, 1), 'c1').ok).toBe(false);
  });

  it('lifecycle: in order', () => {
    expect(judgeLifecycle(['session.started', 'run.started', 'run.finished', 'session.ended'])).toEqual({ ok: true, detail: 'session.started → run.started → run.finished → session.ended' });
    expect(judgeLifecycle(['run.started', 'session.started', 'run.finished', 'session.ended']).ok).toBe(false);
  });
});
