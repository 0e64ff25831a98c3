/**
 * Beat lines released in beat order, pure. The demo plays its beats in the order the processes
 * allow (2, 3, 5, 4, then 1 closes the session), but prints them 1..5: a finished beat waits until
 * every lower-numbered one has been printed; `rest()` gives what is still held (a failed or
 * interrupted demo), in order.
 */
export class InOrder {
  private next = 0;
  private readonly held = new Map<number, string>();

  /** Beat `index` (0-based) finished with `line`: the lines that can be printed now, in order. */
  add(index: number, line: string): string[] {
    this.held.set(index, line);
    const out: string[] = [];
    while (this.held.has(this.next)) {
      out.push(this.held.get(this.next)!);
      this.held.delete(this.next);
      this.next++;
    }
    return out;
  }

  /** Every line still held, lowest beat first. */
  rest(): string[] {
    const out = [...this.held].sort(([a], [b]) => a - b).map(([, l]) => l);
    this.held.clear();
    return out;
  }
}
