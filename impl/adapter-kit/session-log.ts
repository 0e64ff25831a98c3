/**
 * The session logs' writer (`logs/<agent>/<session>.jsonl`, see store.ts), off the hook's reply
 * path: `append` queues the line and returns at once; the bytes go out through one open append
 * handle per file, asynchronously, one write in flight per file, so a file's lines keep their
 * order and none is lost or split (a batch is written whole, a short write continues where it
 * stopped).
 * - Bounded: at most `maxHandles` files are open; opening another closes the least recently used
 *   idle one (or, when every handle is mid-write, waits for one to finish), and a sweep closes
 *   handles idle for `idleMs`.
 * - Errors are logged, never thrown at the caller: once per file until a write succeeds again. The
 *   failed lines stay queued (in order) and are retried on the next append, `flush` or `close`; a
 *   file whose queue passes `maxPendingBytes` drops its oldest lines, counted in the log line.
 *   A directory removed while running is created again.
 * - `flush()` resolves once every queued line was written (or its write failed and was logged);
 *   `close()` flushes, then closes every handle (daemon shutdown). Appending after `close` reopens.
 *   `flushSessionLogs()` flushes every writer of this process (readers in tests, the live runner).
 */
import { close as closeFd, open, write } from 'node:fs';
import { join } from 'node:path';
import { ensureDir } from './ensure-dir.js';
import { sessionFileName } from './session-file.js';

export interface SessionLogOptions {
  /** Most files kept open at once (default 64). */
  maxHandles?: number;
  /** A handle unused this long is closed (default 30 000 ms). */
  idleMs?: number;
  /** Bytes a failing file may keep queued before its oldest lines are dropped (default 8 MiB). */
  maxPendingBytes?: number;
  /** Diagnostics (write errors); default silent. */
  log?: (line: string) => void;
}

interface FileState {
  path: string;
  dir: string;
  fd: number | null;
  /** Lines (with their newline) in order; a Buffer is the unwritten rest of a batch cut by an error. */
  queue: (string | Buffer)[];
  queuedBytes: number;
  busy: boolean;
  lastUsed: number;
  /** The error already logged for the current failure streak. */
  failing: string | null;
  dropped: number;
  waiters: (() => void)[];
}

const live = new Set<SessionLog>();

const sizeOf = (chunk: string | Buffer): number => (typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length);

/** Flush every session-log writer of this process. */
export async function flushSessionLogs(): Promise<void> {
  await Promise.all([...live].map((w) => w.flush()));
}

export class SessionLog {
  private readonly files = new Map<string, FileState>();
  private readonly maxHandles: number;
  private readonly idleMs: number;
  private readonly maxPendingBytes: number;
  private readonly log: (line: string) => void;
  /** Open handles, counted until their close completes. */
  private openCount = 0;
  /** Files with lines queued, waiting for a handle under the cap (FIFO). */
  private readonly waiting: FileState[] = [];
  private sweep: NodeJS.Timeout | null = null;

  constructor(
    private readonly home: string,
    private readonly agent: string,
    opts: SessionLogOptions = {},
  ) {
    this.maxHandles = Math.max(1, opts.maxHandles ?? 64);
    this.idleMs = opts.idleMs ?? 30_000;
    this.maxPendingBytes = opts.maxPendingBytes ?? 8 * 1024 * 1024;
    this.log = opts.log ?? (() => {});
  }

  /** How many files are open now (tests: the handle cap). */
  get openHandles(): number {
    return this.openCount;
  }

  /** Queue one event line (without its newline) for the session's log; never blocks, never throws. */
  append(session: string, line: string): void {
    const dir = join(this.home, 'logs', this.agent);
    const path = join(dir, sessionFileName(session));
    let st = this.files.get(path);
    if (st) this.files.delete(path); // re-inserted last: Map order is the LRU order
    else st = { path, dir, fd: null, queue: [], queuedBytes: 0, busy: false, lastUsed: 0, failing: null, dropped: 0, waiters: [] };
    this.files.set(path, st);
    const text = `${line}\n`;
    st.queue.push(text);
    st.queuedBytes += sizeOf(text);
    st.lastUsed = Date.now();
    while (st.failing !== null && st.queuedBytes > this.maxPendingBytes && st.queue.length > 1) {
      st.queuedBytes -= sizeOf(st.queue.shift()!);
      st.dropped++;
    }
    live.add(this);
    this.startSweep();
    if (!st.busy) this.pump(st);
  }

  /** Resolves once every line queued so far was written, or its failure logged. */
  async flush(): Promise<void> {
    await Promise.all(
      [...this.files.values()].map(
        (st) =>
          new Promise<void>((resolve) => {
            if (!st.busy && st.queue.length === 0) return resolve();
            st.waiters.push(resolve);
            if (!st.busy) this.pump(st); // a failed batch: one more attempt
          }),
      ),
    );
  }

