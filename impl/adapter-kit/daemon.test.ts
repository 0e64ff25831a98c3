/** The daemon's entry: it names its adapter, refuses another adapter's hooks, and guards the hook body. */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AepEvent } from '../core/event.js';
import { validateStream } from '../core/stream.js';
import { adapter as claudeCode } from '../adapters/claude-code/adapter.js';
import { startAdapter, type RunningAdapter } from './daemon.js';
import { MAX_HOOK_DEPTH, TOO_DEEP } from './hook-input.js';
import { ADAPTER_HEADER, HOLD_HEADER } from './shim.cjs';
import { sessionFileName } from './session-file.js';
import { tempHome } from './test-utils/daemon-harness.js';

let running: RunningAdapter | null = null;
afterEach(async () => {
  await running?.close();
  running = null;
});

function call(port: number, method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function start(logs: string[] = [], events: AepEvent[] = [], full = false): Promise<RunningAdapter> {
  running = await startAdapter(claudeCode, {
    port: 0,
    home: tempHome(),
    attentionTimeoutMs: 30_000,
    log: (l) => logs.push(l),
    onEmit: (e) => events.push(e),
    ...(full ? { posture: { ceiling: 'full', attention: 'full' } } : {}),
  });
  return running;
}

function nested(depth: number): string {
  let text = '"leaf"';
  for (let i = 0; i < depth; i++) text = `{"a":${text}}`;
  return text;
}

describe('adapter daemon entry', () => {
  it('healthz names the adapter; every reply carries x-aep-adapter; a hook reply announces the hold', async () => {
    const { port } = await start();
    const health = await call(port, 'GET', '/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toBe('{"ok":true,"adapter":"claude-code","relay":false}');
    expect(health.headers[ADAPTER_HEADER]).toBe('claude-code');
    const hook = await call(port, 'POST', '/hook/Stop', '{"session_id":"s1","hook_event_name":"Stop"}', { [ADAPTER_HEADER]: 'claude-code' });
    expect(hook.status).toBe(200);
    expect(hook.headers[ADAPTER_HEADER]).toBe('claude-code');
    expect(hook.headers[HOLD_HEADER]).toBe('30000');
    expect((await call(port, 'GET', '/nope')).headers[ADAPTER_HEADER]).toBe('claude-code');
  });

  it('a body that is not UTF-8 gets 400 naming the offset, one over 1 MiB gets 413; neither emits', async () => {
    const events: AepEvent[] = [];
    const { port } = await start([], events);
    const bad = await call(port, 'POST', '/hook/SessionStart', Buffer.concat([Buffer.from('{"session_id":"s'), Buffer.from([0xff]), Buffer.from('"}')]));
    expect([bad.status, bad.body]).toEqual([400, '{"error":"invalid-encoding","detail":"the hook body is not valid UTF-8 (first bad byte at offset 16); vendor hook JSON is UTF-8"}']);
    const big = await call(port, 'POST', '/hook/SessionStart', `{"session_id":"s","pad":"${'x'.repeat(1024 * 1024)}"}`);
    expect([big.status, big.body]).toEqual([413, '{"error":"payload-too-large","detail":"hook bodies are limited to 1048576 bytes"}']);
    expect(events).toEqual([]);
  });

  it('a hook for another adapter gets 409 and emits nothing', async () => {
    const events: AepEvent[] = [];
    const { port } = await start([], events);
    const res = await call(port, 'POST', '/hook/SessionStart', '{"session_id":"s1","hook_event_name":"SessionStart","source":"startup"}', { [ADAPTER_HEADER]: 'codex' });
    expect(res.status).toBe(409);
    expect(res.body).toBe('{"error":"wrong-adapter","adapter":"claude-code","detail":"this daemon serves claude-code, not codex"}');
    expect(events).toEqual([]);
  });

  it('a session_id holding a lone surrogate: events are emitted (U+FFFD), with a log line', async () => {
    const logs: string[] = [];
    const events: AepEvent[] = [];
    const { port } = await start(logs, events);
    const res = await call(port, 'POST', '/hook/SessionStart', '{"session_id":"lone\\ud800","hook_event_name":"SessionStart","source":"startup"}');
    expect(res).toMatchObject({ status: 200, body: '{}' });
    expect(events.map((e) => e.type)).toContain('session.started');
    expect(events[0]!.session).toBe('lone\ufffd');
    expect(events[0]!.source).toMatch(/\/session\/lone%EF%BF%BD$/);
    expect(logs).toEqual(['hook SessionStart: 1 string(s) held a lone UTF-16 surrogate, replaced by U+FFFD']);
  });

  it('a tool_input nested 5,000 deep: the event is emitted with the cut marked, a warning, the neutral reply', async () => {
    const logs: string[] = [];
    const events: AepEvent[] = [];
    const { port } = await start(logs, events, true);
    const body = `{"session_id":"s_deep","hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"tu1","tool_input":${nested(5000)}}`;
    const res = await call(port, 'POST', '/hook/PreToolUse', body);
    expect(res).toMatchObject({ status: 200, body: '{}' });
    expect(events.map((e) => e.type)).toEqual(['tool.requested']);
    expect(JSON.stringify(events[0]!.data)).toContain(JSON.stringify(TOO_DEEP));
    expect(logs.some((l) => l.includes('failed'))).toBe(false);
    expect(logs).toContain(`hook PreToolUse: 1 value(s) nested deeper than ${MAX_HOOK_DEPTH} levels were cut; emitting what remains, answering neutrally`);
  });

  it('a held hook with a cut body: its request is emitted and dismissed at once, the vendor gets the neutral reply', async () => {
    const events: AepEvent[] = [];
    const { port } = await start([], events);
    await call(port, 'POST', '/hook/SessionStart', '{"session_id":"s_held","hook_event_name":"SessionStart","source":"startup"}');
    const started = Date.now();
    const body = `{"session_id":"s_held","hook_event_name":"PermissionRequest","tool_name":"ExitPlanMode","tool_input":{"plan":${nested(200)}}}`;
    const res = await call(port, 'POST', '/hook/PermissionRequest', body);
    expect(res).toMatchObject({ status: 200, body: '{}' });
    expect(Date.now() - started).toBeLessThan(2000);
    const types = events.map((e) => e.type);
    expect(types).toContain('attention.requested');
    const request = events.find((e) => e.type === 'attention.requested')!;
    expect(events.find((e) => e.type === 'attention.resolved')).toMatchObject({ subject: request.id, data: { resolution: 'dismissed' } });
    expect(validateStream(events).filter((i) => i.rule.startsWith('stream.'))).toEqual([]);
    expect(JSON.stringify(events)).not.toContain('"a":"leaf"');
  });
});

describe('adapter daemon session log', () => {
  it('close() writes every emitted line before it resolves, in emission order; a restart continues the epoch', async () => {
    const home = tempHome();
    const lines: string[] = [];
    const a = await startAdapter(claudeCode, { port: 0, home, onEmit: (_e, line) => lines.push(line) });
    const S = 'log-order-1';
    const base = { session_id: S, cwd: '/w', transcript_path: '/w/t.jsonl' };
    expect((await call(a.port, 'POST', '/hook/SessionStart', JSON.stringify({ ...base, hook_event_name: 'SessionStart', source: 'startup' }))).body).toBe('{}');
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(a.port, 'POST', '/hook/PostToolUse', JSON.stringify({ ...base, hook_event_name: 'PostToolUse', tool_name: 'Read', tool_use_id: `tu${i}`, tool_input: {}, tool_response: {} })),
      ),
    );
    await a.close();
    const file = join(home, 'logs', 'claude-code', sessionFileName(S));
    expect(readFileSync(file, 'utf8')).toBe(lines.map((l) => `${l}\n`).join(''));
    expect(lines.length).toBeGreaterThanOrEqual(21);
    const again = await startAdapter(claudeCode, { port: 0, home });
    expect(again.epoch).toBe(a.epoch + 1);
    await again.close();
  });
});
