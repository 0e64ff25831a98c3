/** Setup while the cluster is not ready: which errors are waited out, and the deadline. */
import { describe, expect, it } from 'vitest';
import { isNotReady, untilReady } from './stream.js';

const named = (name: string, message: string): Error => Object.assign(new Error(message), { name });

describe('isNotReady', () => {
  it('waits out a cluster without a leader or without enough peers', () => {
    for (const err of [named('TimeoutError', 'timeout'), new Error('no responders'), new Error('JetStream system temporarily unavailable'), new Error('insufficient resources'), new Error('no suitable peers for placement')]) {
      expect(isNotReady(err)).toBe(true);
    }
  });
  it('does not wait out a real setup error', () => {
    for (const err of [new Error('stream name already in use with a different configuration'), new Error('subjects overlap with an existing stream'), 'timeout']) {
      expect(isNotReady(err)).toBe(false);
    }
  });
});

describe('untilReady', () => {
  it('retries until the attempt succeeds, and logs the wait once', async () => {
    const lines: string[] = [];
    let calls = 0;
    const value = await untilReady('stream', Date.now() + 10_000, (l) => lines.push(l), async () => {
      calls++;
      if (calls < 3) throw named('TimeoutError', 'timeout');
      return 42;
    });
    expect({ value, calls }).toEqual({ value: 42, calls: 3 });
    expect(lines).toEqual(['the NATS cluster is not ready for the stream yet (timeout); retrying until it is']);
  });
  it('throws a real error at once, and a not-ready one at the deadline', async () => {
    let calls = 0;
    await expect(untilReady('stream', Date.now() + 10_000, () => {}, async () => (calls++, Promise.reject(new Error('subjects overlap'))))).rejects.toThrow('subjects overlap');
    expect(calls).toBe(1);
    await expect(untilReady('bucket', Date.now() + 300, () => {}, () => Promise.reject(new Error('no responders')))).rejects.toThrow('no responders');
  });
});
