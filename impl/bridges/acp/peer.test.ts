/**
 * `aep bridge acp` between two real `@agentclientprotocol/sdk` peers: the editor side is a
 * ClientSideConnection, the agent an AgentSideConnection in its own process, spawned by the
 * bridge. Checks that the SDK session works through the tee (prompt turn, tool updates, a
 * permission round trip) and that the relay saw the valid mapped turn.
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { ClientSideConnection, ndJsonStream, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { useRelay } from '../../relay/test-utils/use-relay.js';
import { openSse } from '../../relay/test-utils/testing.js';
import { validateEvent } from '../../core/envelope.js';
import { validateStream } from '../../core/stream.js';
import { sseEvents, useTempHome } from '../../bridge-kit/test-utils/bridge-tests.js';
import { skipped, WHY } from '../../test-utils/skip.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SDK = import.meta.resolve('@agentclientprotocol/sdk');

/** A real ACP agent on the SDK: one prompt turn with a tool call gated by a permission request. */
const AGENT = `
import { AgentSideConnection, ndJsonStream, PROTOCOL_VERSION } from ${JSON.stringify(SDK)};
import { Readable, Writable } from 'node:stream';
new AgentSideConnection((conn) => ({
  async initialize() { return { protocolVersion: PROTOCOL_VERSION, agentCapabilities: {} }; },
  async newSession() { return { sessionId: 'sess_sdk' }; },
  async authenticate() { return {}; },
  async cancel() {},
  async prompt({ sessionId }) {
    await conn.sessionUpdate({ sessionId, update: { sessionUpdate: 'tool_call', toolCallId: 'tc_sdk', title: 'write file', kind: 'edit', status: 'pending', rawInput: { path: 'a.txt' } } });
    const { outcome } = await conn.requestPermission({ sessionId, toolCall: { toolCallId: 'tc_sdk', title: 'write a.txt', kind: 'edit' }, options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }, { optionId: 'no', name: 'Reject', kind: 'reject_once' }] });
    const allowed = outcome.outcome === 'selected' && outcome.optionId === 'ok';
    await conn.sessionUpdate({ sessionId, update: { sessionUpdate: 'tool_call_update', toolCallId: 'tc_sdk', title: 'write file', status: allowed ? 'completed' : 'failed', ...(allowed ? { rawOutput: { written: 1 } } : {}) } });
    await conn.sessionUpdate({ sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'done' } } });
    return { stopReason: 'end_turn' };
  },
}), ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
`;

const harness = useRelay();
const home = useTempHome();

describe.skipIf(!existsSync(join(ROOT, 'dist/impl/cli/main.js')))(`aep bridge acp between two @agentclientprotocol/sdk peers${skipped(!existsSync(join(ROOT, 'dist/impl/cli/main.js')), WHY.build)}`, () => {
  it('the SDK session runs through the tee and the relay sees the mapped turn', async () => {
    const relay = await harness.start({ token: 'acp-peer' });
    const dir = home();
    writeFileSync(join(dir, 'agent.mjs'), AGENT);
    const bridge = spawn(process.execPath, [join(ROOT, 'bin/aep.js'), 'bridge', 'acp', '--relay', relay, '--token', 'acp-peer', '--', process.execPath, join(dir, 'agent.mjs')], { env: { ...process.env, AEP_HOME: dir }, stdio: ['pipe', 'pipe', 'inherit'] });
    const updates: string[] = [];
    const editor = new ClientSideConnection(() => ({
      async requestPermission(p) {
        updates.push(`permission:${p.toolCall.title}`);
        return { outcome: { outcome: 'selected', optionId: 'ok' } };
      },
      async sessionUpdate(n) {
        updates.push(n.update.sessionUpdate);
      },
    }), ndJsonStream(Writable.toWeb(bridge.stdin) as WritableStream<Uint8Array>, Readable.toWeb(bridge.stdout) as ReadableStream<Uint8Array>));
    const sse = await openSse(`${relay}/stream?from=all`, { authorization: 'Bearer acp-peer' });
    await editor.initialize({ protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    const { sessionId } = await editor.newSession({ cwd: dir, mcpServers: [] });
    const result = await editor.prompt({ sessionId, prompt: [{ type: 'text', text: 'write a.txt' }] });
    expect(result.stopReason).toBe('end_turn');
    expect(updates).toEqual(['tool_call', 'permission:write a.txt', 'tool_call_update', 'agent_message_chunk']);
    await sse.waitFor((t) => t.includes('run.finished'));
    bridge.stdin.end();
    const code = await new Promise<number | null>((r) => bridge.on('close', (c) => r(c)));
    expect(code).toBe(0);
    const events = sseEvents(sse);
    expect(events.map((e) => e.type)).toEqual([
      'session.started', 'run.started', 'tool.requested', 'attention.requested', 'attention.answered', 'attention.resolved', 'tool.completed', 'run.finished',
    ]);
    expect(events.every((e) => e.session === 'sess_sdk' && e.agent === 'acp')).toBe(true);
    for (const e of events) expect(validateEvent(e), String(e.type)).toEqual([]);
    expect(validateStream(events)).toEqual([]);
    sse.close();
  });
});