  /** Flush, then close every handle. Lines still unwritten (a failing file) are said on the log. */
  async close(): Promise<void> {
    await this.flush();
    if (this.sweep) clearInterval(this.sweep);
    this.sweep = null;
    // Taken out of the map before any await: a line appended meanwhile opens a fresh handle.
    const states = [...this.files.values()];
    this.files.clear();
    live.delete(this);
    for (const st of states) {
      if (st.queue.length > 0) this.log(`session log ${st.path}: ${st.queue.length} line(s) could not be written (${st.failing ?? 'unknown error'}) and are lost`);
    }
    await Promise.all(states.map((st) => this.release(st)));
  }

  private startSweep(): void {
    if (this.sweep || this.idleMs <= 0) return;
    this.sweep = setInterval(() => {
      const cutoff = Date.now() - this.idleMs;
      for (const st of [...this.files.values()]) {
        if (st.busy || st.queue.length > 0 || st.lastUsed > cutoff) continue;
        this.files.delete(st.path);
        void this.release(st);
      }
      if (this.files.size === 0 && this.sweep) {
        clearInterval(this.sweep);
        this.sweep = null;
        live.delete(this);
      }
    }, Math.max(10, Math.min(this.idleMs, 5_000)));
    this.sweep.unref();
  }

  /** Close the file's handle; its slot goes to a file waiting for one (the cap counts a handle until it is closed). */
  private release(st: FileState): Promise<void> {
    const fd = st.fd;
    if (fd === null) return Promise.resolve();
    st.fd = null;
    return new Promise((resolve) =>
      closeFd(fd, () => {
        this.unreserve();
        resolve();
      }),
    );
  }

  /** Make room under the handle cap: close the least recently used idle handles. */
  private evict(): void {
    for (const st of this.files.values()) {
      if (this.openCount < this.maxHandles) return;
      if (st.fd !== null && !st.busy && st.queue.length === 0) void this.release(st);
    }
  }

  private settle(st: FileState): void {
    st.busy = false;
    // Another file waits for a handle: this one is idle now, so it hands over its slot.
    if (this.waiting.length > 0 && st.fd !== null && st.queue.length === 0) void this.release(st);
    const waiters = st.waiters.splice(0);
    for (const w of waiters) w();
  }

  private fail(st: FileState, batch: (string | Buffer)[], err: NodeJS.ErrnoException): void {
    st.queue.unshift(...batch);
    st.queuedBytes += batch.reduce((n, s) => n + sizeOf(s), 0);
    const what = err.code ?? err.message;
    if (st.failing === null) this.log(`cannot append to the session log ${st.path}: ${err.message}; the lines stay queued and are retried on the next event`);
    st.failing = what;
    void this.release(st);
    this.settle(st);
  }

  private pump(st: FileState): void {
    st.busy = true;
    if (st.fd === null) {
      if (this.openCount >= this.maxHandles) this.evict();
      // Every handle is busy (or still closing): wait for a slot, handed over by release().
      if (this.openCount >= this.maxHandles) this.waiting.push(st);
      else this.reserveAndOpen(st);
      return;
    }
    this.writeQueue(st);
  }

  /** An open that failed gives its slot back (to a waiting file, if any). */
  private unreserve(): void {
    this.openCount--;
    const next = this.waiting.shift();
    if (next) this.reserveAndOpen(next);
  }

  /** Count the handle from the moment it is asked for, so opens in flight respect the cap too. */
  private reserveAndOpen(st: FileState): void {
    this.openCount++;
    this.openFile(st, true);
  }

  private openFile(st: FileState, retry: boolean): void {
    open(st.path, 'a', (err, fd) => {
      if (err) {
        if (!(err.code === 'ENOENT' && retry)) this.unreserve();
        if (err.code === 'ENOENT' && retry) {
          try {
            ensureDir(st.dir);
          } catch (mk) {
            this.unreserve();
            return this.fail(st, [], mk as NodeJS.ErrnoException);
          }
          return this.openFile(st, false);
        }
        return this.fail(st, [], err);
      }
      st.fd = fd;
      this.writeQueue(st);
    });
  }

  private writeQueue(st: FileState): void {
    if (st.queue.length === 0) return this.settle(st);
    const batch = st.queue.splice(0);
    st.queuedBytes = 0;
    const buf = batch.every((b) => typeof b === 'string') ? Buffer.from(batch.join(''), 'utf8') : Buffer.concat(batch.map((b) => (typeof b === 'string' ? Buffer.from(b, 'utf8') : b)));
    const fd = st.fd!;
    const step = (offset: number): void => {
      write(fd, buf, offset, buf.length - offset, null, (err, written) => {
        if (err) {
          // Whole lines only: a batch cut part-way is requeued from its first unwritten byte.
          return this.fail(st, offset === 0 ? batch : [buf.subarray(offset)], err);
        }
        if (offset + written < buf.length) return step(offset + written);
        if (st.failing !== null || st.dropped > 0) {
          this.log(`session log ${st.path}: writing again${st.dropped > 0 ? `; ${st.dropped} oldest line(s) were dropped while it failed` : ''}`);
          st.failing = null;
          st.dropped = 0;
        }
        this.writeQueue(st);
      });
    };
    step(0);
  }
}
