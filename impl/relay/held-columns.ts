/**
 * The held events of one session, stored by column: no object per event. Pure data structure,
 * no I/O.
 *
 * Each held event has a slot (a number, stable while it is held) whose columns are:
 * - `WideColumn`s (4 bytes each until a value needs 8): its seq (its attach point's when seq-less)
 *   and its arrival counter relative to the session's first, negated for a seq-less event;
 * - `Uint32Array` (5 per slot): its text as chunk, offset and length (`TextChunks`), its
 *   `(source, agent, type, epoch)` kind (`HeldKinds`, the epoch its position's) with the
 *   over-declared mark in the top two bits, and where its `id` lies in its text
 *   (length << 24 | offset, or `NO_ID` when the text does not spell the id verbatim, e.g. with
 *   escapes: it is then read from the parsed event);
 * - the dedupe index's 32-bit hash (`IdIndex`).
 * The order is a ring of slot numbers sorted by `(epoch, seq)`, ties in arrival order; a free slot's
 * first `Uint32Array` word links the free list. The arrays grow by doubling up to `maxSlots`.
 * About 42 bytes per held event besides its text (see docs/performance.md, issue 33).
 */
import { IdIndex, pairHash, hashText } from './id-index.js';
import { HeldKinds, type Kind } from './held-kinds.js';
import { TextChunks } from './text-chunks.js';
import { WideColumn } from './wide-column.js';

const U = 5; // chunk, offset, length, kind | flags, id ref
const NO_ID = 0xffffffff;
const NO_SLOT = 0xffffffff;
const KIND_MASK = 0x3fffffff;

/** The over-declared mark in two bits: absent, false, true. */
const flagsOf = (over: boolean | undefined): number => (over === undefined ? 0 : over ? 2 : 1);

export class HeldColumns {
  readonly #seq: WideColumn;
  /** The arrival counter minus `#ordBase`, negated for a seq-less event. */
  readonly #ord: WideColumn;
  #ordBase = -1;
  #u: Uint32Array;
  #order: Int32Array;
  #head = 0;
  #length = 0;
  #free = NO_SLOT;
  /** Slots handed out so far (the ones above are untouched). */
  #used = 0;
  readonly #index: IdIndex;
  readonly #text = new TextChunks();
  readonly #kinds = new HeldKinds();
  // The pair `find` looked for, so `same` needs no closure and `add` reuses its hash.
  #probeSource = '';
  #probeId = '';
  #probeHash = 0;
  #probed = false;
  readonly #same = (slot: number): boolean => this.#kinds.get(this.#u[slot * U + 3]! & KIND_MASK).source === this.#probeSource && this.#idIs(slot, this.#probeId);

  /** @param maxSlots the most events held at once (the buffer's `perSession` plus the one being admitted) */
  constructor(private readonly maxSlots: number, private readonly parseId: (raw: string) => string) {
    const slots = Math.min(8, maxSlots);
    this.#seq = new WideColumn(slots);
    this.#ord = new WideColumn(slots);
    this.#u = new Uint32Array(slots * U);
    this.#order = new Int32Array(slots);
    this.#index = new IdIndex(slots);
  }

  get length(): number {
    return this.#length;
  }

  /** The slot at `i` in order (0 is the earliest). */
  slotAt(i: number): number {
    return this.#order[(this.#head + i) % this.#order.length]!;
  }

  epoch(slot: number): number {
    return this.kind(slot).epoch;
  }

  seq(slot: number): number {
    return this.#seq.get(slot);
  }

  /** The arrival counter, negated for a seq-less event. */
  signedOrd(slot: number): number {
    const rel = this.#ord.get(slot);
    return rel > 0 ? rel + this.#ordBase : rel - this.#ordBase;
  }

  kind(slot: number): Kind {
    return this.#kinds.get(this.#u[slot * U + 3]! & KIND_MASK);
  }

  overDeclared(slot: number): boolean | undefined {
    const flags = this.#u[slot * U + 3]! >>> 30;
    return flags === 0 ? undefined : flags === 2;
  }

  /** The event's text as received. */
  raw(slot: number): string {
    const u = this.#u;
    const at = slot * U;
    return this.#text.slice(u[at]!, u[at + 1]!, u[at + 2]!);
  }

  /** The event's `id`, read from its text `raw`. */
  id(slot: number, raw: string): string {
    const ref = this.#u[slot * U + 4]!;
    if (ref === NO_ID) return this.parseId(raw);
    const at = ref & 0xffffff;
    return raw.slice(at, at + (ref >>> 24));
  }

