import { afterEach, describe, expect, it } from 'vitest';
import { useRelay } from '../../relay/test-utils/use-relay.js';
import { openSse } from '../../relay/test-utils/testing.js';
import { validateEvent } from '../../core/envelope.js';
import { validateStream } from '../../core/stream.js';
import { createEmitter, type Emitter } from '../../bridge-kit/emitter.js';
import { sseEvents, useTempHome } from '../../bridge-kit/test-utils/bridge-tests.js';
import { codexProfile } from './map-records.js';
import { vscodeProfile } from './map-records-vscode.js';
import { startReceiver, type RunningReceiver } from './receiver.js';
import type { Mode, VendorProfile } from './profile.js';

const harness = useRelay();
const home = useTempHome();
const TOKEN = 'otlp-in-token';
const running: (RunningReceiver | Emitter)[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.close();
});

const kv = (o: Record<string, unknown>) => Object.entries(o).map(([key, v]) => ({ key, value: typeof v === 'number' ? { intValue: String(v) } : typeof v === 'boolean' ? { boolValue: v } : { stringValue: String(v) } }));
const exportOf = (resource: Record<string, unknown>, records: Record<string, unknown>[]) => ({
  resourceLogs: [{ resource: { attributes: kv(resource) }, scopeLogs: [{ scope: { name: 'codex' }, logRecords: records.map((a) => ({ timeUnixNano: '1796119200000000000', attributes: kv(a) })) }] }],
});

async function start(profile: VendorProfile, mode: Mode) {
  const relay = await harness.start({ token: TOKEN });
  const emitter = createEmitter({ agent: profile.agent, stateKey: `t-${profile.agent}`, home: home(), relay, token: TOKEN, emits: ['x'], log: () => undefined });
  const receiver = await startReceiver({ profile, mode, emitter, port: 0, log: () => undefined });
  running.push(receiver, emitter);
  const sse = await openSse(`${relay}/stream?from=all`, { authorization: `Bearer ${TOKEN}` });
  return { relay, receiver, sse, emitter };
}

const postLogs = (url: string, body: unknown, type = 'application/json') => fetch(`${url}/v1/logs`, { method: 'POST', headers: { 'content-type': type }, body: JSON.stringify(body) });

const CODEX = [
  { 'conversation.id': 'conv_9', 'event.name': 'codex.conversation_starts', model: 'o4-mini', approval_policy: 'never' },
  { 'conversation.id': 'conv_9', 'event.name': 'codex.tool_result', tool_name: 'shell', success: 'true', duration_ms: '7' },
  { 'conversation.id': 'conv_9', 'event.name': 'codex.tool_decision', tool_name: 'shell', decision: 'deny', source: 'user' },
];

describe('OTel-inbound receiver on a real relay', () => {
  it('companion (default): every Codex record reaches the relay as x.codex.otel.*, valid, session = conversation.id', async () => {
    const { receiver, sse } = await start(codexProfile, 'companion');
    const res = await postLogs(receiver.url, exportOf({ 'service.name': 'codex-app-server', 'host.name': 'dev' }, CODEX));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('{}');
    await sse.waitFor((t) => (t.match(/^data: /gm) ?? []).length === 3);
    const events = sseEvents(sse);
    expect(events.map((e) => [e.type, e.session, e.agent, e.seq])).toEqual([
      ['x.codex.otel.conversation_starts', 'conv_9', 'codex', 0],
      ['x.codex.otel.tool_result', 'conv_9', 'codex', 1],
      ['x.codex.otel.tool_decision', 'conv_9', 'codex', 2],
    ]);
    expect(events.every((e) => e.run === undefined)).toBe(true);
    for (const e of events) expect(validateEvent(e)).toEqual([]);
    expect(validateStream(events)).toEqual([]);
    sse.close();
  });

  it('primary: the core subset, the user deny emits nothing', async () => {
    const { receiver, sse } = await start(codexProfile, 'primary');
    expect((await postLogs(receiver.url, exportOf({ 'service.name': 'codex-app-server' }, CODEX))).status).toBe(200);
    await sse.waitFor((t) => (t.match(/^data: /gm) ?? []).length === 2);
    await new Promise((r) => setTimeout(r, 100));
    const events = sseEvents(sse);
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['session.started', { client: { name: 'codex' }, 'gen_ai.request.model': 'o4-mini' }],
      ['tool.completed', { tool: { name: 'shell' }, duration_ms: 7 }],
    ]);
    for (const e of events) expect(validateEvent(e)).toEqual([]);
    sse.close();
  });

  it('VS Code profile: the session comes from the resource; records without one are a partial success', async () => {
    const { receiver, sse } = await start(vscodeProfile, 'primary');
    const ok = await postLogs(receiver.url, exportOf({ 'service.name': 'copilot-chat', 'session.id': 'vs_3' }, [{ 'event.name': 'copilot_chat.tool.call', 'gen_ai.tool.name': 'readFile', success: false, duration_ms: 4, 'error.type': 'E' }]));
    expect(await ok.text()).toBe('{}');
    const partial = await postLogs(receiver.url, exportOf({ 'service.name': 'copilot-chat' }, [{ 'event.name': 'copilot_chat.tool.call' }]));
    expect(await partial.json()).toEqual({ partialSuccess: { rejectedLogRecords: 1, errorMessage: '1 LogRecord(s) carried no session key (resource session.id) and were dropped' } });
    await sse.waitFor((t) => t.includes('tool.failed'));
    expect(sseEvents(sse).map((e) => [e.type, e.session, e.agent, e.data])).toEqual([['tool.failed', 'vs_3', 'vscode', { tool: { name: 'readFile' }, error: { type: 'E' }, duration_ms: 4 }]]);
    sse.close();
  });

  it('refuses protobuf, bad JSON and non-exports with a reason; healthz shows the relay link', async () => {
    const { receiver, emitter } = await start(codexProfile, 'companion');
    const proto = await fetch(`${receiver.url}/v1/logs`, { method: 'POST', headers: { 'content-type': 'application/x-protobuf' }, body: 'x' });
    expect(proto.status).toBe(415);
    expect(((await proto.json()) as { detail: string }).detail).toMatch(/transcode protobuf through an OTel Collector/);
    const bad = await fetch(`${receiver.url}/v1/logs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect([bad.status, ((await bad.json()) as { error: string }).error]).toEqual([400, 'invalid-json']);
    const notUtf8 = await fetch(`${receiver.url}/v1/logs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.from([0x7b, 0xc3, 0x28, 0x7d]) });
    expect([notUtf8.status, await notUtf8.text()]).toEqual([400, '{"error":"invalid-encoding","detail":"the body is not valid UTF-8 (first bad byte at offset 1); OTLP JSON is UTF-8"}']);
    const notExport = await postLogs(receiver.url, { logs: [] });
    expect([notExport.status, ((await notExport.json()) as { error: string }).error]).toEqual([400, 'invalid-export']);
    expect((await fetch(`${receiver.url}/v1/traces`, { method: 'POST' })).status).toBe(404);
    for (let i = 0; i < 50 && !emitter.relayReady(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(await (await fetch(`${receiver.url}/healthz`)).json()).toEqual({ ok: true, relay: true });
  });
});
