/**
 * The OpenAI Chat Completions API, scripted (pure): one turn as the SSE frames of a streamed
 * `POST /v1/chat/completions` reply (what OpenAI-compatible clients such as Qwen Code and Cline
 * call), or as one JSON body when the request does not stream. Frame order: a role chunk, the
 * text as one content delta, each tool call as one delta (id, name and its whole arguments), the
 * finish chunk (`tool_calls` or `stop`), a usage chunk, and `data: [DONE]`.
 */
import { sseFrame } from './sse.js';
import type { Turn } from './script.js';

export interface ChatIds {
  completion: string;
  /** The call id of the i-th tool call (a call's own `id` overrides it). */
  call: (i: number) => string;
}

const USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

function calls(turn: Turn, ids: ChatIds): { index: number; id: string; type: 'function'; function: { name: string; arguments: string } }[] {
  return (turn.tools ?? []).map((t, index) => ({ index, id: t.id ?? ids.call(index), type: 'function', function: { name: t.name, arguments: JSON.stringify(t.input) } }));
}

/** The SSE frames of a streamed reply, in order, ending with `data: [DONE]`. */
export function chatFrames(turn: Turn, ids: ChatIds, model: string, created: number): string[] {
  const base = { id: ids.completion, object: 'chat.completion.chunk', created, model };
  const chunk = (delta: Record<string, unknown>, finish: string | null): string => sseFrame({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const frames = [chunk({ role: 'assistant', content: '' }, null)];
  if (turn.text !== undefined && turn.text !== '') frames.push(chunk({ content: turn.text }, null));
  const all = calls(turn, ids);
  for (const c of all) frames.push(chunk({ tool_calls: [c] }, null));
  frames.push(chunk({}, all.length > 0 ? 'tool_calls' : 'stop'));
  frames.push(sseFrame({ ...base, choices: [], usage: USAGE }));
  frames.push('data: [DONE]\n\n');
  return frames;
}

/** The JSON body of a reply to a request that does not stream. */
export function chatCompletion(turn: Turn, ids: ChatIds, model: string, created: number): Record<string, unknown> {
  const all = calls(turn, ids).map(({ index: _index, ...c }) => c);
  const message: Record<string, unknown> = { role: 'assistant', content: turn.text ?? (all.length ? null : '') };
  if (all.length) message.tool_calls = all;
  return { id: ids.completion, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: all.length ? 'tool_calls' : 'stop' }], usage: USAGE };
}

/** Whether a request body offers tools (a main request, which consumes a turn). */
export function chatOffersTools(body: Record<string, unknown>): boolean {
  return Array.isArray(body.tools) && body.tools.length > 0;
}
