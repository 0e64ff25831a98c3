/**
 * The OpenAI Responses API, scripted (pure): one turn as the SSE frames of a streamed
 * `POST /v1/responses` reply. Frame order: response.created, response.in_progress, then per
 * output item (a message with the text first, then each function_call) output_item.added,
 * its deltas and done frames, output_item.done, and response.completed with usage.
 * Every frame carries a `sequence_number`, counting from 0.
 */
import { sseFrame } from './sse.js';
import type { Turn } from './script.js';

export interface ResponseIds {
  response: string;
  message: string;
  /** Item id and call id of the i-th function call (a call's own `id` overrides the call id). */
  call: (i: number) => { item: string; call: string };
}

type Item =
  | { type: 'message'; id: string; status: string; role: 'assistant'; content: { type: 'output_text'; text: string; annotations: [] }[] }
  | { type: 'function_call'; id: string; call_id: string; name: string; arguments: string; status: string };

function items(turn: Turn, ids: ResponseIds): Item[] {
  const out: Item[] = [];
  if (turn.text !== undefined && turn.text !== '') {
    out.push({ type: 'message', id: ids.message, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: turn.text, annotations: [] }] });
  }
  (turn.tools ?? []).forEach((t, i) => {
    const id = ids.call(i);
    out.push({ type: 'function_call', id: id.item, call_id: t.id ?? id.call, name: t.name, arguments: JSON.stringify(t.input), status: 'completed' });
  });
  return out;
}

/** The SSE frames of a streamed reply, in order. */
export function responsesFrames(turn: Turn, ids: ResponseIds, model: string, createdAt: number): string[] {
  let seq = 0;
  const frames: string[] = [];
  const emit = (type: string, fields: Record<string, unknown>): void => void frames.push(sseFrame({ type, sequence_number: seq++, ...fields }, type));
  const base = { id: ids.response, object: 'response', created_at: createdAt, model };
  emit('response.created', { response: { ...base, status: 'in_progress', output: [] } });
  emit('response.in_progress', { response: { ...base, status: 'in_progress', output: [] } });
  const all = items(turn, ids);
  all.forEach((item, output_index) => {
    if (item.type === 'message') {
      const text = item.content[0]!.text;
      emit('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
      emit('response.content_part.added', { item_id: item.id, output_index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
      emit('response.output_text.delta', { item_id: item.id, output_index, content_index: 0, delta: text });
      emit('response.output_text.done', { item_id: item.id, output_index, content_index: 0, text });
      emit('response.content_part.done', { item_id: item.id, output_index, content_index: 0, part: item.content[0] });
    } else {
      emit('response.output_item.added', { output_index, item: { ...item, arguments: '', status: 'in_progress' } });
      emit('response.function_call_arguments.delta', { item_id: item.id, output_index, delta: item.arguments });
      emit('response.function_call_arguments.done', { item_id: item.id, output_index, arguments: item.arguments });
    }
    emit('response.output_item.done', { output_index, item });
  });
  emit('response.completed', {
    response: {
      ...base,
      status: 'completed',
      output: all,
      usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 },
    },
  });
  return frames;
}

/** Whether a request body offers tools (a main request, which consumes a turn). */
export function responsesOffersTools(body: Record<string, unknown>): boolean {
  return Array.isArray(body.tools) && body.tools.length > 0;
}
