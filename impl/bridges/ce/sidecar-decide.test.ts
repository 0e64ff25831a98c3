/** The sidecar's pure steps: a relay message taken or skipped, and the subscription a (re)connect asks for. */
import { describe, expect, it } from 'vitest';
import { readRelayMessage, subscription, type SidecarOptions } from './sidecar.js';

const opts = { relay: 'http://127.0.0.1:1', batchSize: 1, batchMs: 0, deliver: async () => {}, log: () => {} } as SidecarOptions;
const signal = new AbortController().signal;

describe('readRelayMessage', () => {
  it('an event with an id, a silent skip, or the not-JSON line', () => {
    expect(readRelayMessage({ data: '{"id":"e1"}' } as never)).toEqual({ event: { id: 'e1' } });
    expect(readRelayMessage({ data: '{"no":"id"}' } as never)).toEqual({ skip: null });
    expect(readRelayMessage({ data: '{', id: '7' } as never)).toEqual({ skip: 'relay sent a message that is not JSON (id 7); skipped' });
  });
});

describe('subscription', () => {
  it('from=all once the cursor resumes, or for the first --replay subscription only', () => {
    expect(subscription(opts, false, false, signal)).not.toHaveProperty('from');
    expect(subscription(opts, true, true, signal)).toMatchObject({ from: 'all' });
    expect(subscription({ ...opts, replay: true }, false, false, signal)).toMatchObject({ from: 'all' });
    expect(subscription({ ...opts, replay: true }, false, true, signal)).not.toHaveProperty('from');
    expect(subscription({ ...opts, token: 't', capture: 'full' }, false, false, signal)).toMatchObject({ token: 't', capture: 'full' });
  });
});
