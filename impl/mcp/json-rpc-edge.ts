/**
 * The edge of `aep mcp`'s JSON-RPC input, pure: what one input line is (a message for the SDK, or
 * the JSON-RPC error to answer), and the id of an oversized line read from its head. Every invalid
 * line is answered, never dropped in silence: -32700 for text that is not JSON (or not UTF-8),
 * -32600 for JSON that is not a JSON-RPC message, a batch, a message nested too deep, or a line over
 * the size limit; the id is the request's own when it can be read, else null (JSON-RPC 2.0 §5.1).
 */
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { tooDeepAt } from '../core/json-shape.js';

export type RpcId = string | number | null;

/** A JSON-RPC error response. */
export interface RpcErrorResponse {
  jsonrpc: '2.0';
  id: RpcId;
  error: { code: number; message: string; data?: Record<string, unknown> };
}

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

/** The limits of one line: its size in bytes, and its nesting. */
export interface LineLimits {
  readonly maxLine: number;
  readonly maxDepth: number;
}

export const MCP_LIMITS: LineLimits = Object.freeze({ maxLine: 10 * 1024 * 1024, maxDepth: 64 });

const errorOf = (id: RpcId, code: number, message: string, data?: Record<string, unknown>): RpcErrorResponse => ({ jsonrpc: '2.0', id, error: { code, message, ...(data ? { data } : {}) } });

/** The id of a value when it is a request-shaped object with a valid id (string or number). */
function idOf(value: unknown): RpcId {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const id = (value as Record<string, unknown>).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/** One decoded line: the message to hand to the SDK, or the error to answer (null: nothing, an empty line). */
export function judgeLine(text: string, limits: LineLimits = MCP_LIMITS): { message: JSONRPCMessage } | { error: RpcErrorResponse } | null {
  if (text === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { error: errorOf(null, PARSE_ERROR, `Parse error: the line is not JSON (${err instanceof Error ? err.message : String(err)})`) };
  }
  const deep = tooDeepAt(value, limits.maxDepth);
  if (deep !== undefined) return { error: errorOf(idOf(value), INVALID_REQUEST, `Invalid Request: the message nests deeper than ${limits.maxDepth} levels at ${deep} (AEP_MCP_MAX_DEPTH)`, { limit: limits.maxDepth, path: deep }) };
  if (Array.isArray(value)) return { error: errorOf(null, INVALID_REQUEST, 'Invalid Request: batches are not supported; send one JSON-RPC message per line') };
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first && first.path.length > 0 ? ` (at ${first.path.join('.')})` : '';
    return { error: errorOf(idOf(value), INVALID_REQUEST, `Invalid Request: not a JSON-RPC 2.0 request, notification or response${where}; send {"jsonrpc":"2.0","id":…,"method":…}`) };
  }
  return { message: parsed.data };
}

/** The answer to a line that is not UTF-8. */
export function encodingError(offset: number): RpcErrorResponse {
  return errorOf(null, PARSE_ERROR, `Parse error: the line is not valid UTF-8 (first bad byte at offset ${offset})`);
}

/** The answer to a line over the size limit, with the id read from its head when there is one. */
export function oversizeError(head: string, size: number, limits: LineLimits = MCP_LIMITS): RpcErrorResponse {
  return errorOf(sniffId(head), INVALID_REQUEST, `Invalid Request: the message is ${size} bytes or more, over this server's limit of ${limits.maxLine} bytes per line (AEP_MCP_MAX_LINE); nothing of it was read`, { limit: limits.maxLine });
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/;

/**
 * The top-level `id` member of a JSON object's text, read from its first bytes only (the rest of
 * an oversized line is never kept): a string or number id, else null. Linear in `head`.
 */
export function sniffId(head: string): RpcId {
  let i = head.search(/\S/);
  if (i < 0 || head[i] !== '{') return null;
  i++;
  let depth = 1;
  let state: 'key' | 'colon' | 'value' | 'after' = 'key';
  let key: string | undefined;
  const n = head.length;
  while (i < n) {
    const c = head[i]!;
    if (c === '"') {
      let j = i + 1;
      for (; j < n; j++) {
        const d = head[j];
        if (d === '\\') j++;
        else if (d === '"') break;
      }
      if (j >= n) return null;
      if (depth === 1) {
        let text: string;
        try {
          text = JSON.parse(head.slice(i, j + 1)) as string;
        } catch {
          return null;
        }
        if (state === 'key') {
          key = text;
          state = 'colon';
        } else if (state === 'value') {
          if (key === 'id') return text;
          state = 'after';
        }
      }
      i = j + 1;
      continue;
    }
    if (c === '{' || c === '[') {
      if (depth === 1 && state === 'value' && key === 'id') return null;
      depth++;
    } else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return null;
      if (depth === 1) state = 'after';
    } else if (depth === 1) {
      if (c === ':' && state === 'colon') state = 'value';
      else if (c === ',') state = 'key';
      else if (state === 'value' && !/\s/.test(c)) {
        if (key === 'id') {
          const m = NUMBER.exec(head.slice(i, i + 40));
          return m ? Number(m[0]) : null;
        }
        state = 'after';
      }
    }
    i++;
  }
  return null;
}

/** The limits from `AEP_MCP_MAX_LINE` (bytes, at least 1024) and `AEP_MCP_MAX_DEPTH` (at least 2), or an error naming the bad variable. */
export function mcpLimitsFromEnv(env: Record<string, string | undefined>): LineLimits | string {
  const read = (name: string, min: number, fallback: number): number | string => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    return /^[0-9]+$/.test(raw) && Number.isSafeInteger(Number(raw)) && Number(raw) >= min ? Number(raw) : `${name} must be a whole number of at least ${min}, got '${raw}'`;
  };
  const maxLine = read('AEP_MCP_MAX_LINE', 1024, MCP_LIMITS.maxLine);
  if (typeof maxLine === 'string') return maxLine;
  const maxDepth = read('AEP_MCP_MAX_DEPTH', 2, MCP_LIMITS.maxDepth);
  if (typeof maxDepth === 'string') return maxDepth;
  return { maxLine, maxDepth };
}
