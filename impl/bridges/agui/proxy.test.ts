import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useRelay } from '../../relay/test-utils/use-relay.js';
import { openSse } from '../../relay/test-utils/testing.js';
import { validateEvent } from '../../core/envelope.js';
import { validateStream } from '../../core/stream.js';
import { createEmitter, type Emitter } from '../../bridge-kit/emitter.js';
import { sseEvents, useTempHome } from '../../bridge-kit/test-utils/bridge-tests.js';
import { AguiStream, startAguiProxy, type RunningAguiProxy } from './proxy.js';
import { InterruptBook } from './interrupts.js';
import { judgeTerminals } from '../../../runners/judge/terminals.js';

/** The stubbed AG-UI agent: POST /agent answers the run's event stream in AG-UI's SSE encoding. */
const UPSTREAM = 'http://agui-agent.aep.test';
const RUN = [
  { type: 'RUN_STARTED', threadId: 'thr_7', runId: 'run_7' },
  { type: 'STEP_STARTED', stepName: 'search' },
  { type: 'TOOL_CALL_START', toolCallId: 'tc_1', toolCallName: 'search_docs' },
  { type: 'TOOL_CALL_ARGS', toolCallId: 'tc_1', delta: '{"q":"x"}' },
  { type: 'TOOL_CALL_END', toolCallId: 'tc_1' },
  { type: 'TOOL_CALL_RESULT', messageId: 'm_1', toolCallId: 'tc_1', content: '2 hits' },
  { type: 'STEP_FINISHED', stepName: 'search' },
  { type: 'TEXT_MESSAGE_START', messageId: 'm_2', role: 'assistant' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm_2', delta: 'Done — 2 hits.' },
  { type: 'TEXT_MESSAGE_END', messageId: 'm_2' },
  { type: 'RUN_FINISHED', threadId: 'thr_7', runId: 'run_7' },
];
const WIRE = RUN.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');
let seenBody = '';
const msw = setupServer(
  http.post(`${UPSTREAM}/agent`, async ({ request }) => {
    seenBody = await request.text();
    const enc = new TextEncoder();
    const chunks = [WIRE.slice(0, 37), WIRE.slice(37, 300), WIRE.slice(300)];
    const stream = new ReadableStream<Uint8Array>({ start(c) { for (const ch of chunks) c.enqueue(enc.encode(ch)); c.close(); } });
    return new HttpResponse(stream, { headers: { 'content-type': 'text/event-stream', 'x-agent': 'stub' } });
  }),
);
beforeAll(() => msw.listen({ onUnhandledRequest: 'bypass' }));
afterAll(() => msw.close());

const harness = useRelay();
const home = useTempHome();
const TOKEN = 'agui-token';
const running: (Emitter | RunningAguiProxy)[] = [];
afterEach(async () => {
  for (const r of running.splice(0).reverse()) await r.close();
});

async function start(deltas: boolean) {
  const relay = await harness.start({ token: TOKEN });
  const emitter = createEmitter({ agent: 'agui', stateKey: 'bridge-agui', home: home(), relay, token: TOKEN, emits: ['run'], log: () => undefined });
  running.push(emitter);
  const proxy = await startAguiProxy({ upstream: UPSTREAM, emitter, deltas, port: 0, log: () => undefined });
  running.push(proxy);
  const sse = await openSse(`${relay}/stream?from=all`, { authorization: `Bearer ${TOKEN}` });
  return { proxy, sse };
}

const input = JSON.stringify({ threadId: 'thr_7', runId: 'run_7', messages: [{ id: 'u1', role: 'user', content: 'find x' }], tools: [], context: [], state: {}, forwardedProps: {} });

describe('AG-UI tee proxy with a stubbed agent (msw) and a real relay', () => {
  it('passes the request and the stream through untouched and tees the run onto the relay with real ids', async () => {
    const { proxy, sse } = await start(false);
    const res = await fetch(`${proxy.url}/agent`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: input });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-agent')).toBe('stub');
    expect(await res.text()).toBe(WIRE);
    expect(seenBody).toBe(input);
    await sse.waitFor((t) => t.includes('run.finished'));
    const events = sseEvents(sse);
    expect(events.map((e) => [e.type, e.session, e.run, e.step ?? null, e.subject ?? null])).toEqual([
      ['run.started', 'thr_7', 'run_7', null, null],
      ['run.step.started', 'thr_7', 'run_7', 'search', 'search'],
      ['tool.requested', 'thr_7', 'run_7', 'search', 'search_docs'],
      ['tool.completed', 'thr_7', 'run_7', 'search', 'tc_1'],
      ['run.step.finished', 'thr_7', 'run_7', 'search', 'search'],
      ['x.agui.text_message.start', 'thr_7', 'run_7', null, 'm_2'],
      ['x.agui.text_message.end', 'thr_7', 'run_7', null, 'm_2'],
      ['run.finished', 'thr_7', 'run_7', null, null],
    ]);
    // The result's name is joined in from its TOOL_CALL_START; at the default ceiling the reply's text is not carried.
    expect(events[3]!.data).toMatchObject({ tool: { name: 'search_docs', call_id: 'tc_1' } });
    expect(events[6]!.data).toEqual({});
    for (const e of events) expect(validateEvent(e), String(e.type)).toEqual([]);
    expect(validateStream(events)).toEqual([]);
    expect(judgeTerminals(events, { complete: true, expectRunTerminals: ['run.finished'] })).toEqual([]);
    sse.close();
  });

  it('deltas are opt-in', async () => {
    const { proxy, sse } = await start(true);
    await (await fetch(`${proxy.url}/agent`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: input })).text();
    await sse.waitFor((t) => t.includes('run.finished'));
    expect(sseEvents(sse).map((e) => e.type).filter((t) => String(t).startsWith('x.agui.'))).toEqual([
      'x.agui.tool_call.args', 'x.agui.tool_call.end', 'x.agui.text_message.start', 'x.agui.text_message.content', 'x.agui.text_message.end',
    ]);
    sse.close();
  });

  it('an unreachable upstream is a 502 naming it', async () => {
    const relay = await harness.start({ token: TOKEN });
    const emitter = createEmitter({ agent: 'agui', stateKey: 'bridge-agui', home: home(), relay, token: TOKEN, emits: ['run'], log: () => undefined });
    running.push(emitter);
    const proxy = await startAguiProxy({ upstream: 'http://127.0.0.1:9', emitter, port: 0, log: () => undefined });
    running.push(proxy);
    const res = await fetch(`${proxy.url}/agent`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/^the AG-UI upstream http:\/\/127\.0\.0\.1:9 is unreachable/);
    expect(await (await fetch(`${proxy.url}/healthz`)).json()).toMatchObject({ ok: true, source: false });
  });
});

