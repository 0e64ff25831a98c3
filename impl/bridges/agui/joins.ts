/**
 * The receiver joins of one AG-UI tee stream, pure state: what the mapper needs that an event does
 * not carry itself, joined in from an earlier event of the same stream, so the mapper is handed
 * exactly what the standard's pins hand it.
 *
 * - TOOL_CALL_RESULT carries only its `toolCallId`: the `toolCallName` of its TOOL_CALL_START (or
 *   of a TOOL_CALL_CHUNK that names the call).
 * - TEXT_MESSAGE_END carries only its `messageId`: the `role` of its TEXT_MESSAGE_START and, when
 *   `assemble` is on (a redacted ceiling or above), the `content` its TEXT_MESSAGE_CONTENT deltas
 *   streamed, at most `MAX_ASSEMBLED` characters (the rest is cut, never buffered).
 *
 * Memory is bounded: a call or message is forgotten at its result or end, and at most
 * `MAX_OPEN` of each are held (the oldest forgotten first: a late result then maps as "unknown").
 */
type Obj = Record<string, unknown>;

export const MAX_OPEN = 4096;
export const MAX_ASSEMBLED = 64 * 1024;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_OPEN) map.delete(map.keys().next().value as string);
}

export class StreamJoins {
  private readonly tools = new Map<string, string>();
  private readonly messages = new Map<string, { role?: string; text: string }>();

  constructor(private readonly assemble: boolean) {}

  /** The event as the mapper takes it: the same object when nothing is joined, else an enriched copy. */
  enrich(event: Obj): Obj {
    const type = event.type;
    const callId = str(event.toolCallId);
    const messageId = str(event.messageId);
    // A TOOL_CALL_CHUNK that names its call opens it too (the chunked form of START/ARGS/END).
    if ((type === 'TOOL_CALL_START' || type === 'TOOL_CALL_CHUNK') && callId !== undefined && str(event.toolCallName) !== undefined) {
      remember(this.tools, callId, event.toolCallName as string);
      return event;
    }
    if (type === 'TOOL_CALL_RESULT' && callId !== undefined) {
      const name = this.tools.get(callId);
      this.tools.delete(callId);
      return name !== undefined && str(event.toolCallName) === undefined ? { ...event, toolCallName: name } : event;
    }
    if (type === 'TEXT_MESSAGE_START' && messageId !== undefined) {
      remember(this.messages, messageId, { ...(str(event.role) ? { role: event.role as string } : {}), text: '' });
      return event;
    }
    if (type === 'TEXT_MESSAGE_CONTENT' && messageId !== undefined && this.assemble && typeof event.delta === 'string') {
      const open = this.messages.get(messageId);
      if (open && open.text.length < MAX_ASSEMBLED) open.text = (open.text + event.delta).slice(0, MAX_ASSEMBLED);
      return event;
    }
    if (type === 'TEXT_MESSAGE_END' && messageId !== undefined) {
      const open = this.messages.get(messageId);
      this.messages.delete(messageId);
      if (!open) return event;
      const out: Obj = { ...event };
      if (open.role !== undefined && str(event.role) === undefined) out.role = open.role;
      if (this.assemble && open.text !== '' && event.content === undefined) out.content = open.text;
      return out;
    }
    return event;
  }
}
