/** The ACP tee reads its peers' lines linearly and bounded (issue 39): a 32 MiB line with no newline costs linear time, is skipped, and the next frame still maps. */
import { describe, expect, it } from 'vitest';
import type { Mapped } from '../../adapter-kit/types.js';
import { AcpObserver } from './observer.js';

describe('AcpObserver lines', () => {
  it('a 32 MiB line fed in 64 KiB chunks is skipped in linear time; the next frame maps', () => {
    const out: Mapped[] = [];
    const obs = new AcpObserver((_s, m) => (out.push(m), { id: `e${out.length}` } as never), { epoch: 0 });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const t0 = Date.now();
    for (let i = 0; i < 512; i++) obs.feed('agent', chunk);
    obs.feed('agent', `\n${JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Read', kind: 'read', status: 'pending' } } })}\n`);
    expect(Date.now() - t0).toBeLessThan(3_000);
    expect(out.map((m) => m.type)).toEqual(['tool.requested']);
  });
});
