/**
 * The inbound bridges' one reconnect loop: run a connection attempt, and when it ends (closed,
 * refused, thrown) wait a backoff and try again, until stopped. The backoff starts at
 * `initialMs` (default 250), doubles per consecutive failure up to `maxMs` (default 10 000), and
 * goes back to `initialMs` once an attempt reports it was up (`opened()`), so a long-lived
 * connection that drops retries quickly. `stop()` aborts the attempt's signal, cuts a pending
 * wait short and resolves when the loop has ended; no timer outlives it.
 */

export interface Attempt {
  /** Aborted by `stop()`: the attempt must then end promptly (resolve or throw). */
  signal: AbortSignal;
  /** The connection is up: the next failure waits `initialMs` again. */
  opened(): void;
}

export interface ReconnectOptions {
  /** One connection: resolves (with why it ended) or throws when it is over. */
  attempt(ctx: Attempt): Promise<string | void>;
  /** Called before each wait with why the attempt ended and the wait in ms. */
  onRetry?(why: string, delayMs: number): void;
  initialMs?: number;
  maxMs?: number;
}

export interface ReconnectLoop {
  /** Whether the current attempt reported `opened()` and has not ended. */
  isOpen(): boolean;
  /** Attempts started so far. */
  attempts(): number;
  stop(): Promise<void>;
}

/** The wait after `current`: doubled, capped at `maxMs`. Pure. */
export function nextDelay(current: number, maxMs: number): number {
  return Math.min(current * 2, maxMs);
}

export function reconnectLoop(opts: ReconnectOptions): ReconnectLoop {
  const initial = opts.initialMs ?? 250;
  const max = opts.maxMs ?? 10_000;
  const stop = new AbortController();
  let open = false;
  let count = 0;
  const done = (async () => {
    let delay = initial;
    while (!stop.signal.aborted) {
      count++;
      let why = 'connection ended';
      try {
        const ended = await opts.attempt({ signal: stop.signal, opened: () => { open = true; delay = initial; } });
        if (typeof ended === 'string' && ended !== '') why = ended;
      } catch (err) {
        why = err instanceof Error ? err.message : String(err);
      }
      open = false;
      if (stop.signal.aborted) break;
      opts.onRetry?.(why, delay);
      await new Promise<void>((resolve) => {
        const wake = (): void => { clearTimeout(timer); resolve(); };
        const timer = setTimeout(() => { stop.signal.removeEventListener('abort', wake); resolve(); }, delay);
        stop.signal.addEventListener('abort', wake, { once: true });
      });
      delay = nextDelay(delay, max);
    }
  })();
  return {
    isOpen: () => open,
    attempts: () => count,
    async stop() {
      stop.abort();
      await done;
    },
  };
}
