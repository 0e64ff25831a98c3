import { describe, expect, it } from 'vitest';
import { geminiFrames, geminiOffersTools, geminiResponse } from './gemini.js';

describe('geminiFrames', () => {
  it('streams one data-only frame per part, the last with finishReason and usage, byte for byte', () => {
    expect(geminiFrames({ text: 'On it.', tools: [{ name: 'run_shell_command', input: { command: 'ls' } }] }, 'g').join('')).toBe(
      'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"On it."}]},"index":0}],"modelVersion":"g"}\n\n' +
        'data: {"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"run_shell_command","args":{"command":"ls"}}}]},"index":0,"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":5,"totalTokenCount":15},"modelVersion":"g"}\n\n',
    );
  });

  it('answers an empty turn with one empty text part', () => {
    expect(geminiFrames({}, 'g')).toEqual([
      'data: {"candidates":[{"content":{"role":"model","parts":[{"text":""}]},"index":0,"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":5,"totalTokenCount":15},"modelVersion":"g"}\n\n',
    ]);
  });
});

describe('geminiResponse and geminiOffersTools', () => {
  it('answers a non-streamed request with every part in one candidate', () => {
    expect(geminiResponse({ text: 'x' }, 'g')).toEqual({
      candidates: [{ content: { role: 'model', parts: [{ text: 'x' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      modelVersion: 'g',
    });
  });

  it('counts a request as main only when it declares functions', () => {
    expect(geminiOffersTools({ tools: [{ functionDeclarations: [{ name: 'f' }] }] })).toBe(true);
    expect(geminiOffersTools({ tools: [{ functionDeclarations: [] }] })).toBe(false);
    expect(geminiOffersTools({ tools: [{ googleSearch: {} }] })).toBe(false);
    expect(geminiOffersTools({})).toBe(false);
  });
});
