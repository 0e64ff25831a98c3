/**
 * Hostile input at every inbound surface (issue 39): one probe set, run against every row of the
 * surface table (test-utils/inbound-surfaces.ts: the bridges that listen for HTTP), then against
 * `aep mcp`'s JSON-RPC input. Probes: mutated bodies and content types, a body over the limit, JSON
 * nested 10,000 levels, invalid UTF-8, a head and a body trickled slowly, clients that hang up
 * mid-body, a pile of idle connections. Invariants: never a 5xx or a crash, every refusal a status
 * with a JSON error naming what was wrong, slow clients cut on time, and the surface still takes
 * its valid input at the end. A new inbound bridge gets all of it by adding its row.
 */
import { PassThrough } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTEGRATIONS } from '../impl/integrations/registry.js';
import type { EdgeLimits } from '../impl/http/limits.js';
import { deepArray, idleSockets, postHead, rawExchange } from '../impl/http/test-utils/wire.js';
import { judgeLine } from '../impl/mcp/json-rpc-edge.js';
import { BoundedStdioTransport } from '../impl/mcp/stdio-transport.js';
import { anyEventText } from './test-utils/arbitraries.js';
import { NO_HTTP, SURFACES, type StartedSurface } from './test-utils/inbound-surfaces.js';
import { CI, figures } from './test-utils/scale.js';
import { skipped } from '../impl/test-utils/skip.js';

const LIMITS: EdgeLimits = { maxBody: 256 * 1024, maxDepth: 64, headersTimeoutMs: 500, bodyTimeoutMs: 1_000 };
const RUNS = CI ? 150 : 1_500;
/** A server must cut a slow client within its timeout plus the check interval and some slack. */
const CUT_WITHIN = 3_500;

describe('the surface table covers every inbound bridge', () => {
  it('every inbound bridge with a port has a row, or says why it listens on nothing', () => {
    const names = new Set(SURFACES.map((s) => s.name));
    const missing = INTEGRATIONS.filter((i) => i.role === 'inbound-bridge' && i.port > 0 && !names.has(i.name) && !(i.name in NO_HTTP)).map((i) => i.name);
    expect(missing, 'add a row to reliability/test-utils/inbound-surfaces.ts').toEqual([]);
    for (const s of SURFACES) expect(INTEGRATIONS.some((i) => i.name === s.name), s.name).toBe(true);
  });
});

