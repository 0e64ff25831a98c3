import { describe, expect, it } from 'vitest';
import { chatFrames, chatOffersTools } from './openai-chat.js';

const ids = { completion: 'cmpl_1', call: (i: number) => `call_${i}` };

describe('chatFrames', () => {
  it('streams a tool call as chat.completion.chunk deltas, byte for byte', () => {
    expect(chatFrames({ tools: [{ name: 'bash', input: { command: 'ls' } }] }, ids, 'm', 1700000000).join('')).toBe(
      'data: {"id":"cmpl_1","object":"chat.completion.chunk","created":1700000000,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_0","type":"function","function":{"name":"bash","arguments":"{\\"command\\":\\"ls\\"}"}}]},"finish_reason":null}]}\n\n' +
        'data: {"id":"cmpl_1","object":"chat.completion.chunk","created":1700000000,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}\n\n' +
        'data: [DONE]\n\n',
    );
  });

  it('streams text first, then calls with their own ids, and stops with "stop" when there is no call', () => {
    const withCall = chatFrames({ text: 'Hi', tools: [{ name: 'f', input: {}, id: 'mine' }] }, ids, 'm', 1);
    expect(withCall[0]).toBe('data: {"id":"cmpl_1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}]}\n\n');
    expect(withCall[1]).toBe('data: {"id":"cmpl_1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"mine","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":null}]}\n\n');
    const text = chatFrames({ text: 'Done.' }, ids, 'm', 1);
    expect(text).toHaveLength(3);
    expect(text[1]).toContain('"finish_reason":"stop"');
    expect(text[2]).toBe('data: [DONE]\n\n');
  });

  it('counts only requests that offer tools as main', () => {
    expect(chatOffersTools({ tools: [{ type: 'function' }] })).toBe(true);
    expect(chatOffersTools({ tools: [] })).toBe(false);
    expect(chatOffersTools({ messages: [] })).toBe(false);
  });
});