describe('AguiStream pairs each terminal with its start', () => {
  function capture() {
    const sent: { session: string; mapped: { type: string; data: Record<string, unknown>; subject?: string }; extra: { run?: string; cause?: string }; id: string }[] = [];
    let n = 0;
    const emitter = {
      emit(session: string, mapped: { type: string; data: Record<string, unknown> }, extra: { run?: string; cause?: string } = {}) {
        const id = `ev${++n}`;
        sent.push({ session, mapped, extra, id });
        return { id } as never;
      },
    } as unknown as Emitter;
    return { sent, emitter };
  }

  it('tool results cause-link to their TOOL_CALL_START (out of order), the run terminal to RUN_STARTED', () => {
    const { sent, emitter } = capture();
    const s = new AguiStream({ emitter }, undefined);
    for (const e of [
      { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
      { type: 'TOOL_CALL_START', toolCallId: 'a', toolCallName: 'read' },
      { type: 'TOOL_CALL_START', toolCallId: 'b', toolCallName: 'grep' },
      { type: 'TOOL_CALL_RESULT', toolCallId: 'b', content: 'x' },
      { type: 'TOOL_CALL_RESULT', toolCallId: 'a', content: 'y' },
      { type: 'RUN_FINISHED', threadId: 't', runId: 'r', outcome: { type: 'cancelled' } },
    ]) s.handle(e);
    expect(sent.map((x) => [x.mapped.type, x.id, x.extra.cause ?? null])).toEqual([
      ['run.started', 'ev1', null],
      ['tool.requested', 'ev2', null],
      ['tool.requested', 'ev3', null],
      ['tool.completed', 'ev4', 'ev3'],
      ['tool.completed', 'ev5', 'ev2'],
      ['run.cancelled', 'ev6', 'ev1'],
    ]);
    expect(sent[3]!.mapped.data).toMatchObject({ tool: { name: 'grep', call_id: 'b' } });
  });

  it('message ends are joined to their starts: a user reply emits nothing; the reply text rides only from a redacted ceiling up', () => {
    const stream = [
      { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
      { type: 'TEXT_MESSAGE_START', messageId: 'u', role: 'user' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'u', delta: 'hello' },
      { type: 'TEXT_MESSAGE_END', messageId: 'u' },
      { type: 'TEXT_MESSAGE_START', messageId: 'a', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'mail ' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'dan@example.com' },
      { type: 'TEXT_MESSAGE_END', messageId: 'a' },
      { type: 'TOOL_CALL_RESULT', toolCallId: 'never-started', content: 'late' },
    ];
    const at = (ceiling?: 'redacted' | 'full') => {
      const { sent, emitter } = capture();
      const s = new AguiStream({ emitter, ...(ceiling ? { ceiling } : {}) }, undefined);
      for (const e of stream) s.handle(e);
      return sent.map((x) => [x.mapped.type, x.mapped.subject ?? null, x.mapped.data]);
    };
    expect(at()).toEqual([
      ['run.started', null, { trigger: 'user' }],
      ['x.agui.text_message.start', 'u', { role: 'user' }],
      ['x.agui.text_message.start', 'a', { role: 'assistant' }],
      ['x.agui.text_message.end', 'a', {}],
      ['tool.completed', 'never-started', { tool: { name: 'unknown', call_id: 'never-started' }, result_digest: expect.any(String) }],
    ]);
    expect(at('redacted')[3]).toEqual(['x.agui.text_message.end', 'a', { content: 'mail [REDACTED:pii]' }]);
    expect(at('full')[3]).toEqual(['x.agui.text_message.end', 'a', { content: 'mail dan@example.com' }]);
  });

  it('an interrupted run emits its requests inside the run, then one terminal', () => {
    const { sent, emitter } = capture();
    const s = new AguiStream({ emitter }, { threadId: 't', runId: 'r' });
    s.handle({ type: 'RUN_STARTED', threadId: 't', runId: 'r' });
    s.handle({ type: 'RUN_FINISHED', threadId: 't', runId: 'r', outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'tool_approval', toolCallId: 'c' }] } });
    expect(sent.map((x) => [x.mapped.type, x.extra.run, x.extra.cause ?? null])).toEqual([
      ['run.started', 'r', null],
      ['attention.requested', 'r', null],
      ['run.cancelled', 'r', 'ev1'],
    ]);
  });

  it('the next run input of the thread closes the interrupts: resolved → answered + resolved, cancelled → dismissed', () => {
    const { sent, emitter } = capture();
    const book = new InterruptBook();
    const first = new AguiStream({ emitter }, { threadId: 't', runId: 'r1' }, book);
    first.handle({ type: 'RUN_STARTED', threadId: 't', runId: 'r1' });
    first.handle({ type: 'RUN_FINISHED', threadId: 't', runId: 'r1', outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'approval', toolCallId: 'c' }, { id: 'i2', reason: 'input' }] } });
    const [ask1, ask2] = sent.filter((x) => x.mapped.type === 'attention.requested');
    const second = new AguiStream({ emitter }, { threadId: 't', runId: 'r2', resume: [{ interruptId: 'i1', status: 'resolved', payload: { approved: true } }, { interruptId: 'i2', status: 'cancelled' }, { interruptId: 'unknown', status: 'resolved' }] }, book);
    second.handle({ type: 'RUN_STARTED', threadId: 't', runId: 'r2' });
    second.handle({ type: 'RUN_FINISHED', threadId: 't', runId: 'r2' });
    const tail = sent.slice(4).map((x) => [x.mapped.type, x.mapped.subject ?? null, x.extra.run ?? null, x.extra.cause ?? null, x.mapped.data]);
    expect(tail).toEqual([
      ['attention.answered', ask1!.id, 'r1', ask1!.id, { answer: {}, via: 'oob' }],
      ['attention.resolved', ask1!.id, 'r1', 'ev5', { resolution: 'answered' }],
      ['attention.resolved', ask2!.id, 'r1', ask2!.id, { resolution: 'dismissed' }],
      ['run.started', null, 'r2', null, { trigger: 'user' }],
      ['run.finished', null, 'r2', 'ev8', {}],
    ]);
    // a second resume of the same interrupts closes nothing again
    new AguiStream({ emitter }, { threadId: 't', runId: 'r3', resume: [{ interruptId: 'i1', status: 'resolved' }] }, book);
    expect(sent).toHaveLength(9);
    // and the whole stream holds the terminals judge: each run one terminal of the right type
    const stream = sent.map((x) => ({ id: x.id, type: x.mapped.type, source: 'aep://h/agent/agui/session/t', session: x.session, ...x.extra, data: x.mapped.data }));
    expect(judgeTerminals(stream, { complete: true, expectRunTerminals: ['run.cancelled', 'run.finished'] })).toEqual([]);
  });
});
