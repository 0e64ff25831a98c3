import { describe, expect, it } from 'vitest';
import { anthropicFrames, anthropicMessage, anthropicOffersTools } from './anthropic.js';

const ids = { message: 'msg_1', tool: (i: number) => `toolu_${i}` };

describe('anthropicFrames', () => {
  it('streams a tool call as the Messages API event sequence, byte for byte', () => {
    const frames = anthropicFrames({ tools: [{ name: 'Bash', input: { command: 'echo hi' } }] }, ids, 'm');
    expect(frames.join('')).toBe(
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}}}\n\n' +
        'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_0","name":"Bash","input":{}}}\n\n' +
        'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\\"command\\":\\"echo hi\\"}"}}\n\n' +
        'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n' +
        'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":15}}\n\n' +
        'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    );
  });

  it('puts text first, then each tool call, at increasing indexes, and ends a text-only turn with end_turn', () => {
    const both = anthropicFrames({ text: 'Sure.', tools: [{ name: 'A', input: {} }, { name: 'B', input: {}, id: 'own' }] }, ids, 'm');
    expect(both.filter((f) => f.startsWith('event: content_block_start')).map((f) => JSON.parse(f.split('data: ')[1]!).content_block)).toEqual([
      { type: 'text', text: '' },
      { type: 'tool_use', id: 'toolu_0', name: 'A', input: {} },
      { type: 'tool_use', id: 'own', name: 'B', input: {} },
    ]);
    const text = anthropicFrames({ text: 'Done.' }, ids, 'm');
    expect(text[2]).toBe('event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Done."}}\n\n');
    expect(text.at(-2)).toContain('"stop_reason":"end_turn"');
  });
});

describe('anthropicMessage and anthropicOffersTools', () => {
  it('answers a non-streamed request with the whole message', () => {
    expect(anthropicMessage({ text: 'ok' }, ids, 'm')).toEqual({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: [{ type: 'text', text: 'ok' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 4 },
    });
  });

  it('tells a main request (tools offered) from a side request', () => {
    expect(anthropicOffersTools({ tools: [{ name: 'Bash' }] })).toBe(true);
    expect(anthropicOffersTools({ tools: [] })).toBe(false);
    expect(anthropicOffersTools({})).toBe(false);
  });
});
