import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type RunningModelServer } from './server.js';

let server: RunningModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function post(path: string, body: unknown): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(`${server!.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

describe('startModelServer', () => {
  it('follows the script on main requests, answers side requests without using a turn, and records everything', async () => {
    server = await startModelServer({ turns: [{ tools: [{ name: 'Bash', input: { command: 'ls' } }] }, { text: 'Two.' }], doneText: 'After.', sideText: 'Title' }, { model: 'm' });
    const side = await post('/v1/messages', { stream: true, messages: [] });
    expect(side.type).toBe('text/event-stream');
    expect(side.text).toContain('"delta":{"type":"text_delta","text":"Title"}');
    const first = await post('/v1/messages', { stream: true, tools: [{ name: 'Bash' }] });
    expect(first.text).toContain('event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_scripted_2_0","name":"Bash","input":{}}}\n\n');
    const second = await post('/v1/messages', { stream: false, tools: [{ name: 'Bash' }] });
    expect(JSON.parse(second.text).content).toEqual([{ type: 'text', text: 'Two.' }]);
    const third = await post('/v1/messages', { stream: true, tools: [{ name: 'Bash' }] });
    expect(third.text).toContain('"text":"After."');
    expect(server.served()).toBe(2);
    expect(server.requests.map((r) => [r.api, r.kind, r.turn])).toEqual([
      ['anthropic', 'side', null],
      ['anthropic', 'main', 0],
      ['anthropic', 'main', 1],
      ['anthropic', 'main', null],
    ]);
    expect(server.requests[1]!.body).toEqual({ stream: true, tools: [{ name: 'Bash' }] });
  });

  it('speaks the Responses API on /v1/responses with exact SSE frames', async () => {
    server = await startModelServer({ turns: [{ text: 'hi' }] }, { model: 'm', now: () => 42 });
    const res = await post('/v1/responses', { stream: true, tools: [{ type: 'function', name: 'f' }] });
    expect(res.status).toBe(200);
    expect(res.text.startsWith('event: response.created\ndata: {"type":"response.created","sequence_number":0,"response":{"id":"resp_scripted_1","object":"response","created_at":42,"model":"m","status":"in_progress","output":[]}}\n\n')).toBe(true);
    expect(res.text.endsWith('"total_tokens":15}}}\n\n')).toBe(true);
    expect(server.requests[0]!.api).toBe('openai-responses');
  });

  it('speaks Chat Completions on /v1/chat/completions with exact SSE frames, ending in [DONE]', async () => {
    server = await startModelServer({ turns: [{ tools: [{ name: 'bash', input: { command: 'ls' } }] }] }, { model: 'm', now: () => 7 });
    const side = await post('/v1/chat/completions', { stream: true, messages: [] });
    expect(side.text).toBe(
      'data: {"id":"chatcmpl_scripted_1","object":"chat.completion.chunk","created":7,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}\n\n' +
        'data: {"id":"chatcmpl_scripted_1","object":"chat.completion.chunk","created":7,"model":"m","choices":[{"index":0,"delta":{"content":"Scripted session"},"finish_reason":null}]}\n\n' +
        'data: {"id":"chatcmpl_scripted_1","object":"chat.completion.chunk","created":7,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n' +
        'data: {"id":"chatcmpl_scripted_1","object":"chat.completion.chunk","created":7,"model":"m","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}\n\n' +
        'data: [DONE]\n\n',
    );
    const main = await post('/v1/chat/completions', { stream: true, tools: [{ type: 'function' }] });
    expect(main.type).toBe('text/event-stream');
    expect(main.text).toContain('"tool_calls":[{"index":0,"id":"call_scripted_2_0","type":"function","function":{"name":"bash","arguments":"{\\"command\\":\\"ls\\"}"}}]');
    expect(server.requests.map((r) => [r.api, r.kind, r.turn])).toEqual([
      ['openai-chat', 'side', null],
      ['openai-chat', 'main', 0],
    ]);
  });

  it('speaks Gemini streamGenerateContent, and answers a JSON-schema side request with an instance of the schema', async () => {
    server = await startModelServer({ turns: [{ tools: [{ name: 'run_shell_command', input: { command: 'ls' } }] }] }, { model: 'g' });
    const side = await post('/v1beta/models/flash-lite:generateContent', {
      generationConfig: { responseMimeType: 'application/json', responseJsonSchema: { type: 'OBJECT', properties: { complexity_score: { type: 'INTEGER' } } } },
    });
    expect(JSON.parse(side.text).candidates[0].content.parts[0].text).toBe('{"complexity_score":1}');
    const main = await post('/v1beta/models/flash:streamGenerateContent?alt=sse', { tools: [{ functionDeclarations: [{ name: 'run_shell_command' }] }] });
    expect(main.text).toBe(
      'data: {"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"run_shell_command","args":{"command":"ls"}}}]},"index":0,"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":5,"totalTokenCount":15},"modelVersion":"g"}\n\n',
    );
    expect(server.requests.map((r) => `${r.url} ${r.kind}`)).toEqual(['/v1beta/models/flash-lite:generateContent side', '/v1beta/models/flash:streamGenerateContent?alt=sse main']);
  });

  it('speaks Chat Completions on /v1/chat/completions (SSE when streaming, JSON otherwise) and lists its model', async () => {
    server = await startModelServer({ turns: [{ tools: [{ name: 'run_shell_command', input: { command: 'ls' } }] }, { text: 'ok' }], sideText: 'T' }, { model: 'q', now: () => 7 });
    const side = await post('/v1/chat/completions', { stream: false, messages: [] });
    expect(JSON.parse(side.text).choices[0].message).toEqual({ role: 'assistant', content: 'T' });
    const main = await post('/chat/completions', { stream: true, tools: [{ type: 'function' }] });
    expect(main.type).toBe('text/event-stream');
    expect(main.text).toContain('data: {"id":"chatcmpl_scripted_2","object":"chat.completion.chunk","created":7,"model":"q","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_scripted_2_0","type":"function","function":{"name":"run_shell_command","arguments":"{\\"command\\":\\"ls\\"}"}}]},"finish_reason":null}]}\n\n');
    expect(main.text.endsWith('data: [DONE]\n\n')).toBe(true);
    const models = await fetch(`${server.url}/v1/models`);
    expect(await models.text()).toBe('{"object":"list","data":[{"id":"q","object":"model","created":0,"owned_by":"aep-vendor-lane"}]}');
    expect(server.requests.map((r) => [r.api, r.kind, r.turn])).toEqual([['openai-chat', 'side', null], ['openai-chat', 'main', 0], ['openai-chat', 'side', null]]);
  });

  it('counts tokens, and answers an unknown path 404 naming it (recorded too)', async () => {
    server = await startModelServer({ turns: [] });
    expect(JSON.parse((await post('/v1/messages/count_tokens', { messages: [] })).text)).toEqual({ input_tokens: 4 });
    const unknown = await post('/v2/nothing', {});
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe('{"error":{"type":"not_found","message":"the scripted model server has no POST /v2/nothing"}}');
    expect(server.requests.map((r) => r.api)).toEqual(['anthropic', 'unknown']);
  });
});
