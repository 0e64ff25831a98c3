/**
 * `aep bridge acp` between real peers: Zed's published ACP agent `@zed-industries/codex-acp`
 * (from the vendor cache, see acp-agent.ts), pointed at the lane's scripted model server, and an
 * editor built on `@agentclientprotocol/sdk`'s ClientSideConnection. The model asks for an
 * escalated shell command, so the agent asks the editor for permission; the editor allows it, the
 * command runs (its proof file appears), the model closes the turn. The relay sees the mapped
 * turn, valid. Skipped, with the install command, when the agent is not cached.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { ClientSideConnection, ndJsonStream, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { useRelay } from '../../impl/relay/test-utils/use-relay.js';
import { openSse } from '../../impl/relay/test-utils/testing.js';
import { validateEvent } from '../../impl/core/envelope.js';
import { validateStream } from '../../impl/core/stream.js';
import { sseEvents, useTempHome } from '../../impl/bridge-kit/test-utils/bridge-tests.js';
import { startModelServer, type RunningModelServer } from './model/server.js';
import { codexConfig } from './codex.js';
import { cachedAcpAgent } from './acp-agent.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const agent = cachedAcpAgent();
const built = existsSync(join(ROOT, 'dist/impl/cli/main.js'));
const reason = 'missing' in agent ? agent.missing : built ? '' : 'dist/ is not built (npm run build)';

const harness = useRelay();
const home = useTempHome();
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

describe.skipIf(reason !== '')(`aep bridge acp between @zed-industries/codex-acp and an @agentclientprotocol/sdk editor${reason ? ` (skipped: ${reason})` : ''}`, () => {
  it('a real prompt turn with a permission round trip runs through the tee; the relay sees it mapped and valid', async () => {
    const dir = home();
    const work = join(dir, 'work');
    const codexHome = join(dir, 'codex-home');
    mkdirSync(work, { recursive: true });
    mkdirSync(codexHome, { recursive: true });
    mkdirSync(join(dir, 'home'), { recursive: true });
    const proof = join(work, 'proof.txt');
    const model: RunningModelServer = await startModelServer({
      turns: [
        { text: 'Writing the proof file.', tools: [{ name: 'exec_command', input: { cmd: `echo hi > ${proof}`, sandbox_permissions: 'require_escalated', justification: 'Write the proof file' } }] },
        { text: 'Wrote the proof file.' },
      ],
      doneText: 'Wrote the proof file.',
    });
    closers.push(() => model.close());
    writeFileSync(join(codexHome, 'config.toml'), codexConfig(model.url, work));
    const relay = await harness.start({ token: 'acp-real' });
    const bridge = spawn(process.execPath, [join(ROOT, 'bin/aep.js'), 'bridge', 'acp', '--relay', relay, '--token', 'acp-real', '--', (agent as { bin: string }).bin], {
      cwd: work,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(dir, 'home'), CODEX_HOME: codexHome, AEP_HOME: dir, AEP_SCRIPTED_API_KEY: 'aep-vendor-lane-dummy', OPENAI_API_KEY: 'aep-vendor-lane-dummy', RUST_LOG: 'error' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    bridge.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    /** A protocol step, bounded: a hang fails naming the step and the agent's last stderr. */
    const step = <T>(name: string, p: Promise<T>): Promise<T> =>
      Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${name} did not answer within 30 s; agent stderr: ${stderr.slice(-800)}`)), 30_000))]);
    closers.push(() => { if (bridge.exitCode === null) bridge.kill('SIGKILL'); });
    const updates: string[] = [];
    const asked: string[][] = [];
    const editor = new ClientSideConnection(() => ({
      async requestPermission(p) {
        asked.push(p.options.map((o) => o.kind));
        const allow = p.options.find((o) => o.kind === 'allow_once') ?? p.options.find((o) => o.kind.startsWith('allow'))!;
        return { outcome: { outcome: 'selected', optionId: allow.optionId } };
      },
      async sessionUpdate(n) {
        updates.push(n.update.sessionUpdate);
      },
      async readTextFile(p) {
        return { content: readFileSync(p.path, 'utf8') };
      },
      async writeTextFile(p) {
        writeFileSync(p.path, p.content);
        return {};
      },
    }), ndJsonStream(Writable.toWeb(bridge.stdin) as WritableStream<Uint8Array>, Readable.toWeb(bridge.stdout) as ReadableStream<Uint8Array>));
    const sse = await openSse(`${relay}/stream?from=all`, { authorization: 'Bearer acp-real' });
    closers.push(() => sse.close());
    const init = await step('initialize', editor.initialize({ protocolVersion: PROTOCOL_VERSION, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } } }));
    expect(init.protocolVersion).toBe(PROTOCOL_VERSION);
    const { sessionId } = await step('session/new', editor.newSession({ cwd: work, mcpServers: [] }));
    const result = await step('session/prompt', editor.prompt({ sessionId, prompt: [{ type: 'text', text: 'write the proof file' }] }));
    expect(result.stopReason, stderr).toBe('end_turn');
    expect(asked.length, `the agent never asked for permission; updates ${updates.join(',')}`).toBeGreaterThanOrEqual(1);
    expect(readFileSync(proof, 'utf8')).toBe('hi\n');
    expect(model.served()).toBe(2);
    await sse.waitFor((t) => t.includes('run.finished'));
    // The editor closes the pipe. codex-acp keeps serving after EOF, so the editor then stops the
    // bridge, which forwards the signal to the agent and exits with the agent's 128 + n.
    const closed = new Promise<number | null>((r) => (bridge.exitCode !== null ? r(bridge.exitCode) : bridge.on('close', (c) => r(c))));
    bridge.stdin.end();
    const early = await Promise.race([closed, new Promise<'running'>((r) => setTimeout(() => r('running'), 3000))]);
    if (early === 'running') bridge.kill('SIGTERM');
    const code = await step('exit after SIGTERM', closed);
    const events = sseEvents(sse);
    // codex-acp asks before it announces the tool call; its x.acp.* extras (commands, usage) aside.
    const core = events.filter((e) => !String(e.type).startsWith('x.'));
    expect(core.map((e) => e.type)).toEqual(['session.started', 'run.started', 'attention.requested', 'attention.answered', 'attention.resolved', 'tool.requested', 'tool.completed', 'run.finished']);
    const byType = (t: string) => core.find((e) => e.type === t)!;
    expect(byType('attention.answered').data).toEqual({ answer: { option: 'approved' }, via: 'oob' });
    expect([byType('attention.answered').subject, byType('attention.resolved').subject]).toEqual([byType('attention.requested').id, byType('attention.requested').id]);
    // The terminal names the tool as its request did (the update carries only the call id).
    expect((byType('tool.completed').data as { tool: unknown }).tool).toEqual((byType('tool.requested').data as { tool: unknown }).tool);
    expect(byType('run.finished').data).toEqual({ stop_reason: 'end_turn' });
    expect(core.slice(1).every((e) => e.run === byType('run.started').run)).toBe(true);
    expect(events.every((e) => e.session === sessionId && e.agent === 'acp')).toBe(true);
    for (const e of events) expect(validateEvent(e), String(e.type)).toEqual([]);
    expect(validateStream(events)).toEqual([]);
    expect(code).toBe(early === 'running' ? 128 + 15 : 0);
  }, 90_000);
});