  /** The held slot of the pair `(source, id)`, or -1. */
  find(source: string, id: string): number {
    const sourceHash = this.#kinds.sourceHash(source);
    this.#probeSource = source;
    this.#probeId = id;
    this.#probed = true;
    this.#probeHash = pairHash(sourceHash ?? hashText(source), id);
    return sourceHash === undefined || this.#index.size === 0 ? -1 : this.#index.find(this.#probeHash, this.#same);
  }

  /** Hold a new event (its pair found absent by `find`), in order after every event at or before its position. */
  add(raw: string, id: string, epoch: number, seq: number, signedOrd: number, source: string, agent: string | undefined, type: string, over: boolean | undefined): void {
    if (!this.#probed || source !== this.#probeSource || id !== this.#probeId) this.find(source, id);
    const slot = this.#allocate();
    const ord = signedOrd > 0 ? signedOrd : -signedOrd;
    if (this.#ordBase < 0) this.#ordBase = ord - 1;
    this.#seq.set(slot, seq);
    this.#ord.set(slot, signedOrd > 0 ? ord - this.#ordBase : this.#ordBase - ord);
    const u = this.#u;
    const at = slot * U;
    u[at + 1] = this.#text.append(raw);
    u[at] = this.#text.appendedTo;
    u[at + 2] = raw.length;
    u[at + 3] = (this.#kinds.use(source, agent, type, epoch, hashText) | (flagsOf(over) << 30)) >>> 0;
    const idAt = raw.indexOf(id);
    u[at + 4] = idAt >= 0 && idAt < 0xffffff && id.length < 0xff ? ((id.length << 24) | idAt) >>> 0 : NO_ID;
    this.#index.add(slot, this.#probeHash);
    this.#insert(slot);
  }

  /** Drop the earliest held event. */
  shift(): void {
    if (this.#length === 0) return;
    const slot = this.#order[this.#head]!;
    this.#head = (this.#head + 1) % this.#order.length;
    this.#length--;
    const u = this.#u;
    const at = slot * U;
    this.#index.remove(slot);
    this.#text.release(u[at]!);
    this.#kinds.release(u[at + 3]! & KIND_MASK);
    u[at] = this.#free;
    this.#free = slot;
  }

  /** The first index in order whose position is strictly after `(epoch, seq)`. */
  upperBound(epoch: number, seq: number): number {
    let lo = 0;
    let hi = this.#length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const slot = this.slotAt(mid);
      const e = this.epoch(slot);
      if (e < epoch || (e === epoch && this.seq(slot) <= seq)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Join the open text chunk into its string now (the end of a batch: it may hold slices of the batch body). */
  seal(): void {
    this.#text.seal();
  }

  #idIs(slot: number, id: string): boolean {
    const u = this.#u;
    const at = slot * U;
    const ref = u[at + 4]!;
    if (ref === NO_ID) return this.parseId(this.raw(slot)) === id;
    return ref >>> 24 === id.length && this.#text.text(u[at]!).startsWith(id, u[at + 1]! + (ref & 0xffffff));
  }

  #allocate(): number {
    if (this.#free !== NO_SLOT) {
      const slot = this.#free;
      this.#free = this.#u[slot * U]!;
      return slot;
    }
    if (this.#used === this.#order.length) this.#grow();
    return this.#used++;
  }

  #grow(): void {
    const slots = Math.min(this.maxSlots, this.#order.length * 2);
    this.#seq.grow(slots);
    this.#ord.grow(slots);
    const u = new Uint32Array(slots * U);
    u.set(this.#u);
    this.#u = u;
    const order = new Int32Array(slots);
    for (let i = 0; i < this.#length; i++) order[i] = this.slotAt(i);
    this.#order = order;
    this.#head = 0;
    this.#index.growSlots(slots);
  }

  /** Put `slot` in order after every held event at or before its position (a push when it is the latest). */
  #insert(slot: number): void {
    const order = this.#order;
    const cap = order.length;
    const n = this.#length;
    const last = n > 0 ? order[(this.#head + n - 1) % cap]! : -1;
    const epoch = this.epoch(slot);
    const e = last < 0 ? 0 : this.epoch(last);
    const at = last < 0 || e < epoch || (e === epoch && this.seq(last) <= this.seq(slot)) ? n : this.upperBound(epoch, this.seq(slot));
    for (let i = n; i > at; i--) order[(this.#head + i) % cap] = order[(this.#head + i - 1) % cap]!;
    order[(this.#head + at) % cap] = slot;
    this.#length++;
  }
}
