/**
 * AEP-0003 §9.3 digests: `*_digest` fields (`args_digest`, `result_digest`, `query_digest`,
 * `text_digest`) are SHA-256 over the canonical JSON of the ORIGINAL content, truncated to the
 * first 16 bytes and written as lowercase hex (32 characters). Compute them before redaction
 * so redacted streams stay joinable. They correlate; they do not conceal (AEP-0003 §11).
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical.js';

/** Length of a digest string: 16 bytes as hex. */
export const DIGEST_HEX_LENGTH = 32;

/**
 * Digest any JSON value. A string digests as its canonical JSON, i.e. the quoted string
 * (`digest("ls")` hashes the 4 bytes `"ls"`), so `digest("1")` and `digest(1)` differ.
 * @throws TypeError when `value` has no JSON form (see `canonicalJson`).
 */
export function digest(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex').slice(0, DIGEST_HEX_LENGTH);
}

/** `tool.requested.data.args_digest` for the original tool arguments. */
export const argsDigest = (args: unknown): string => digest(args);
/** `tool.completed.data.result_digest` for the original tool result (object or string). */
export const resultDigest = (result: unknown): string => digest(result);
/** `resource.retrieval.*.data.query_digest` for the original query. */
export const queryDigest = (query: unknown): string => digest(query);
/** `message.*.data.text_digest` (AEP-0007) for the original message text. */
export const textDigest = (text: string): string => digest(text);