describe.each(SURFACES.map((s) => [s.name, s] as const))('inbound surface %s under hostile input', (name, surface) => {
  let s: StartedSurface;
  let home: string;
  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), `aep-edge-${name}-`));
    s = await surface.start(LIMITS, home);
  });
  afterAll(async () => {
    await s?.close();
    rmSync(home, { recursive: true, force: true });
  });
  const path = (): string => s.bodyPath ?? '/healthz';

  it(`${RUNS} mutated bodies and content types: never a 5xx, every refusal a JSON error`, async () => {
    const statuses = new Map<number, number>();
    const body = fc.oneof(anyEventText(), fc.string({ maxLength: 200 }), fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)), fc.integer({ min: 1, max: 400 }).map((n) => deepArray(n)), fc.jsonValue({ maxDepth: 5 }).map((v) => JSON.stringify(v)));
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-protobuf', ''), async (text, type) => {
        const headers: Record<string, string> = type ? { 'content-type': type } : {};
        const res = await fetch(`${s.url}${path()}`, { method: 'POST', headers, body: text });
        const answer = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) expect(JSON.parse(answer)).toHaveProperty('error');
      }),
      { numRuns: RUNS },
    );
    figures(`edge-${name}-bodies`, { cases: RUNS, ...Object.fromEntries([...statuses].map(([k, v]) => [`status${k}`, v])), server5xx: 0 });
  });

  it('a body over the limit (128 MiB declared, or streamed chunked) is refused without being read', async () => {
    const declared = await rawExchange(s.url, postHead(path(), 128 * 1024 * 1024), { body: Buffer.alloc(512 * 1024, 0x20), pieces: 8 });
    const chunk = Buffer.from(`10000\r\n${' '.repeat(0x10000)}\r\n`);
    const chunked = await rawExchange(s.url, `POST ${path()} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`, { body: Buffer.concat(Array.from({ length: 8 }, () => chunk)), pieces: 8, waitMs: CUT_WITHIN });
    if (surface.readsBody) {
      expect([declared.status, chunked.status]).toEqual([413, 413]);
      expect(declared.text).toContain('"error":"payload-too-large"');
    } else {
      expect([declared.status, chunked.status]).toEqual([404, 404]);
    }
  });

  it.skipIf(!surface.readsBody)(`JSON nested 10,000 levels is a 400 naming the depth limit; invalid UTF-8 a 400${skipped(!surface.readsBody, 'the surface reads no body')}`, async () => {
    const deep = await fetch(`${s.url}${path()}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"a":${deepArray(10_000)}}` });
    expect(deep.status).toBe(400);
    const refusal = (await deep.json()) as { error: string; detail: string };
    expect(refusal.error).toBe('too-deep');
    expect(refusal.detail).toContain(`${LIMITS.maxDepth} levels`);
    const bad = await fetch(`${s.url}${path()}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d]) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe('invalid-encoding');
  });

  it('a head or a body trickled a few bytes at a time is cut with 408 on time', async () => {
    const head = await rawExchange(s.url, `POST ${path()} HTTP/1.1\r\n`, { body: 'x-slow: 1\r\n'.repeat(100), pieces: 100, gapMs: 200, waitMs: 10_000 });
    const body = await rawExchange(s.url, postHead(path(), 1_000), { body: Buffer.alloc(1_000, 0x20), pieces: 500, gapMs: 200, waitMs: 10_000 });
    expect([head.closed, body.closed]).toEqual([true, true]);
    expect(head.ms).toBeLessThan(CUT_WITHIN);
    expect(body.ms).toBeLessThan(CUT_WITHIN);
    expect(head.status).toBe(408);
    // A health-only surface answers 404 before it needs the body; the trickle is still cut.
    expect([408, 404]).toContain(body.status);
    figures(`edge-${name}-slow`, { headCutMs: head.ms, bodyCutMs: body.ms });
  });

  it('clients that hang up mid-body and 200 idle connections cost nothing: it keeps answering, and closes the idle ones', async () => {
    for (let i = 0; i < 25; i++) await rawExchange(s.url, postHead(path(), 20_000), { body: Buffer.alloc(20_000, 0x20), pieces: 10, hangUpAfter: 1 + (i % 5) });
    const idle = await idleSockets(s.url, 200);
    try {
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
      const t0 = Date.now();
      while (idle.open() > 0 && Date.now() - t0 < CUT_WITHIN) await new Promise((r) => setTimeout(r, 50));
      expect(idle.open()).toBe(0);
      figures(`edge-${name}-connections`, { hungUp: 25, idle: 200, closedWithinMs: Date.now() - t0 });
    } finally {
      idle.close();
    }
  });

  it('still takes its valid input after all of it', async () => {
    const res = await fetch(`${s.url}${s.valid.path}`, s.valid.body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: s.valid.body });
    await res.text();
    expect(s.arrived(res.status)).toBe(true);
  });
});

describe('aep mcp under hostile JSON-RPC input', () => {
  it(`${RUNS} hostile lines in random chunks: each invalid one answered with its error, the server still answers a ping`, async () => {
    const line = fc.oneof(
      fc.string({ maxLength: 80 }).map((t) => t.replace(/\n/g, ' ')),
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
      fc.record({ jsonrpc: fc.constantFrom('2.0', '1.0', 2), id: fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.constant(null)), method: fc.oneof(fc.constantFrom('ping', 'tools/list'), fc.integer()) }, { requiredKeys: [] }).map((v) => JSON.stringify(v)),
      fc.integer({ min: 60, max: 3_000 }).map((n) => `{"jsonrpc":"2.0","id":1,"method":"x","params":${deepArray(n)}}`),
      fc.constant(`{"jsonrpc":"2.0","id":"big","method":"x","params":"${'a'.repeat(70 * 1024)}"}`),
    );
    let answered = 0;
    let expected = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 97 }), async (lines, cut) => {
        const stdin = new PassThrough();
        const stdout = new PassThrough();
        const out: Array<Record<string, unknown>> = [];
        let buf = '';
        stdout.setEncoding('utf8');
        stdout.on('data', (c: string) => {
          buf += c;
          for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
            out.push(JSON.parse(buf.slice(0, i)) as Record<string, unknown>);
            buf = buf.slice(i + 1);
          }
        });
        const transport = new BoundedStdioTransport(stdin, stdout, { maxLine: 64 * 1024, maxDepth: 64 });
        let closed = false;
        const server = new McpServer({ name: 'edge', version: '1' }, { capabilities: { tools: {} } });
        await server.connect(transport);
        const onclose = transport.onclose;
        transport.onclose = () => ((closed = true), onclose?.());
        const text = `${lines.join('\n')}\n{"jsonrpc":"2.0","id":"last-ping","method":"ping"}\n`;
        for (let i = 0; i < text.length; i += cut) stdin.write(text.slice(i, i + cut));
        for (let i = 0; i < 200 && !out.some((m) => m.id === 'last-ping'); i++) await new Promise((r) => setTimeout(r, 5));
        expect(out.find((m) => m.id === 'last-ping')).toEqual({ jsonrpc: '2.0', id: 'last-ping', result: {} });
        expect(closed).toBe(false);
        // What the edge should answer, judged line by line the way the transport reads them (a trailing CR is not part of a line).
        const isRefused = (line: string): boolean => {
          const l = line.replace(/\r$/, '');
          if (Buffer.byteLength(l) > 64 * 1024) return true;
          const v = judgeLine(l);
          return v !== null && 'error' in v;
        };
        const errors = lines.filter(isRefused).length;
        const edgeAnswers = out.filter((m) => { const c = (m.error as { code?: number } | undefined)?.code; return c === -32700 || c === -32600; }).length;
        expect(edgeAnswers).toBe(errors);
        for (const m of out) expect(m.jsonrpc).toBe('2.0');
        answered += edgeAnswers;
        expected += errors;
        await server.close();
      }),
      { numRuns: CI ? 60 : 400 },
    );
    figures('edge-mcp-lines', { answered, expected, silent: expected - answered });
  });
});
