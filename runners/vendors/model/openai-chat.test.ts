import { describe, expect, it } from 'vitest';
import { chatCompletion, chatFrames, chatOffersTools } from './openai-chat.js';

const ids = { completion: 'chatcmpl_1', call: (i: number) => `call_${i}` };

describe('chatFrames', () => {
  it('streams a tool call as Chat Completions chunks, byte for byte', () => {
    expect(chatFrames({ tools: [{ name: 'run_shell_command', input: { command: 'ls' } }] }, ids, 'm', 1700000000).join('')).toBe(
      'data: {"id":"chatcmpl_1","object":"chat.completion.chunk","created":1700000000,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}\n\n' +
        'data: {"id":"chatcmpl_1","object":"chat.completion.chunk","created":1700000000,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_0","type":"function","function":{"name":"run_shell_command","arguments":"{\\"command\\":\\"ls\\"}"}}]},"finish_reason":null}]}\n\n' +
        'data: {"id":"chatcmpl_1","object":"chat.completion.chunk","created":1700000000,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\n' +
        'data: {"id":"chatcmpl_1","object":"chat.completion.chunk","created":1700000000,"model":"m","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}\n\n' +
        'data: [DONE]\n\n',
    );
  });

  it('streams text before the calls, and ends a text-only turn with stop', () => {
    const frames = chatFrames({ text: 'Hi', tools: [{ name: 'f', input: {}, id: 'mine' }] }, ids, 'm', 1);
    expect(frames[1]).toBe('data: {"id":"chatcmpl_1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}\n\n');
    expect(frames[2]).toContain('"tool_calls":[{"index":0,"id":"mine","type":"function","function":{"name":"f","arguments":"{}"}}]');
    const text = chatFrames({ text: 'Done' }, ids, 'm', 1);
    expect(text).toHaveLength(5);
    expect(text[2]).toBe('data: {"id":"chatcmpl_1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n');
  });
});

describe('chatCompletion', () => {
  it('answers a request that does not stream with one JSON completion', () => {
    expect(JSON.stringify(chatCompletion({ tools: [{ name: 'f', input: { a: 1 } }] }, ids, 'm', 2))).toBe(
      '{"id":"chatcmpl_1","object":"chat.completion","created":2,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_0","type":"function","function":{"name":"f","arguments":"{\\"a\\":1}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}',
    );
    expect(chatCompletion({ text: 'ok' }, ids, 'm', 2).choices).toEqual([{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }]);
  });

  it('tells a main request from a side request', () => {
    expect(chatOffersTools({ tools: [{ type: 'function' }] })).toBe(true);
    expect(chatOffersTools({ messages: [] })).toBe(false);
  });
});
