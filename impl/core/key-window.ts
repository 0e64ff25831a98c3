/**
 * A bounded memory of map keys: every key a caller remembers (in any of its maps or sets) takes
 * one slot, and once `capacity` slots are taken the oldest key is forgotten (deleted from the
 * map or set it was put in) to make room. What the owner of those maps holds is then bounded by
 * `capacity` entries whatever its input. Pure: no I/O, no timers.
 */

/** A map or set a key was remembered in: all a window needs is to delete the key again. */
export interface Forgettable {
  delete(key: string): boolean;
}

export class KeyWindow<Owner = unknown> {
  readonly capacity: number;
  private readonly maps: Forgettable[] = [];
  private readonly keys: string[] = [];
  private readonly owners: (Owner | undefined)[] = [];
  /** The oldest slot once the window is full (before that, slots are appended). */
  private head = 0;
  /** How many keys were forgotten so far. */
  forgotten = 0;

  /**
   * @param capacity the most keys remembered at once (an integer >= 1)
   * @param onForget called after a key is forgotten, with the owner it was remembered with
   */
  constructor(capacity: number, private readonly onForget?: (map: Forgettable, key: string, owner: Owner) => void) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`a key window holds at least one key, got ${capacity}`);
    this.capacity = capacity;
  }

  /** Take a slot for `key`, just put in `map`; forgets the oldest key first when the window is full. */
  remember(map: Forgettable, key: string, owner?: Owner): void {
    if (this.keys.length < this.capacity) {
      this.maps.push(map);
      this.keys.push(key);
      this.owners.push(owner);
      return;
    }
    const at = this.head;
    const oldMap = this.maps[at]!;
    const oldKey = this.keys[at]!;
    const oldOwner = this.owners[at];
    this.maps[at] = map;
    this.keys[at] = key;
    this.owners[at] = owner;
    this.head = at + 1 === this.capacity ? 0 : at + 1;
    oldMap.delete(oldKey);
    this.forgotten++;
    if (oldOwner !== undefined) this.onForget?.(oldMap, oldKey, oldOwner);
  }
}
