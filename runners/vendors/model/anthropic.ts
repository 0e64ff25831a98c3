/**
 * The Anthropic Messages API, scripted (pure): one turn as the SSE frames of a streamed
 * `POST /v1/messages` reply, or as the JSON body of a non-streamed one.
 * Frame order: message_start, per content block (text first, then each tool_use)
 * content_block_start / content_block_delta / content_block_stop, message_delta, message_stop.
 */
import { sseFrame } from './sse.js';
import type { Turn } from './script.js';

/** Ids of one reply; the server chooses them (counters), tests pin them. */
export interface ReplyIds {
  message: string;
  /** Id for the i-th tool call that has no `id` of its own. */
  tool: (i: number) => string;
}

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

function blocks(turn: Turn, ids: ReplyIds): Block[] {
  const out: Block[] = [];
  if (turn.text !== undefined && turn.text !== '') out.push({ type: 'text', text: turn.text });
  (turn.tools ?? []).forEach((t, i) => out.push({ type: 'tool_use', id: t.id ?? ids.tool(i), name: t.name, input: t.input }));
  if (out.length === 0) out.push({ type: 'text', text: '' });
  return out;
}

const stopReason = (turn: Turn): string => ((turn.tools ?? []).length > 0 ? 'tool_use' : 'end_turn');
const outputTokens = (turn: Turn): number => Math.max(1, Math.ceil(JSON.stringify(turn).length / 4));

/** The SSE frames of a streamed reply, in order. */
export function anthropicFrames(turn: Turn, ids: ReplyIds, model: string): string[] {
  const frames = [
    sseFrame(
      {
        type: 'message_start',
        message: { id: ids.message, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } },
      },
      'message_start',
    ),
  ];
  blocks(turn, ids).forEach((b, index) => {
    if (b.type === 'text') {
      frames.push(sseFrame({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, 'content_block_start'));
      frames.push(sseFrame({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: b.text } }, 'content_block_delta'));
    } else {
      frames.push(sseFrame({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } }, 'content_block_start'));
      frames.push(sseFrame({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) } }, 'content_block_delta'));
    }
    frames.push(sseFrame({ type: 'content_block_stop', index }, 'content_block_stop'));
  });
  frames.push(sseFrame({ type: 'message_delta', delta: { stop_reason: stopReason(turn), stop_sequence: null }, usage: { output_tokens: outputTokens(turn) } }, 'message_delta'));
  frames.push(sseFrame({ type: 'message_stop' }, 'message_stop'));
  return frames;
}

/** The JSON body of a non-streamed reply. */
export function anthropicMessage(turn: Turn, ids: ReplyIds, model: string): Record<string, unknown> {
  return {
    id: ids.message,
    type: 'message',
    role: 'assistant',
    model,
    content: blocks(turn, ids),
    stop_reason: stopReason(turn),
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: outputTokens(turn) },
  };
}

/** Whether a request body offers tools (a main request, which consumes a turn). */
export function anthropicOffersTools(body: Record<string, unknown>): boolean {
  return Array.isArray(body.tools) && body.tools.length > 0;
}
