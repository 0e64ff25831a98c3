/**
 * A JSON request body read at the edge of an inbound surface, bounded in size and depth, strictly
 * UTF-8: the body text, its value, or the refusal to send (status and a JSON body naming the limit
 * and its variable). A client that hung up yields `aborted`: nobody to answer, nothing kept.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tooDeepAt } from '../core/json-shape.js';
import { readBody } from './body.js';
import type { EdgeLimits } from './limits.js';
import { lingerClose, replyJson } from './reply.js';

/** A refusal: its status and JSON body. */
export interface EdgeRefusal {
  readonly status: number;
  readonly body: { readonly error: string; readonly detail: string; readonly [k: string]: unknown };
}

export type JsonBodyResult =
  | { readonly ok: true; readonly text: string; readonly value: unknown }
  | { readonly ok: false; readonly aborted: true }
  | { readonly ok: false; readonly aborted: false; readonly refusal: EdgeRefusal };

/** Which variables name a surface's limits in its refusals: the prefix AEP_OTLP_IN names AEP_OTLP_IN_MAX_BODY and its siblings. */
const named = (prefix: string | undefined, suffix: string): string => (prefix ? ` (${prefix}_${suffix})` : '');

export function tooLarge(limits: EdgeLimits, prefix?: string): EdgeRefusal {
  return { status: 413, body: { error: 'payload-too-large', detail: `the body exceeds ${limits.maxBody} bytes${named(prefix, 'MAX_BODY')}; nothing was taken`, limit: limits.maxBody } };
}

export function tooDeep(limits: EdgeLimits, path: string, prefix?: string): EdgeRefusal {
  return { status: 400, body: { error: 'too-deep', detail: `the body nests deeper than ${limits.maxDepth} levels at ${path}${named(prefix, 'MAX_DEPTH')}; nothing was taken`, limit: limits.maxDepth, path } };
}

/** The depth refusal of a parsed value, or undefined when it is within `limits.maxDepth` (iterative: any depth is safe). */
export function depthRefusal(value: unknown, limits: EdgeLimits, prefix?: string): EdgeRefusal | undefined {
  const path = tooDeepAt(value, limits.maxDepth);
  return path === undefined ? undefined : tooDeep(limits, path, prefix);
}

/** Parse `text` as JSON within the depth bound: the value, or the refusal. */
export function parseJsonWithin(text: string, limits: EdgeLimits, prefix?: string): { ok: true; value: unknown } | { ok: false; refusal: EdgeRefusal } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, refusal: { status: 400, body: { error: 'invalid-json', detail: `the body is not JSON (${err instanceof Error ? err.message : String(err)})` } } };
  }
  const deep = depthRefusal(value, limits, prefix);
  return deep ? { ok: false, refusal: deep } : { ok: true, value };
}

/** Read and parse a JSON body within `limits` (size, UTF-8, syntax, depth). */
export async function readJsonBody(req: IncomingMessage, limits: EdgeLimits, prefix?: string): Promise<JsonBodyResult> {
  const read = await readBody(req, limits.maxBody);
  if (!read.ok) {
    if (read.reason === 'encoding') return { ok: false, aborted: false, refusal: { status: 400, body: { error: 'invalid-encoding', detail: `the body is not valid UTF-8 (first bad byte at offset ${read.offset})`, offset: read.offset } } };
    if (read.reason === 'aborted') return { ok: false, aborted: true };
    return { ok: false, aborted: false, refusal: tooLarge(limits, prefix) };
  }
  const parsed = parseJsonWithin(read.text, limits, prefix);
  return parsed.ok ? { ok: true, text: read.text, value: parsed.value } : { ok: false, aborted: false, refusal: parsed.refusal };
}

/** Send a refusal; a 413 also stops reading the rest of the upload and closes the connection. */
export function refuse(req: IncomingMessage, res: ServerResponse, refusal: EdgeRefusal): void {
  if (refusal.status === 413) {
    lingerClose(req);
    replyJson(res, 413, refusal.body, { connection: 'close' });
    return;
  }
  replyJson(res, refusal.status, refusal.body);
}
