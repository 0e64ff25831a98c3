/**
 * Hook payloads sent to every daemon (issue 14, suite part 1) and control security (part 4).
 * A daemon answers every hook, however mangled, and every event it emits has a valid envelope;
 * no command flows on an unauthenticated binding, a refusal never enters history, and the token
 * never appears in a log line or an error body.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { startAdapter } from '../impl/adapter-kit/daemon.js';
import { adapter as claudeCode } from '../impl/adapters/claude-code/adapter.js';
import { adapter as codex } from '../impl/adapters/codex/adapter.js';
import { validateEnvelope } from '../impl/core/envelope.js';
import type { AepEvent } from '../impl/core/event.js';
import { startRelay } from '../impl/relay/server.js';
import { helloWs, makeEvent, openWs, post, sleep } from '../impl/relay/test-utils/testing.js';
import { CI, figures } from './test-utils/scale.js';
import { jsonData } from './test-utils/arbitraries.js';

const HOOKS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PermissionRequest', 'Notification', 'Stop', 'SubagentStart', 'SubagentStop', 'PreCompact', 'SessionEnd', 'Elicitation', 'NoSuchHook'];

function hookBody(): fc.Arbitrary<string> {
  const base = fc.record(
    {
      hook_event_name: fc.constantFrom(...HOOKS),
      session_id: fc.oneof(fc.constantFrom('fz-1', 'fz-2', ''), fc.string({ maxLength: 10 })),
      turn_id: fc.string({ maxLength: 6 }),
      cwd: fc.constantFrom('/tmp/w', '', '/home/ana/secret'),
      tool_name: fc.constantFrom('Bash', 'Edit', 'AskUserQuestion', ''),
      tool_input: jsonData,
      tool_response: jsonData,
      prompt: fc.string({ maxLength: 30 }),
      message: fc.string({ maxLength: 30 }),
      source: fc.constantFrom('startup', 'resume', 7),
    },
    { requiredKeys: [] },
  );
  return fc.oneof(
    base.map((b) => JSON.stringify(b)),
    base.map((b) => JSON.stringify(b).slice(0, 20)),
    fc.string({ maxLength: 50 }),
    jsonData.map((v) => JSON.stringify(v)),
    fc.constant(`{"session_id":"fz-1","x":${'['.repeat(500)}${']'.repeat(500)}}`),
  );
}

describe('hook payloads sent to every daemon', () => {
  for (const def of [claudeCode, codex]) {
    it(`${def.agent}: every mangled hook is answered (< 500), the daemon keeps serving, every emitted envelope is valid`, async () => {
      const relay = await startRelay({ port: 0, token: 'hook-fuzz', buffer: 100_000 });
      const emitted: AepEvent[] = [];
      const running = await startAdapter(def, { port: 0, relay: relay.url, token: 'hook-fuzz', home: mkdtempSync(join(tmpdir(), 'aep-rel-')), attentionTimeoutMs: 30, hostname: 'fuzz', onEmit: (e) => emitted.push(e) });
      const runs = CI ? 200 : 2_000;
      const statuses = new Map<number, number>();
      try {
        await fc.assert(
          fc.asyncProperty(fc.constantFrom(...HOOKS), hookBody(), async (name, body) => {
            const res = await fetch(`${running.url}/hook/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
            await res.text();
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            expect(res.status).toBeLessThan(500);
          }),
          { numRuns: runs },
        );
        expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
        const invalid = emitted.filter((e) => validateEnvelope(e).length > 0);
        expect(invalid.map((e) => [e.type, validateEnvelope(e)[0]!.rule])).toEqual([]);
        figures(`hooks-${def.agent}`, { cases: runs, emitted: emitted.length, invalidEnvelopes: invalid.length, ...Object.fromEntries([...statuses].map(([s, n]) => [`status${s}`, n])) });
      } finally {
        await running.close();
        await relay.close();
      }
    });
  }
});

describe('control security', () => {
  it('no command flows on an unauthenticated binding, and no refusal enters history', async () => {
    const token = 'ctl-token';
    const relay = await startRelay({ port: 0, token });
    try {
      const target = await helloWs(relay.url, { role: 'emitter', capabilities: { control: { accepts: ['control.cancel'] } } }, { authorization: `Bearer ${token}` });
      target.send(makeEvent({ type: 'session.started', session: 'guarded', seq: 0, data: {} }));
      await sleep(30);
      // Without the token there is no socket at all, and POST refuses commands outright.
      await expect(openWs(`${relay.url.replace('http', 'ws')}/socket`)).rejects.toThrow(/401/);
      await expect(openWs(`${relay.url.replace('http', 'ws')}/socket?access_token=wrong`)).rejects.toThrow(/401/);
      const runs = CI ? 100 : 500;
      let refused = 0;
      for (let i = 0; i < runs; i++) {
        const cmd = makeEvent({ id: `unauth-${i}`, type: 'control.cancel', session: 'guarded', data: { scope: 'session' } });
        delete cmd.seq;
        delete cmd.epoch;
        const r = await post(relay.url, JSON.stringify(cmd), i % 2 === 0 ? {} : { token });
        if (r.status === 401 || r.status === 403) refused++;
      }
      await sleep(50);
      expect(refused).toBe(runs);
      expect(target.frames.some((f) => f.includes('unauth-'))).toBe(false);
      const history = await (await fetch(`${relay.url}/stream?from=all&live=0`, { headers: { authorization: `Bearer ${token}` } })).text();
      expect(history).not.toContain('unauth-');
      expect(history).not.toContain('"type":"error"');
      figures('control-unauthenticated', { commands: runs, refused, reachedTarget: 0, persisted: 0 });
      target.ws.terminate();
    } finally {
      await relay.close();
    }
  });

  it('the token never appears in a log line or an error body, whatever is presented', async () => {
    const token = 'S3CRET-relay-token-0123456789';
    const lines: string[] = [];
    const relay = await startRelay({ port: 0, token, log: (l) => lines.push(l) });
    const bodies: string[] = [];
    try {
      const tries = ['', token.slice(0, -1), `${token}x`, token.toUpperCase(), 'Bearer', token];
      for (const t of tries) {
        for (const path of ['/events', '/stream?live=0', '/healthz']) {
          const res = await fetch(`${relay.url}${path}`, { method: path === '/events' ? 'POST' : 'GET', headers: { 'content-type': 'application/json', 'aep-version': '0.1', ...(t ? { authorization: `Bearer ${t}` } : {}) }, body: path === '/events' ? '{"bad":' : undefined });
          bodies.push(`${res.status} ${[...res.headers.entries()].join(';')} ${await res.text()}`);
        }
      }
      const ws = await helloWs(relay.url, { role: 'both' }, { authorization: `Bearer ${token}` });
      ws.sendRaw('not json');
      const cmd = makeEvent({ id: 'to-nobody', type: 'control.cancel', session: 'nobody', data: { scope: 'session' } });
      delete cmd.seq;
      delete cmd.epoch;
      ws.send(cmd);
      await ws.waitFor((f) => f?.type === 'error' && f.cause === 'to-nobody');
      expect(lines.some((l) => l.includes('to-nobody'))).toBe(true); // the refusal is logged, the token is not
      bodies.push(...ws.frames);
      ws.ws.terminate();
      const leaks = [...lines, ...bodies].filter((l) => l.includes(token) || l.includes(token.slice(0, -1)) || l.includes(token.toUpperCase()));
      expect(leaks).toEqual([]);
      figures('token-hygiene', { requests: bodies.length, logLines: lines.length, tokenLeaks: leaks.length });
    } finally {
      await relay.close();
    }
  });
});
