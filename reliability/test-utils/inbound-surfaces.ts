/**
 * Test-only: every surface that takes input from outside, as one table the inbound-edges probes
 * walk (reliability/inbound-edges.test.ts). Each entry starts its surface in-process with the
 * limits the probe asks for, says which path takes a body (if any), and one valid request whose
 * arrival it can observe. A new inbound bridge with a port is a new row here: the coverage test
 * fails until it has one (or an entry in NO_HTTP saying why it listens on nothing).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEmitter } from '../../impl/bridge-kit/emitter.js';
import type { EdgeLimits } from '../../impl/http/limits.js';
import { startAguiProxy } from '../../impl/bridges/agui/proxy.js';
import { startReceiver } from '../../impl/bridges/otlp-in/receiver.js';
import { codexProfile } from '../../impl/bridges/otlp-in/map-records.js';
import { startOpenHandsBridge } from '../../impl/bridges/openhands/receiver.js';
import { startSseBridge } from '../../impl/bridges/opencode-sse/attach.js';
import { startKimiWeb } from '../../impl/bridges/kimi-web/attach.js';
import { deadPort } from '../../impl/test-utils/dead-port.js';

export interface StartedSurface {
  readonly url: string;
  /** The path a body is POSTed to; undefined: the surface reads no body (a health check only). */
  readonly bodyPath?: string;
  /** One request the surface must take, after every hostile one. */
  readonly valid: { readonly path: string; readonly body?: string };
  /** Whether the valid request's effect was seen (an event emitted, the upstream reached, a 200). */
  arrived(status: number): boolean;
  close(): Promise<void>;
}

export interface InboundSurface {
  /** The integration's name in the registry. */
  readonly name: string;
  /** It reads request bodies (the body probes apply); false: a health check only. */
  readonly readsBody: boolean;
  start(limits: EdgeLimits, home: string): Promise<StartedSurface>;
}

const quiet = (): void => undefined;

function emitterFor(agent: string, home: string, seen: string[]) {
  return createEmitter({ agent, stateKey: `rel-${agent}`, home, emits: ['x', 'run', 'session'], log: quiet, onEmit: (e) => void seen.push(e.type) });
}

const EXPORT = JSON.stringify({ resourceLogs: [{ resource: { attributes: [] }, scopeLogs: [{ logRecords: [{ attributes: [{ key: 'conversation.id', value: { stringValue: 'rel-c' } }, { key: 'event.name', value: { stringValue: 'codex.api_request' } }] }] }] }] });
const RUN_INPUT = JSON.stringify({ threadId: 'rel-thread', runId: 'rel-run', messages: [], tools: [], context: [], state: {}, forwardedProps: {} });
const RUN_STREAM = [{ type: 'RUN_STARTED', threadId: 'rel-thread', runId: 'rel-run' }, { type: 'RUN_FINISHED', threadId: 'rel-thread', runId: 'rel-run' }].map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');

/** A bridge whose only inbound HTTP is `GET /healthz`, started against a vendor server that is not there. */
function healthOnly(name: string, start: (server: string, limits: EdgeLimits, emitter: ReturnType<typeof emitterFor>) => Promise<{ url?: string; close(): Promise<void> }>): InboundSurface {
  return {
    name,
    readsBody: false,
    async start(limits, home) {
      const emitter = emitterFor(name, home, []);
      const bridge = await start(`http://127.0.0.1:${await deadPort()}`, limits, emitter);
      return {
        url: bridge.url!,
        valid: { path: '/healthz' },
        arrived: (status) => status === 200,
        async close() {
          await bridge.close();
          await emitter.close();
        },
      };
    },
  };
}

export const SURFACES: readonly InboundSurface[] = [
  {
    name: 'otlp-in',
    readsBody: true,
    async start(limits, home) {
      const seen: string[] = [];
      const emitter = emitterFor('codex', home, seen);
      const receiver = await startReceiver({ profile: codexProfile, mode: 'companion', emitter, port: 0, limits, log: quiet });
      return {
        url: receiver.url,
        bodyPath: '/v1/logs',
        valid: { path: '/v1/logs', body: EXPORT },
        arrived: (status) => status === 200 && seen.includes('x.codex.otel.api_request'),
        async close() {
          await receiver.close();
          await emitter.close();
        },
      };
    },
  },
  {
    name: 'agui',
    readsBody: true,
    async start(limits, home) {
      const seen: string[] = [];
      const upstream = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.end(RUN_STREAM);
        });
      });
      await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
      const emitter = emitterFor('agui', home, seen);
      const proxy = await startAguiProxy({ upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, emitter, port: 0, limits, log: quiet });
      return {
        url: proxy.url,
        bodyPath: '/agent',
        valid: { path: '/agent', body: RUN_INPUT },
        arrived: (status) => status === 200 && seen.includes('run.started'),
        async close() {
          await proxy.close();
          upstream.closeAllConnections();
          await new Promise<void>((r) => upstream.close(() => r()));
          await emitter.close();
        },
      };
    },
  },
  healthOnly('openhands', (server, limits, emitter) => startOpenHandsBridge({ server, emitter, pollMs: 60_000, port: 0, limits, log: quiet })),
  healthOnly('opencode-sse', (server, limits, emitter) => startSseBridge({ vendor: 'opencode', server, mode: 'companion', emitter, port: 0, limits, log: quiet })),
  healthOnly('kilocode-sse', (server, limits, emitter) => startSseBridge({ vendor: 'kilocode', server, mode: 'companion', emitter, port: 0, limits, log: quiet })),
  healthOnly('kimi-web', (server, limits, emitter) => startKimiWeb({ server, token: 't', mode: 'companion', emitter, sessions: ['s'], port: 0, limits, log: quiet })),
];

/** Inbound bridges that listen on no socket, each with why (their input is probed elsewhere). */
export const NO_HTTP: Readonly<Record<string, string>> = {
  acp: 'a stdio tee between an editor and the agent it spawns: no listening socket (its port is reserved, unused)',
};
