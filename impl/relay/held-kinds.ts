/**
 * The distinct `(source, agent, type)` triples of one session's held events, each held event
 * naming its triple by a small number (a session has a handful: its sources times its types).
 * Counted: a triple no held event names any more is dropped and its number reused, so the table
 * is bounded by the held events. Pure data structure, no I/O.
 */

export interface Kind {
  readonly source: string;
  readonly agent: string | undefined;
  readonly type: string;
  /** `hashText(source)`, for the dedupe index. */
  readonly sourceHash: number;
}

const key = (source: string, agent: string | undefined, type: string): string => `${source}\n${agent === undefined ? '' : `=${agent}`}\n${type}`;

export class HeldKinds {
  readonly #byKey = new Map<string, number>();
  readonly #kinds: Array<Kind | undefined> = [];
  readonly #uses: number[] = [];
  readonly #free: number[] = [];
  /** Per source named by some triple: its hash and how many triples name it. */
  readonly #sources = new Map<string, { readonly hash: number; kinds: number }>();
  /** The last triple named, so a run of events of one kind skips the key. */
  #last = -1;

  /** The triple numbered `n`. */
  get(n: number): Kind {
    return this.#kinds[n]!;
  }

  /** `hashText(source)` when some held event comes from `source`, else undefined (no pair from it is held). */
  sourceHash(source: string): number | undefined {
    const last = this.#last >= 0 ? this.#kinds[this.#last] : undefined;
    if (last !== undefined && last.source === source) return last.sourceHash;
    return this.#sources.get(source)?.hash;
  }

  /** The number of the triple, counting one more use; `sourceHash` is computed when the triple is new. */
  use(source: string, agent: string | undefined, type: string, sourceHash: (source: string) => number): number {
    const last = this.#last >= 0 ? this.#kinds[this.#last] : undefined;
    let n: number;
    if (last !== undefined && last.source === source && last.agent === agent && last.type === type) n = this.#last;
    else {
      const k = key(source, agent, type);
      const known = this.#byKey.get(k);
      if (known !== undefined) n = known;
      else {
        n = this.#free.pop() ?? this.#kinds.length;
        let src = this.#sources.get(source);
        if (src === undefined) this.#sources.set(source, (src = { hash: sourceHash(source), kinds: 0 }));
        src.kinds++;
        this.#kinds[n] = { source, agent, type, sourceHash: src.hash };
        this.#uses[n] = 0;
        this.#byKey.set(k, n);
      }
      this.#last = n;
    }
    this.#uses[n]!++;
    return n;
  }

  /** One held event of triple `n` is gone. */
  release(n: number): void {
    if (--this.#uses[n]! > 0) return;
    const k = this.#kinds[n]!;
    this.#byKey.delete(key(k.source, k.agent, k.type));
    const src = this.#sources.get(k.source)!;
    if (--src.kinds === 0) this.#sources.delete(k.source);
    this.#kinds[n] = undefined;
    this.#free.push(n);
    if (this.#last === n) this.#last = -1;
  }
}
