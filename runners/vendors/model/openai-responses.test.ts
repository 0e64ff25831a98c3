import { describe, expect, it } from 'vitest';
import { responsesFrames, responsesOffersTools } from './openai-responses.js';

const ids = { response: 'resp_1', message: 'msg_1', call: (i: number) => ({ item: `fc_${i}`, call: `call_${i}` }) };

describe('responsesFrames', () => {
  it('streams a function call as the Responses API event sequence, byte for byte', () => {
    const frames = responsesFrames({ tools: [{ name: 'exec_command', input: { cmd: 'ls' } }] }, ids, 'm', 1700000000);
    expect(frames.join('')).toBe(
      'event: response.created\ndata: {"type":"response.created","sequence_number":0,"response":{"id":"resp_1","object":"response","created_at":1700000000,"model":"m","status":"in_progress","output":[]}}\n\n' +
        'event: response.in_progress\ndata: {"type":"response.in_progress","sequence_number":1,"response":{"id":"resp_1","object":"response","created_at":1700000000,"model":"m","status":"in_progress","output":[]}}\n\n' +
        'event: response.output_item.added\ndata: {"type":"response.output_item.added","sequence_number":2,"output_index":0,"item":{"type":"function_call","id":"fc_0","call_id":"call_0","name":"exec_command","arguments":"","status":"in_progress"}}\n\n' +
        'event: response.function_call_arguments.delta\ndata: {"type":"response.function_call_arguments.delta","sequence_number":3,"item_id":"fc_0","output_index":0,"delta":"{\\"cmd\\":\\"ls\\"}"}\n\n' +
        'event: response.function_call_arguments.done\ndata: {"type":"response.function_call_arguments.done","sequence_number":4,"item_id":"fc_0","output_index":0,"arguments":"{\\"cmd\\":\\"ls\\"}"}\n\n' +
        'event: response.output_item.done\ndata: {"type":"response.output_item.done","sequence_number":5,"output_index":0,"item":{"type":"function_call","id":"fc_0","call_id":"call_0","name":"exec_command","arguments":"{\\"cmd\\":\\"ls\\"}","status":"completed"}}\n\n' +
        'event: response.completed\ndata: {"type":"response.completed","sequence_number":6,"response":{"id":"resp_1","object":"response","created_at":1700000000,"model":"m","status":"completed","output":[{"type":"function_call","id":"fc_0","call_id":"call_0","name":"exec_command","arguments":"{\\"cmd\\":\\"ls\\"}","status":"completed"}],"usage":{"input_tokens":10,"input_tokens_details":{"cached_tokens":0},"output_tokens":5,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":15}}}\n\n',
    );
  });

  it('streams text as a message item with its content part, before any call', () => {
    const frames = responsesFrames({ text: 'Hi', tools: [{ name: 'f', input: {}, id: 'mine' }] }, ids, 'm', 1);
    const types = frames.map((f) => /^event: (\S+)/.exec(f)![1]);
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(frames[4]).toBe('event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":4,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"Hi"}\n\n');
    expect(frames[11]).toContain('"output_index":1,"item":{"type":"function_call","id":"fc_0","call_id":"mine"');
  });

  it('tells a main request from a side request', () => {
    expect(responsesOffersTools({ tools: [{ type: 'function' }] })).toBe(true);
    expect(responsesOffersTools({ input: [] })).toBe(false);
  });
});
