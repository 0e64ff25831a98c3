/**
 * The AG-UI tee proxy against events built with the real `@ag-ui/core` vocabulary and encoded by
 * the real `@ag-ui/encoder` (the bytes an AG-UI framework server writes), not our own framing.
 */
import { EventType, type BaseEvent } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useRelay } from '../../relay/test-utils/use-relay.js';
import { openSse } from '../../relay/test-utils/testing.js';
import { validateEvent } from '../../core/envelope.js';
import { validateStream } from '../../core/stream.js';
import { createEmitter, type Emitter } from '../../bridge-kit/emitter.js';
import { sseEvents, useTempHome } from '../../bridge-kit/test-utils/bridge-tests.js';
import { mapEvent } from './map-events.js';
import { judgeTerminals } from '../../../runners/judge/terminals.js';
import { startAguiProxy, type RunningAguiProxy } from './proxy.js';

const encoder = new EventEncoder({ accept: 'text/event-stream' });
const RUN: BaseEvent[] = [
  { type: EventType.RUN_STARTED, threadId: 'thr_peer', runId: 'run_peer' } as BaseEvent,
  { type: EventType.STATE_SNAPSHOT, snapshot: { items: [] } } as BaseEvent,
  { type: EventType.TOOL_CALL_START, toolCallId: 'tc_p', toolCallName: 'lookup' } as BaseEvent,
  { type: EventType.TOOL_CALL_ARGS, toolCallId: 'tc_p', delta: '{}' } as BaseEvent,
  { type: EventType.TOOL_CALL_END, toolCallId: 'tc_p' } as BaseEvent,
  { type: EventType.TOOL_CALL_RESULT, messageId: 'm_p', toolCallId: 'tc_p', content: 'found' } as BaseEvent,
  { type: EventType.STATE_DELTA, delta: [{ op: 'add', path: '/items/0', value: 1 }] } as BaseEvent,
  { type: EventType.CUSTOM, name: 'peer.custom', value: { n: 1 } } as BaseEvent,
  { type: EventType.RUN_FINISHED, threadId: 'thr_peer', runId: 'run_peer' } as BaseEvent,
];
const UPSTREAM = 'http://agui-peer.aep.test';
const BYTES = RUN.map((e) => encoder.encode(e)).join('');
const msw = setupServer(http.post(`${UPSTREAM}/run`, () => new HttpResponse(BYTES, { headers: { 'content-type': encoder.getContentType() } })));
beforeAll(() => msw.listen({ onUnhandledRequest: 'bypass' }));
afterAll(() => msw.close());

const harness = useRelay();
const home = useTempHome();
const running: (Emitter | RunningAguiProxy)[] = [];
afterEach(async () => {
  for (const r of running.splice(0).reverse()) await r.close();
});

describe('AG-UI bridge with @ag-ui/core events encoded by @ag-ui/encoder', () => {
  it('every EventType member maps without throwing, to a valid type or a deliberate null', () => {
    for (const type of Object.values(EventType)) {
      const mapped = mapEvent({ type } as Record<string, unknown>, { deltas: true });
      if (mapped === null) expect(['REASONING_ENCRYPTED_VALUE']).toContain(type);
      else for (const one of Array.isArray(mapped) ? mapped : [mapped]) expect(one.type).toMatch(/^(run|tool|state)\.|^run\.step\.|^x\.agui\.[a-z_]+\.[a-z_]+$/);
    }
  });

  it('tees the encoded stream onto the relay while the UI gets the encoder bytes unchanged', async () => {
    const relay = await harness.start({ token: 'peer' });
    const emitter = createEmitter({ agent: 'agui', stateKey: 'bridge-agui', home: home(), relay, token: 'peer', emits: ['run'], log: () => undefined });
    running.push(emitter);
    const proxy = await startAguiProxy({ upstream: UPSTREAM, emitter, port: 0, log: () => undefined });
    running.push(proxy);
    const sse = await openSse(`${relay}/stream?from=all`, { authorization: 'Bearer peer' });
    const res = await fetch(`${proxy.url}/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"threadId":"thr_peer","runId":"run_peer"}' });
    expect(await res.text()).toBe(BYTES);
    await sse.waitFor((t) => t.includes('run.finished'));
    const events = sseEvents(sse);
    expect(events.map((e) => e.type)).toEqual(['run.started', 'state.snapshot', 'tool.requested', 'tool.completed', 'state.delta', 'x.agui.custom.event', 'run.finished']);
    expect(events[3]!.data).toMatchObject({ tool: { name: 'lookup', call_id: 'tc_p' } });
    for (const e of events) expect(validateEvent(e), String(e.type)).toEqual([]);
    expect(validateStream(events)).toEqual([]);
    expect(judgeTerminals(events, { complete: true, expectRunTerminals: ['run.finished'] })).toEqual([]);
    sse.close();
  });
});
