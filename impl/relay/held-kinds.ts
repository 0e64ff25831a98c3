/**
 * The distinct `(source, agent, type, epoch)` kinds of one session's held events, each held event
 * naming its kind by a small number (a session has a handful: its sources times its types times
 * its epochs). Counted: a kind no held event names any more is dropped and its number reused, so
 * the table is bounded by the held events. Pure data structure, no I/O.
 */

export interface Kind {
  readonly source: string;
  readonly agent: string | undefined;
  readonly type: string;
  /** The epoch of the event's position (its attach point's when seq-less). */
  readonly epoch: number;
  /** `hashText(source)`, for the dedupe index. */
  readonly sourceHash: number;
}

/** A kind's map key, unambiguous whatever its strings hold (each length-prefixed, the last one ends the key). */
const key = (source: string, agent: string | undefined, type: string, epoch: number): string =>
  `${epoch}:${source.length}:${source}${agent === undefined ? '-' : `+${agent.length}:${agent}`}${type}`;

export class HeldKinds {
  readonly #byKey = new Map<string, number>();
  readonly #kinds: Array<Kind | undefined> = [];
  readonly #uses: number[] = [];
  readonly #free: number[] = [];
  /** Per source named by some kind: its hash and how many kinds name it. */
  readonly #sources = new Map<string, { readonly hash: number; kinds: number }>();
  /** The last kind named, so a run of events of one kind skips the key. */
  #last = -1;

  /** The kind numbered `n`. */
  get(n: number): Kind {
    return this.#kinds[n]!;
  }

  /** `hashText(source)` when some held event comes from `source`, else undefined (no pair from it is held). */
  sourceHash(source: string): number | undefined {
    const last = this.#last >= 0 ? this.#kinds[this.#last] : undefined;
    if (last !== undefined && last.source === source) return last.sourceHash;
    return this.#sources.get(source)?.hash;
  }

  /** The number of the kind, counting one more use; `sourceHash` is computed when the source is new. */
  use(source: string, agent: string | undefined, type: string, epoch: number, sourceHash: (source: string) => number): number {
    const last = this.#last >= 0 ? this.#kinds[this.#last] : undefined;
    let n: number;
    if (last !== undefined && last.source === source && last.agent === agent && last.type === type && last.epoch === epoch) n = this.#last;
    else {
      const k = key(source, agent, type, epoch);
      const known = this.#byKey.get(k);
      if (known !== undefined) n = known;
      else {
        n = this.#free.pop() ?? this.#kinds.length;
        let src = this.#sources.get(source);
        if (src === undefined) this.#sources.set(source, (src = { hash: sourceHash(source), kinds: 0 }));
        src.kinds++;
        this.#kinds[n] = { source, agent, type, epoch, sourceHash: src.hash };
        this.#uses[n] = 0;
        this.#byKey.set(k, n);
      }
      this.#last = n;
    }
    this.#uses[n]!++;
    return n;
  }

  /** One held event of kind `n` is gone. */
  release(n: number): void {
    if (--this.#uses[n]! > 0) return;
    const k = this.#kinds[n]!;
    this.#byKey.delete(key(k.source, k.agent, k.type, k.epoch));
    const src = this.#sources.get(k.source)!;
    if (--src.kinds === 0) this.#sources.delete(k.source);
    this.#kinds[n] = undefined;
    this.#free.push(n);
    if (this.#last === n) this.#last = -1;
  }
}
