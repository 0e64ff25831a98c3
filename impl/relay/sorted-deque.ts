/**
 * A sequence kept sorted by key, with cheap appends at the back and cheap removals at the
 * front: the storage of one session in the reference replay buffer (`test-utils/buffer-reference.ts`;
 * the buffer itself holds its sessions by column, `held-columns.ts`). Pure data structure, no I/O.
 *
 * Items live in one array from index `#head` on. Removing the first item only clears its
 * slot and advances `#head`; the dead prefix is cut away once it is at least as long as the
 * live part, so removal is amortized O(1) and the array never exceeds twice the live count
 * (plus a small constant).
 *
 * Insertion is stable: an item goes after every item whose key compares equal to its own, so
 * equal keys stay in insertion order. An item whose key is not below the last item's is a plain
 * push (the usual case: events arrive in order); otherwise a binary search finds its place
 * (O(log n) comparisons, O(n) moves).
 */
export class SortedDeque<T, K> {
  #items: Array<T | undefined> = [];
  #head = 0;

  /**
   * @param keyOf the key of an item; must not change while the item is held
   * @param compare total order on keys: negative when `a` comes first, 0 when equal
   */
  constructor(
    private readonly keyOf: (item: T) => K,
    private readonly compare: (a: K, b: K) => number,
  ) {}

  /** How many items are held. */
  get length(): number {
    return this.#items.length - this.#head;
  }

  /** The first (lowest) item, or undefined when empty. */
  first(): T | undefined {
    return this.#items[this.#head];
  }

  /** The item at `index` in order (0 is the first), or undefined past the end. */
  at(index: number): T | undefined {
    return index < 0 ? undefined : this.#items[this.#head + index];
  }

  /** Insert `item` after every held item whose key is at or below its own. */
  insert(item: T): void {
    const items = this.#items;
    const last = items.length - 1;
    if (last < this.#head || this.compare(this.keyOf(items[last] as T), this.keyOf(item)) <= 0) {
      items.push(item);
      return;
    }
    items.splice(this.#upperBound(this.keyOf(item)), 0, item);
  }

  /** Remove and return the first item, or undefined when empty. */
  shift(): T | undefined {
    const items = this.#items;
    if (this.#head >= items.length) return undefined;
    const item = items[this.#head] as T;
    items[this.#head++] = undefined;
    const live = items.length - this.#head;
    if (live === 0) {
      items.length = 0;
      this.#head = 0;
    } else if (this.#head >= 32 && this.#head >= live) {
      items.copyWithin(0, this.#head);
      items.length = live;
      this.#head = 0;
    }
    return item;
  }

  /** The held items whose key is strictly above `key`, in order (a new array). */
  after(key: K): T[] {
    return this.#items.slice(this.#upperBound(key)) as T[];
  }

  /** Every held item, in order (a new array). */
  toArray(): T[] {
    return this.#items.slice(this.#head) as T[];
  }

  /** Index (into `#items`) of the first held item whose key is strictly above `key`. */
  #upperBound(key: K): number {
    const items = this.#items;
    let lo = this.#head;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(this.keyOf(items[mid] as T), key) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
