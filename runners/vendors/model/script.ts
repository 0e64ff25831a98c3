/**
 * The script a scripted model server follows: a list of turns, one per model request that
 * counts (a "main" request: one that offers tools). Requests that offer no tools (titles,
 * summaries, probes) are side requests: they get `sideText` and consume no turn.
 * Once the turns are used up, every further main request gets `doneText`.
 * Pure: no I/O.
 */

/** One tool call the model makes. `id` defaults to a counter-based id chosen by the server. */
export interface ToolCall {
  name: string;
  input: Record<string, unknown>;
  id?: string;
}

/** One model turn: optional text, then zero or more tool calls (the turn ends with tool use when any). */
export interface Turn {
  text?: string;
  tools?: readonly ToolCall[];
}

export interface Script {
  turns: readonly Turn[];
  /** Answer to main requests after the last turn; default "Done.". */
  doneText?: string;
  /** Answer to side requests; default "Scripted session". */
  sideText?: string;
}

/** What a recorded request is, for the turn cursor. */
export type RequestKind = 'main' | 'side';

/** The turn a request gets, advancing the cursor for main requests. */
export class TurnCursor {
  private next = 0;
  constructor(private readonly script: Script) {}

  /** The turn for one request of `kind`; side requests never advance the cursor. */
  take(kind: RequestKind): { turn: Turn; index: number | null } {
    if (kind === 'side') return { turn: { text: this.script.sideText ?? 'Scripted session' }, index: null };
    if (this.next < this.script.turns.length) {
      const index = this.next++;
      return { turn: this.script.turns[index]!, index };
    }
    return { turn: { text: this.script.doneText ?? 'Done.' }, index: null };
  }

  /** How many scripted turns have been served. */
  served(): number {
    return this.next;
  }
}
