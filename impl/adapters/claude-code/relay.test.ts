/**
 * The Claude Code daemon attached to the project's own tokened relay (impl/relay): the checker's
 * control-capable-target checks, and a permission round trip sent by a real consumer socket.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { startAdapter } from '../../adapter-kit/daemon.js';
import { command, postHook, tempHome } from '../../adapter-kit/test-utils/daemon-harness.js';
import { adapter } from './adapter.js';
import { skipped, WHY } from '../../test-utils/skip.js';

const hasRelay = existsSync(fileURLToPath(new URL('../../relay/server.ts', import.meta.url)));
const hasChecker = existsSync(fileURLToPath(new URL('../../check-live/runner.ts', import.meta.url)));
const TOKEN = 'adapter-ci-token';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function stack(session: string): Promise<{ relayUrl: string; adapterUrl: string }> {
  const path = '../../relay/server.js';
  const { startRelay } = (await import(/* @vite-ignore */ path)) as { startRelay: (o: object) => Promise<{ url: string; close(): Promise<unknown> }> };
  const relay = await startRelay({ port: 0, token: TOKEN, drainMs: 200 });
  cleanups.push(async () => void (await relay.close()));
  const daemon = await startAdapter(adapter, { port: 0, relay: relay.url, token: TOKEN, home: tempHome(), attentionTimeoutMs: 5000 });
  cleanups.push(() => daemon.close());
  for (let i = 0; i < 100 && !daemon.relayReady(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(daemon.relayReady()).toBe(true);
  await postHook(daemon.url, 'SessionStart', { hook_event_name: 'SessionStart', session_id: session, source: 'startup' });
  return { relayUrl: relay.url, adapterUrl: daemon.url };
}

describe.skipIf(!hasRelay)(`claude-code daemon on a tokened relay${skipped(!hasRelay, WHY.source)}`, () => {
  it.skipIf(!hasChecker)(`passes the checker as a control-capable target${skipped(!hasChecker, WHY.source)}`, async () => {
    const { relayUrl } = await stack('cc-live');
    const runner = '../../check-live/runner.js';
    const checks = '../../check-live/checks/index.js';
    const context = '../../check-live/context.js';
    const { runChecks } = await import(/* @vite-ignore */ runner);
    const { CHECKS } = await import(/* @vite-ignore */ checks);
    const { DEFAULT_OPTIONS } = await import(/* @vite-ignore */ context);
    const report = await runChecks({ target: relayUrl, ...DEFAULT_OPTIONS, token: TOKEN, controlSession: 'cc-live', ackWindowMs: 3000 }, CHECKS);
    const byName = Object.fromEntries(report.checks.map((c: { name: string; status: string; detail?: string }) => [c.name, `${c.status}${c.detail ? `: ${c.detail}` : ''}`]));
    for (const name of ['control-ack', 'control-nack-unsupported', 'control-dedupe']) expect(byName[name], name).toMatch(/^pass/);
    expect(report.checks.filter((c: { status: string }) => c.status === 'fail')).toEqual([]);
  });

  it('a consumer answers a held permission prompt through the relay', async () => {
    const { relayUrl, adapterUrl } = await stack('cc-loop');
    const ws = new WebSocket(`${relayUrl.replace('http', 'ws')}/socket`, { headers: { authorization: `Bearer ${TOKEN}` } });
    cleanups.push(async () => void ws.terminate());
    const frames: Record<string, any>[] = [];
    ws.on('message', (d) => frames.push(JSON.parse(d.toString())));
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ type: 'hello', versions: ['0.1'], role: 'both', identity: { agent: 'operator' }, capabilities: {} }));
    ws.send(JSON.stringify({ type: 'subscribe', id: 'sub1', filter: { session: 'cc-loop' } }));
    const until = async (pred: () => boolean) => {
      for (let i = 0; i < 200 && !pred(); i++) await new Promise((r) => setTimeout(r, 20));
      expect(pred()).toBe(true);
    };
    await until(() => frames.some((f) => f.type === 'subscribed'));
    const reply = postHook(adapterUrl, 'PermissionRequest', { hook_event_name: 'PermissionRequest', session_id: 'cc-loop', tool_name: 'Bash', tool_input: { command: 'ls' } });
    await until(() => frames.some((f) => f.type === 'attention.requested'));
    const req = frames.find((f) => f.type === 'attention.requested')!;
    const cmd = command('control.attention.respond', 'cc-loop', { answer: { text: 'deny' } }, { subject: req.id, cause: req.id });
    ws.send(JSON.stringify(cmd));
    expect((await reply).body).toBe('{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"Denied via AEP attention loop"}}}');
    await until(() => frames.some((f) => f.type === 'attention.resolved'));
    const types = frames.filter((f) => typeof f.aep === 'string' && f.session === 'cc-loop').map((f) => f.type);
    expect(types.slice(types.indexOf('attention.requested')).filter((t) => t !== 'control.attention.respond')).toEqual(['attention.requested', 'control.accepted', 'attention.answered', 'attention.resolved']);
  });
});
