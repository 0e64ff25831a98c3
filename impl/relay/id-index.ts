/**
 * The dedupe index of one session's held events: an open-addressing table (linear probing,
 * backward-shift deletion, no tombstones) of slot numbers keyed by a 32-bit hash of the event's
 * `(source, id)`. It keeps no key: two pairs with the same hash are told apart by the caller's
 * `same(slot)` test (which compares the held text). Pure data structure, no I/O.
 *
 * Memory: 4 bytes per slot for its hash, and a table of at most 4/3 to 8/3 entries of 4 bytes
 * per held event (kept at most 3/4 full).
 */
import { randomBytes } from 'node:crypto';

/**
 * The offset basis of this process's hashes, drawn at random when the module loads. The ids and
 * sources are the emitters' to choose: with a fixed basis, anyone could compute in advance ids that
 * share one hash (FNV-1a collisions are cheap to find) and make every admission into a session
 * compare against all of them, a CPU cost quadratic in the session's events. A secret basis
 * leaves them nothing to compute against, as V8's own string hashes are seeded per process; not a
 * cryptographic guarantee (FNV-1a is no keyed hash), a bar of the same height as the `Map` it replaced.
 */
const SEED = randomBytes(4).readUInt32LE(0);

/** FNV-1a over the UTF-16 code units of `s`, continuing from `h` (by default this process's random basis). */
export function hashText(s: string, h = SEED): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * The hash of a `(source, id)` pair, from the source's hash (`hashText(source)`, cached by callers),
 * finished with MurmurHash3's `fmix32` avalanche. Without it FNV-1a's low bits depend only on the
 * low bits of the characters (a multiplication carries a difference upwards only), so ids that
 * differ only in the high bits of their characters would share their low bits, hence one run of
 * the table, whatever the seed.
 */
export function pairHash(sourceHash: number, id: string): number {
  let h = hashText(id, Math.imul(sourceHash ^ 0x9e3779b9, 0x85ebca6b) >>> 0);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export class IdIndex {
  /** Slot + 1 per table entry; 0 is empty. */
  #table = new Int32Array(8);
  /** The hash each slot was added under. */
  #hashes: Uint32Array;
  #count = 0;

  constructor(slots: number) {
    this.#hashes = new Uint32Array(slots);
  }

  /** How many slots are indexed. */
  get size(): number {
    return this.#count;
  }

  /** Make room for slots `0 .. slots - 1`. */
  growSlots(slots: number): void {
    if (slots <= this.#hashes.length) return;
    const next = new Uint32Array(slots);
    next.set(this.#hashes);
    this.#hashes = next;
  }

  /** The first indexed slot with hash `hash` for which `same` holds, or -1. */
  find(hash: number, same: (slot: number) => boolean): number {
    const table = this.#table;
    const mask = table.length - 1;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const entry = table[i]!;
      if (entry === 0) return -1;
      const slot = entry - 1;
      if (this.#hashes[slot] === hash && same(slot)) return slot;
    }
  }

  /** Index `slot` under `hash` (the slot must not be indexed already). */
  add(slot: number, hash: number): void {
    if ((this.#count + 1) * 4 > this.#table.length * 3) this.#rehash(this.#table.length * 2);
    this.#hashes[slot] = hash;
    this.#place(this.#table, slot);
    this.#count++;
  }

  /** Remove `slot` (indexed earlier) from the table. */
  remove(slot: number): void {
    const table = this.#table;
    const mask = table.length - 1;
    let i = this.#hashes[slot]! & mask;
    while (table[i] !== slot + 1) {
      if (table[i] === 0) return;
      i = (i + 1) & mask;
    }
    // Backward shift: move later entries of the run into the hole when their home allows it.
    for (let j = (i + 1) & mask; table[j] !== 0; j = (j + 1) & mask) {
      const home = this.#hashes[table[j]! - 1]! & mask;
      // The entry at j may move to i when its home is not in the cyclic range (i, j].
      if (((j - home) & mask) >= ((j - i) & mask)) {
        table[i] = table[j]!;
        i = j;
      }
    }
    table[i] = 0;
    this.#count--;
    if (this.#table.length > 8 && this.#count * 8 < this.#table.length) this.#rehash(this.#table.length / 2);
  }

  #place(table: Int32Array, slot: number): void {
    const mask = table.length - 1;
    let i = this.#hashes[slot]! & mask;
    while (table[i] !== 0) i = (i + 1) & mask;
    table[i] = slot + 1;
  }

  #rehash(size: number): void {
    const old = this.#table;
    const table = new Int32Array(size);
    for (let i = 0; i < old.length; i++) if (old[i] !== 0) this.#place(table, old[i]! - 1);
    this.#table = table;
  }
}
