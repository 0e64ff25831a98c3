/**
 * The OTLP receiver's edges (issue 39): attribute values nested 10,000 levels deep are refused
 * with a 400 naming the depth (no stack overflow), 413 above the body limit, 408 on a trickled
 * body, nothing kept from a client that hangs up; the receiver keeps taking valid exports.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEmitter, type Emitter } from '../../bridge-kit/emitter.js';
import { useTempHome } from '../../bridge-kit/test-utils/bridge-tests.js';
import { EDGE_DEFAULTS, type EdgeLimits } from '../../http/limits.js';
import { postHead, rawExchange } from '../../http/test-utils/wire.js';
import { codexProfile } from './map-records.js';
import { MAX_ANY_VALUE_DEPTH, readExport, TOO_DEEP, anyValue } from './otlp-json.js';
import { startReceiver, type RunningReceiver } from './receiver.js';

const home = useTempHome();
const running: Array<RunningReceiver | Emitter> = [];
afterEach(async () => {
  for (const r of running.splice(0).reverse()) await r.close();
});

async function start(limits: Partial<EdgeLimits> = {}): Promise<{ receiver: RunningReceiver; emitted: string[] }> {
  const emitted: string[] = [];
  const emitter = createEmitter({ agent: 'codex', stateKey: 'edge-otlp', home: home(), emits: ['x'], log: () => undefined, onEmit: (e) => void emitted.push(e.type) });
  const receiver = await startReceiver({ profile: codexProfile, mode: 'companion', emitter, port: 0, limits: { ...EDGE_DEFAULTS, ...limits }, log: () => undefined });
  running.push(emitter, receiver);
  return { receiver, emitted };
}

/** The JSON text of an AnyValue nested `depth` levels (JSON.stringify itself overflows on 10,000 levels). */
function nestedText(depth: number, kind: 'kvlistValue' | 'arrayValue'): string {
  const open = kind === 'kvlistValue' ? '{"kvlistValue":{"values":[{"key":"k","value":' : '{"arrayValue":{"values":[';
  const close = kind === 'kvlistValue' ? '}]}}' : ']}}';
  return `${open.repeat(depth)}{"stringValue":"bottom"}${close.repeat(depth)}`;
}
const exportText = (valueText: string): string => JSON.stringify(exportWith({ stringValue: '@@' })).replace('{"stringValue":"@@"}', valueText);

/** An AnyValue nested `depth` levels through kvlistValue (or arrayValue). */
function nested(depth: number, kind: 'kvlistValue' | 'arrayValue'): unknown {
  let v: unknown = { stringValue: 'bottom' };
  for (let i = 0; i < depth; i++) v = kind === 'kvlistValue' ? { kvlistValue: { values: [{ key: 'k', value: v }] } } : { arrayValue: { values: [v] } };
  return v;
}

const exportWith = (value: unknown) => ({
  resourceLogs: [{ resource: { attributes: [] }, scopeLogs: [{ logRecords: [{ attributes: [{ key: 'conversation.id', value: { stringValue: 'c1' } }, { key: 'event.name', value: { stringValue: 'codex.api_request' } }, { key: 'deep', value }] }] }] }],
});
const post = (url: string, body: string) => fetch(`${url}/v1/logs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('otlp-json: nesting is bounded, never a stack overflow', () => {
  it.each(['kvlistValue', 'arrayValue'] as const)('%s nested 10,000 deep: readExport returns an error naming the depth, anyValue a marker', (kind) => {
    const value = nested(10_000, kind);
    const read = readExport(exportWith(value));
    expect(read.records).toEqual([]);
    expect(read.tooDeep).toBe(true);
    expect(read.error).toContain(`deeper than ${MAX_ANY_VALUE_DEPTH} levels`);
    expect(JSON.stringify(anyValue(value))).toContain(TOO_DEEP);
    // At the bound, the value is kept whole.
    expect(readExport(exportWith(nested(MAX_ANY_VALUE_DEPTH, kind))).records).toHaveLength(1);
  });
});

describe('bridge otlp-in bounds what it reads', () => {
  it('answers 400 too-deep to an attribute nested 10,000 levels, then keeps taking exports', async () => {
    const { receiver, emitted } = await start();
    for (const kind of ['kvlistValue', 'arrayValue'] as const) {
      const res = await post(receiver.url, exportText(nestedText(10_000, kind)));
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: string; detail: string };
      expect(body.error).toBe('too-deep');
      expect(body.detail).toContain('AEP_OTLP_IN_MAX_DEPTH');
    }
    // Past the JSON bound only when it is raised: the attribute bound still holds.
    const ok = await post(receiver.url, JSON.stringify(exportWith({ stringValue: 'flat' })));
    expect(ok.status).toBe(200);
    expect(emitted).toEqual(['x.codex.otel.api_request']);
  });

  it('with the JSON bound raised, the attribute bound refuses it as too-deep', async () => {
    const { receiver } = await start({ maxDepth: 100_000 });
    const res = await post(receiver.url, exportText(nestedText(10_000, 'kvlistValue')));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('too-deep');
  });

  it('answers 413 above its body limit (declared, or streamed), naming the variable', async () => {
    const { receiver } = await start({ maxBody: 64 * 1024 });
    const declared = await rawExchange(receiver.url, postHead('/v1/logs', 128 * 1024 * 1024), { body: Buffer.alloc(128 * 1024, 0x20), pieces: 4 });
    expect(declared.status).toBe(413);
    expect(declared.text).toContain('AEP_OTLP_IN_MAX_BODY');
    const res = await post(receiver.url, JSON.stringify({ resourceLogs: [], pad: 'x'.repeat(100 * 1024) }));
    expect(res.status).toBe(413);
  });

  it('cuts a trickled body with 408 once the body timeout passes, and an idle connection too', async () => {
    const { receiver } = await start({ headersTimeoutMs: 400, bodyTimeoutMs: 800 });
    const slow = await rawExchange(receiver.url, postHead('/v1/logs', 600), { body: Buffer.alloc(600, 0x20), pieces: 300, gapMs: 500, waitMs: 8_000 });
    expect([slow.closed, slow.status]).toEqual([true, 408]);
    expect(slow.ms).toBeLessThan(4_000);
    const idle = await rawExchange(receiver.url, '', { waitMs: 8_000 });
    expect(idle.closed).toBe(true);
    expect(idle.ms).toBeLessThan(4_000);
  });

  it('a client that hangs up mid-body costs nothing', async () => {
    const { receiver, emitted } = await start();
    for (let i = 0; i < 20; i++) await rawExchange(receiver.url, postHead('/v1/logs', 10_000), { body: Buffer.alloc(10_000, 0x20), pieces: 10, hangUpAfter: 2 });
    expect(emitted).toEqual([]);
    expect((await post(receiver.url, JSON.stringify(exportWith({ stringValue: 'ok' })))).status).toBe(200);
  });
});
