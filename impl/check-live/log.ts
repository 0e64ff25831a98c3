import { CheckFailure } from './verdicts.js';

/**
 * An append-only log of received items that checks wait on: `waitFor` finds the first
 * item at or after a position (`mark()`), so a check can assert order as well as presence.
 * Used by both the SSE and the WebSocket clients.
 */
export class ItemLog<T> {
  readonly items: T[] = [];
  private waiters = new Set<() => void>();
  private endReason: string | undefined;

  /** Called by the transport for each received item. */
  add(item: T): void {
    this.items.push(item);
    for (const w of [...this.waiters]) w();
  }

  /** Called by the transport once nothing more can arrive; pending waits fail with `reason`. */
  end(reason: string): void {
    if (this.endReason !== undefined) return;
    this.endReason = reason;
    for (const w of [...this.waiters]) w();
  }

  get ended(): string | undefined {
    return this.endReason;
  }

  /** The position of the next item to arrive. */
  mark(): number {
    return this.items.length;
  }

  /** The first item at index >= `since` matching `pred`; fails after `ms` or when the transport ends. */
  waitFor(pred: (item: T) => boolean, ms: number, what: string, since = 0): Promise<{ item: T; index: number }> {
    return new Promise((resolve, reject) => {
      let scanned = since;
      const check = (): boolean => {
        for (; scanned < this.items.length; scanned++) {
          const item = this.items[scanned] as T;
          if (pred(item)) {
            resolve({ item, index: scanned });
            return true;
          }
        }
        if (this.endReason !== undefined) {
          reject(new CheckFailure(`${this.endReason} while waiting for ${what}`));
          return true;
        }
        return false;
      };
      if (check()) return;
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new CheckFailure(`timed out after ${ms} ms waiting for ${what}`));
      }, ms);
      const waiter = (): void => {
        if (check()) {
          clearTimeout(timer);
          this.waiters.delete(waiter);
        }
      };
      this.waiters.add(waiter);
    });
  }

  /** Waits `ms` (or until the transport ends), then returns the items at index >= `since` matching `pred`. */
  async collect(pred: (item: T) => boolean, ms: number, since = 0): Promise<T[]> {
    if (this.endReason === undefined) {
      await new Promise<void>((resolve) => {
        const finish = (): void => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve();
        };
        const waiter = (): void => {
          if (this.endReason !== undefined) finish();
        };
        const timer = setTimeout(finish, ms);
        this.waiters.add(waiter);
      });
    }
    return this.items.slice(since).filter(pred);
  }
}
