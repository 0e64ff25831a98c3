/** The failover decisions, pure: what is retried, how long each attempt and pause may take, and the record /healthz and the log read. */
import { describe, expect, it } from 'vitest';
import { ATTEMPT_MS, attemptTimeout, FAILOVER_ATTEMPT_MS, failoverLine, FailoverRecord, isRetryable, MIN_ATTEMPT_MS, pauseBefore } from './failover.js';

const named = (name: string, message: string): Error => Object.assign(new Error(message), { name });

describe('isRetryable', () => {
  it('retries what a stream without a leader, or a connection between servers, answers', () => {
    for (const err of [new Error('jetstream is not enabled'), named('TimeoutError', 'timeout'), new Error('no responders available for request'), new Error('JetStream system temporarily unavailable'), new Error('503'), new Error('disconnected')]) {
      expect(isRetryable(err), err.message).toBe(true);
    }
  });

  it('does not retry a closed connection, a refusal, or what is not an Error', () => {
    for (const err of [new Error('connection closed'), new Error('permissions violation for publish'), new Error('maximum payload exceeded'), new Error('invalid subject'), 'timeout', undefined]) {
      expect(isRetryable(err), String(err)).toBe(false);
    }
  });
});

describe('attempts and pauses inside the window', () => {
  it('an attempt waits 2 s, 500 ms during a failover, never past the deadline, and is not started in the last 100 ms', () => {
    expect(attemptTimeout(0, 10_000)).toBe(ATTEMPT_MS);
    expect(attemptTimeout(0, 10_000, true)).toBe(FAILOVER_ATTEMPT_MS);
    expect(attemptTimeout(9_000, 10_000)).toBe(1_000);
    expect(attemptTimeout(9_700, 10_000, true)).toBe(300);
    expect(attemptTimeout(10_000 - MIN_ATTEMPT_MS, 10_000)).toBe(MIN_ATTEMPT_MS);
    expect(attemptTimeout(10_000 - MIN_ATTEMPT_MS + 1, 10_000)).toBe(0);
    expect(attemptTimeout(11_000, 10_000)).toBe(0);
  });

  it('pauses 50, 100, then 200 ms, never past the deadline', () => {
    expect([0, 1, 2, 3, 10].map((n) => pauseBefore(n, 0, 10_000))).toEqual([50, 100, 200, 200, 200]);
    expect(pauseBefore(3, 9_950, 10_000)).toBe(50);
    expect(pauseBefore(3, 10_500, 10_000)).toBe(0);
  });
});

describe('FailoverRecord', () => {
  it('a failover begins at the first held publish, ends at the next stored one, and is reported with its duration and refusals', () => {
    let now = Date.UTC(2026, 11, 5, 12, 0, 0);
    const r = new FailoverRecord(() => now);
    expect(r.status()).toEqual({ state: 'none', count: 0 });
    expect(r.stored()).toBeUndefined();
    r.refused(); // no failover under way: not counted
    r.hold();
    now += 1_000;
    r.hold(); // still the same failover
    r.refused();
    expect(r.holding).toBe(true);
    expect(r.status()).toEqual({ state: 'holding', since: '2026-12-05T12:00:00.000Z', held_ms: 1_000, count: 0 });
    now += 2_500;
    expect(r.stored()).toEqual({ ms: 3_500, refused: 1 });
    expect(r.holding).toBe(false);
    expect(r.status()).toEqual({ state: 'none', last: { ended: '2026-12-05T12:00:03.500Z', ms: 3_500, refused: 1 }, count: 1 });
    r.hold();
    expect(r.status()).toMatchObject({ state: 'holding', held_ms: 0, last: { ms: 3_500 }, count: 1 });
    expect(r.stored()).toEqual({ ms: 0, refused: 0 });
  });

  it('the log line names the node, the duration and what was refused', () => {
    expect(failoverLine('a', { ms: 4_238, refused: 0 }, 8_000)).toBe('fleet failover over on node a: the stream acknowledged publishes again after 4.2 s (4238 ms) of held publishes; no request was refused');
    expect(failoverLine('b', { ms: 9_050, refused: 2 }, 8_000)).toBe('fleet failover over on node b: the stream acknowledged publishes again after 9.1 s (9050 ms) of held publishes; 2 request(s) spent the 8000 ms window and were answered 503 with Retry-After');
  });
});
