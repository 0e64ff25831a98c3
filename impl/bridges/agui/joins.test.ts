import { describe, expect, it } from 'vitest';
import { MAX_ASSEMBLED, MAX_OPEN, StreamJoins } from './joins.js';

describe('StreamJoins: what the AG-UI mapper needs from earlier events of the stream', () => {
  it('a tool result gets its start\'s name once; a result that names its tool keeps its own', () => {
    const j = new StreamJoins(false);
    j.enrich({ type: 'TOOL_CALL_START', toolCallId: 'k1', toolCallName: 'fetch_page' });
    expect(j.enrich({ type: 'TOOL_CALL_RESULT', toolCallId: 'k1', content: 'x' })).toEqual({ type: 'TOOL_CALL_RESULT', toolCallId: 'k1', content: 'x', toolCallName: 'fetch_page' });
    expect(j.enrich({ type: 'TOOL_CALL_RESULT', toolCallId: 'k1', content: 'x' })).toEqual({ type: 'TOOL_CALL_RESULT', toolCallId: 'k1', content: 'x' });
    j.enrich({ type: 'TOOL_CALL_START', toolCallId: 'k2', toolCallName: 'fetch_page' });
    expect(j.enrich({ type: 'TOOL_CALL_RESULT', toolCallId: 'k2', toolCallName: 'own' }).toolCallName).toBe('own');
    // the chunked form names its call on a chunk
    j.enrich({ type: 'TOOL_CALL_CHUNK', toolCallId: 'k3', toolCallName: 'grep', delta: '{' });
    j.enrich({ type: 'TOOL_CALL_CHUNK', toolCallId: 'k3', delta: '}' });
    expect(j.enrich({ type: 'TOOL_CALL_RESULT', toolCallId: 'k3' }).toolCallName).toBe('grep');
  });

  it('a message end gets its start\'s role; the text is assembled only when asked, bounded', () => {
    const off = new StreamJoins(false);
    off.enrich({ type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' });
    off.enrich({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'abc' });
    expect(off.enrich({ type: 'TEXT_MESSAGE_END', messageId: 'm' })).toEqual({ type: 'TEXT_MESSAGE_END', messageId: 'm', role: 'assistant' });
    const on = new StreamJoins(true);
    on.enrich({ type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' });
    on.enrich({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'x'.repeat(MAX_ASSEMBLED - 1) });
    on.enrich({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'yz' });
    on.enrich({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'more' });
    const end = on.enrich({ type: 'TEXT_MESSAGE_END', messageId: 'm' });
    expect(end.role).toBe('assistant');
    expect(end.content).toBe(`${'x'.repeat(MAX_ASSEMBLED - 1)}y`);
    // an end without a start is handed over as it came
    const bare = { type: 'TEXT_MESSAGE_END', messageId: 'zz' };
    expect(on.enrich(bare)).toBe(bare);
  });

  it(`holds at most ${MAX_OPEN} open calls: the oldest is forgotten first`, () => {
    const j = new StreamJoins(false);
    for (let i = 0; i <= MAX_OPEN; i++) j.enrich({ type: 'TOOL_CALL_START', toolCallId: `c${i}`, toolCallName: `t${i}` });
    expect(j.enrich({ type: 'TOOL_CALL_RESULT', toolCallId: 'c0' }).toolCallName).toBeUndefined();
    expect(j.enrich({ type: 'TOOL_CALL_RESULT', toolCallId: `c${MAX_OPEN}` }).toolCallName).toBe(`t${MAX_OPEN}`);
  });
});
