/**
 * The OTel-inbound receiver fed by the official OpenTelemetry JS log exporter
 * (`@opentelemetry/exporter-logs-otlp-http`, JSON encoding), as a Codex or VS Code process would
 * export, instead of our hand-built OTLP JSON.
 */
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { afterEach, describe, expect, it } from 'vitest';
import { useRelay } from '../../relay/test-utils/use-relay.js';
import { openSse } from '../../relay/test-utils/testing.js';
import { validateEvent } from '../../core/envelope.js';
import { createEmitter, type Emitter } from '../../bridge-kit/emitter.js';
import { sseEvents, useTempHome } from '../../bridge-kit/test-utils/bridge-tests.js';
import { codexProfile } from './map-records.js';
import { vscodeProfile } from './map-records-vscode.js';
import { startReceiver, type RunningReceiver } from './receiver.js';

const harness = useRelay();
const home = useTempHome();
const running: (Emitter | RunningReceiver | { close(): Promise<void> })[] = [];
afterEach(async () => {
  for (const r of running.splice(0).reverse()) await r.close();
});

async function setup(profile: typeof codexProfile, resource: Record<string, string>) {
  const relay = await harness.start({ token: 'otel' });
  const emitter = createEmitter({ agent: profile.agent, stateKey: `peer-${profile.agent}`, home: home(), relay, token: 'otel', emits: ['x'], log: () => undefined });
  const receiver = await startReceiver({ profile, mode: 'primary', emitter, port: 0, log: () => undefined });
  const provider = new LoggerProvider({ resource: new Resource(resource) });
  provider.addLogRecordProcessor(new SimpleLogRecordProcessor(new OTLPLogExporter({ url: `${receiver.url}/v1/logs` })));
  running.push(emitter, receiver, { close: () => provider.shutdown() });
  const sse = await openSse(`${relay}/stream?from=all`, { authorization: 'Bearer otel' });
  return { provider, sse };
}

describe('OTel-inbound receiver fed by @opentelemetry/exporter-logs-otlp-http', () => {
  it('Codex-shaped records exported by the official exporter arrive as the primary core subset', async () => {
    const { provider, sse } = await setup(codexProfile, { 'service.name': 'codex-app-server', 'host.name': 'peer-host' });
    const logger = provider.getLogger('codex');
    logger.emit({ body: 'codex.conversation_starts', attributes: { 'event.name': 'codex.conversation_starts', 'conversation.id': 'conv_peer', model: 'o4-mini' } });
    logger.emit({ attributes: { 'event.name': 'codex.tool_result', 'conversation.id': 'conv_peer', tool_name: 'shell', success: 'true', duration_ms: '12' } });
    logger.emit({ attributes: { 'event.name': 'codex.tool_decision', 'conversation.id': 'conv_peer', tool_name: 'shell', decision: 'deny', source: 'config' } });
    await provider.forceFlush();
    await sse.waitFor((t) => t.includes('tool.denied'));
    const events = sseEvents(sse);
    expect(events.map((e) => [e.type, e.session, e.data])).toEqual([
      ['session.started', 'conv_peer', { client: { name: 'codex' }, 'gen_ai.request.model': 'o4-mini' }],
      ['tool.completed', 'conv_peer', { tool: { name: 'shell' }, duration_ms: 12 }],
      ['tool.denied', 'conv_peer', { tool: { name: 'shell' }, by: 'policy' }],
    ]);
    for (const e of events) expect(validateEvent(e)).toEqual([]);
    sse.close();
  });

  it('VS Code-shaped records take their session from the exporter resource; numbers and booleans survive the encoding', async () => {
    const { provider, sse } = await setup(vscodeProfile, { 'service.name': 'copilot-chat', 'session.id': 'vs_peer' });
    provider.getLogger('copilot').emit({ attributes: { 'event.name': 'copilot_chat.tool.call', 'gen_ai.tool.name': 'readFile', duration_ms: 31, success: true } });
    await provider.forceFlush();
    await sse.waitFor((t) => t.includes('tool.completed'));
    expect(sseEvents(sse).map((e) => [e.type, e.session, e.data])).toEqual([['tool.completed', 'vs_peer', { tool: { name: 'readFile' }, duration_ms: 31 }]]);
    sse.close();
  });
});
