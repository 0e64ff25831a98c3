import { describe, expect, it } from 'vitest';
import { nextDelay, reconnectLoop } from './reconnect.js';

const until = async (cond: () => boolean): Promise<void> => {
  for (let i = 0; i < 300 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(cond()).toBe(true);
};

describe('nextDelay', () => {
  it('doubles up to the cap', () => {
    expect([250, 500, 8000, 10_000].map((d) => nextDelay(d, 10_000))).toEqual([500, 1000, 10_000, 10_000]);
  });
});

describe('reconnectLoop', () => {
  it('backs off doubling to the cap across failures, with each reason (returned or thrown)', async () => {
    const retries: [string, number][] = [];
    let n = 0;
    const loop = reconnectLoop({
      initialMs: 2, maxMs: 8,
      attempt: async () => {
        n++;
        if (n % 2 === 0) throw new Error(`refused ${n}`);
        return `closed ${n}`;
      },
      onRetry: (why, ms) => retries.push([why, ms]),
    });
    await until(() => retries.length >= 5);
    await loop.stop();
    expect(retries.slice(0, 5)).toEqual([['closed 1', 2], ['refused 2', 4], ['closed 3', 8], ['refused 4', 8], ['closed 5', 8]]);
  });

  it('an attempt that was up resets the backoff; an empty reason reads "connection ended"', async () => {
    const retries: [string, number][] = [];
    let n = 0;
    const loop = reconnectLoop({
      initialMs: 2, maxMs: 64,
      attempt: async ({ opened }) => {
        n++;
        if (n === 3) {
          opened();
          return '';
        }
        return 'down';
      },
      onRetry: (why, ms) => retries.push([why, ms]),
    });
    await until(() => retries.length >= 4);
    await loop.stop();
    expect(retries.slice(0, 4)).toEqual([['down', 2], ['down', 4], ['connection ended', 2], ['down', 4]]);
  });

  it('stop() aborts the running attempt, cuts a long wait short and resolves; no retry after stop', async () => {
    let aborted = false;
    let open = false;
    const loop = reconnectLoop({
      attempt: ({ signal, opened }) =>
        new Promise<string>((resolve) => {
          opened();
          open = true;
          signal.addEventListener('abort', () => { aborted = true; resolve('stopped'); });
        }),
      onRetry: () => { throw new Error('no retry after stop'); },
    });
    await until(() => open);
    expect(loop.isOpen()).toBe(true);
    await loop.stop();
    expect([aborted, loop.isOpen(), loop.attempts()]).toEqual([true, false, 1]);

    const waits: number[] = [];
    const slow = reconnectLoop({ initialMs: 60_000, attempt: async () => 'down', onRetry: (_w, ms) => waits.push(ms) });
    await until(() => waits.length === 1);
    const t = Date.now();
    await slow.stop();
    expect(Date.now() - t).toBeLessThan(1000);
    expect(slow.attempts()).toBe(1);
  });
});
