/**
 * An over-declared event (AEP-0003 §6.4, fail closed): an event that declares `redacted` but
 * carries a `full`-level field is treated as `full` and down-levelled from there. A subscriber
 * whose ceiling equals the declared level must therefore get the stricter output, not the
 * received bytes: down-levelling at the declared level would change nothing and leak the field.
 * Both wires (SSE and WebSocket), live and replayed, byte for byte; the same cases run against
 * the fleet hub with AEP_TEST_HUB=nats (the over-declared mark crosses NATS as a header).
 */
import { describe, expect, it } from 'vitest';
import { downlevel } from '../core/capture.js';
import type { AepEvent } from '../core/event.js';
import { sseEvent } from './sse-format.js';
import { helloWs, makeEvent, openSse, post } from './test-utils/testing.js';
import { useRelay } from './test-utils/use-relay.js';

const harness = useRelay();

const CANARY = 'CANARY-full-args-in-a-redacted-event';

/** `tool.requested` declared `redacted`, with `args` (a `full` field) beside `args_redacted`. */
function overDeclared(session: string): AepEvent {
  return makeEvent({
    session,
    type: 'tool.requested',
    capture: 'redacted',
    data: { tool: { name: 'Bash', call_id: 'c1' }, args_redacted: { command: 'ls ~/x' }, args: { command: CANARY } },
  }) as unknown as AepEvent;
}

/** What a `redacted` ceiling must deliver: the event judged as `full`, then lowered. */
const expectedAtRedacted = (e: AepEvent): string => JSON.stringify(downlevel({ ...e, capture: 'full' }, 'redacted'));

describe('a capture ceiling below an over-declared event', () => {
  it('the expected output itself holds no full-level content (the oracle is not the input)', () => {
    const e = overDeclared('od-oracle');
    expect(expectedAtRedacted(e)).not.toContain(CANARY);
    expect(expectedAtRedacted(e)).not.toBe(JSON.stringify(e));
  });

  it('SSE at capture=redacted, replayed: the stricter bytes, never the canary', async () => {
    const base = await harness.start();
    const e = overDeclared('od-sse');
    const raw = JSON.stringify(e);
    expect((await post(base, raw)).status).toBe(202);
    const sse = await openSse(`${base}/stream?from=all&live=0&capture=redacted`);
    const text = await sse.waitFor((t) => t.includes('replay-complete'));
    sse.close();
    expect(text).toContain(sseEvent(e, expectedAtRedacted(e)));
    expect(text).not.toContain(CANARY);
  });

  it('SSE at capture=redacted, live: the stricter bytes; a full ceiling gets the received bytes', async () => {
    const base = await harness.start();
    const capped = await openSse(`${base}/stream?capture=redacted`);
    const full = await openSse(`${base}/stream?capture=full`);
    const e = overDeclared('od-live');
    const raw = JSON.stringify(e);
    expect((await post(base, raw)).status).toBe(202);
    const cappedText = await capped.waitFor((t) => t.includes('event: tool.requested'));
    const fullText = await full.waitFor((t) => t.includes('event: tool.requested'));
    capped.close();
    full.close();
    expect(cappedText).toContain(sseEvent(e, expectedAtRedacted(e)));
    expect(cappedText).not.toContain(CANARY);
    expect(fullText).toContain(sseEvent(e, raw));
  });

  it('WebSocket at capture redacted: the stricter frame, byte for byte', async () => {
    const base = await harness.start();
    const c = await helloWs(base);
    harness.clients.push(c);
    c.send({ type: 'subscribe', id: 'red', capture: 'redacted', filter: { session: 'od-ws' } });
    await c.waitFor((f) => f?.type === 'subscribed');
    const e = overDeclared('od-ws');
    expect((await post(base, JSON.stringify(e))).status).toBe(202);
    const frame = await c.waitFor((f) => f?.type === 'tool.requested');
    expect(frame).toBe(expectedAtRedacted(e));
  });
});
