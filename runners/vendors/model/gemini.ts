/**
 * The Gemini API, scripted (pure): one turn as the SSE frames of a
 * `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` reply (one chunk with the text, one
 * per function call, the last chunk carrying finishReason STOP and usageMetadata), or as the
 * JSON body of a non-streamed `:generateContent`.
 */
import { sseFrame } from './sse.js';
import type { Turn } from './script.js';

type Part = { text: string } | { functionCall: { name: string; args: Record<string, unknown> } };

function parts(turn: Turn): Part[] {
  const out: Part[] = [];
  if (turn.text !== undefined && turn.text !== '') out.push({ text: turn.text });
  for (const t of turn.tools ?? []) out.push({ functionCall: { name: t.name, args: t.input } });
  if (out.length === 0) out.push({ text: '' });
  return out;
}

const usage = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };

function chunk(part: Part, last: boolean, model: string): Record<string, unknown> {
  const candidate: Record<string, unknown> = { content: { role: 'model', parts: [part] }, index: 0 };
  if (last) candidate.finishReason = 'STOP';
  return last ? { candidates: [candidate], usageMetadata: usage, modelVersion: model } : { candidates: [candidate], modelVersion: model };
}

/** The SSE frames (unnamed `data:` frames) of a streamed reply, in order. */
export function geminiFrames(turn: Turn, model: string): string[] {
  const all = parts(turn);
  return all.map((p, i) => sseFrame(chunk(p, i === all.length - 1, model)));
}

/** The JSON body of a non-streamed reply. */
export function geminiResponse(turn: Turn, model: string): Record<string, unknown> {
  return { candidates: [{ content: { role: 'model', parts: parts(turn) }, finishReason: 'STOP', index: 0 }], usageMetadata: usage, modelVersion: model };
}

/** Whether a request body offers function declarations (a main request, which consumes a turn). */
export function geminiOffersTools(body: Record<string, unknown>): boolean {
  const tools = body.tools;
  return Array.isArray(tools) && tools.some((t) => typeof t === 'object' && t !== null && Array.isArray((t as { functionDeclarations?: unknown }).functionDeclarations) && (t as { functionDeclarations: unknown[] }).functionDeclarations.length > 0);
}
