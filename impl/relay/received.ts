/**
 * An accepted event as the relay passes it around (ingest, fan-out, replay). Its own module so
 * the modules the buffer uses can name it without importing the buffer; `buffer.ts` re-exports it.
 */
import type { AepEvent } from '../core/event.js';

/** An accepted event: the parsed envelope and its JSON text as received, on one line. */
export interface Received {
  readonly event: AepEvent;
  readonly raw: string;
  /** Set when the content exceeds the declared `capture`: fan-out then treats it as `full`. */
  readonly overDeclared?: boolean;
}
