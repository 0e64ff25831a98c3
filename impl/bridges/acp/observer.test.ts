import { describe, expect, it } from 'vitest';
import type { Mapped } from '../../adapter-kit/types.js';
import { AcpObserver } from './observer.js';

const update = (sessionId: string, u: Record<string, unknown>) => `${JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: u } })}\n`;

describe('AcpObserver tool names', () => {
  it('a title-less tool_call_update terminal carries the name its tool_call had (as real agents send it)', () => {
    const out: [string, Mapped][] = [];
    const obs = new AcpObserver((s, m) => {
      out.push([s, m]);
      return { id: `e${out.length}` } as never;
    }, { epoch: 0 });
    obs.feed('agent', update('s1', { sessionUpdate: 'tool_call', toolCallId: 'call_1', title: 'Read notes.md', kind: 'read', status: 'pending' }));
    obs.feed('agent', update('s1', { sessionUpdate: 'tool_call', toolCallId: 'call_2', title: 'Run tests', kind: 'execute', status: 'pending' }));
    obs.feed('agent', update('s1', { sessionUpdate: 'tool_call_update', toolCallId: 'call_1', status: 'completed', rawOutput: { ok: true } }));
    obs.feed('agent', update('s1', { sessionUpdate: 'tool_call_update', toolCallId: 'call_2', status: 'failed' }));
    obs.feed('agent', update('s1', { sessionUpdate: 'tool_call_update', toolCallId: 'call_3', status: 'completed' })); // never announced
    obs.feed('agent', update('s1', { sessionUpdate: 'tool_call_update', toolCallId: 'call_1', title: 'Read again', status: 'completed' })); // own title wins
    expect(out.map(([s, m]) => [s, m.type, (m.data.tool as { name: string }).name])).toEqual([
      ['s1', 'tool.requested', 'Read notes.md'],
      ['s1', 'tool.requested', 'Run tests'],
      ['s1', 'tool.completed', 'Read notes.md'],
      ['s1', 'tool.failed', 'Run tests'],
      ['s1', 'tool.completed', 'call_3'],
      ['s1', 'tool.completed', 'Read again'],
    ]);
  });
});
