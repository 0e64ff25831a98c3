/**
 * The OpenAI Chat Completions API, scripted (pure): one turn as the SSE frames of a streamed
 * `POST /v1/chat/completions` reply (what OpenCode's and Kilo Code's `@ai-sdk/openai-compatible`
 * provider and pi's `openai-completions` API call). Frame order: the text as one content delta
 * (when any), each tool call as one `tool_calls` delta (id, name and the whole arguments), a
 * last chunk with `finish_reason` (`tool_calls` or `stop`) and `usage`, then `data: [DONE]`.
 * Frames are unnamed (no `event:` line), as OpenAI sends them.
 */
import { sseFrame } from './sse.js';
import type { Turn } from './script.js';

export interface ChatIds {
  completion: string;
  /** The call id of the i-th tool call (a call's own `id` overrides it). */
  call: (i: number) => string;
}

/** The SSE frames of a streamed reply, in order, ending with `data: [DONE]`. */
export function chatFrames(turn: Turn, ids: ChatIds, model: string, created: number): string[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null, usage?: Record<string, number>): string =>
    sseFrame({ id: ids.completion, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) });
  const frames: string[] = [];
  const tools = turn.tools ?? [];
  if (turn.text !== undefined && turn.text !== '') frames.push(chunk({ role: 'assistant', content: turn.text }, null));
  tools.forEach((t, index) => {
    frames.push(chunk({ ...(frames.length === 0 ? { role: 'assistant' } : {}), tool_calls: [{ index, id: t.id ?? ids.call(index), type: 'function', function: { name: t.name, arguments: JSON.stringify(t.input) } }] }, null));
  });
  if (frames.length === 0) frames.push(chunk({ role: 'assistant', content: '' }, null));
  frames.push(chunk({}, tools.length > 0 ? 'tool_calls' : 'stop', { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }));
  frames.push('data: [DONE]\n\n');
  return frames;
}

/** Whether a request body offers tools (a main request, which consumes a turn). */
export function chatOffersTools(body: Record<string, unknown>): boolean {
  return Array.isArray(body.tools) && body.tools.length > 0;
}
