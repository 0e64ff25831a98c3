/**
 * A column of integers, 4 bytes each while every value fits a 32-bit signed integer, widened to
 * 8 bytes (exact up to 2^53) the first time one does not. Pure data structure, no I/O.
 */
export class WideColumn {
  #values: Int32Array | Float64Array;

  constructor(length: number) {
    this.#values = new Int32Array(length);
  }

  get length(): number {
    return this.#values.length;
  }

  /** Whether the column holds 8 bytes per value. */
  get wide(): boolean {
    return this.#values instanceof Float64Array;
  }

  get(i: number): number {
    return this.#values[i]!;
  }

  set(i: number, value: number): void {
    if ((value | 0) !== value && this.#values instanceof Int32Array) this.#values = Float64Array.from(this.#values);
    this.#values[i] = value;
  }

  /** Grow to `length` values, keeping the ones held. */
  grow(length: number): void {
    if (length <= this.#values.length) return;
    const next = this.#values instanceof Int32Array ? new Int32Array(length) : new Float64Array(length);
    next.set(this.#values);
    this.#values = next;
  }
}
