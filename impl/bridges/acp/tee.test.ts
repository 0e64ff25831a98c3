import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { useRelay } from '../../relay/test-utils/use-relay.js';
import { openSse } from '../../relay/test-utils/testing.js';
import { validateEvent } from '../../core/envelope.js';
import { validateStream } from '../../core/stream.js';
import { deadPort } from '../../test-utils/dead-port.js';
import { createEmitter, type Emitter } from '../../bridge-kit/emitter.js';
import { sseEvents, useTempHome } from '../../bridge-kit/test-utils/bridge-tests.js';
import { AcpObserver } from './observer.js';
import { EXIT_DRAIN_MS, runTee } from './tee.js';

const harness = useRelay();
const home = useTempHome();
const TOKEN = 'acp-token';
const emitters: Emitter[] = [];
afterEach(async () => {
  for (const e of emitters.splice(0)) await e.close();
});

/** A stub ACP agent: answers initialize, session/new, one prompt turn with a tool call and a
 * permission ask, then exits with code 3 when its stdin ends. Writes a non-JSON noise line too. */
const AGENT = `
import { createInterface } from 'node:readline';
const out = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize') out({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: 1 } });
  if (m.method === 'session/new') out({ jsonrpc: '2.0', id: m.id, result: { sessionId: 'sess_tee' } });
  if (m.method === 'session/prompt') {
    out({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'sess_tee', update: { sessionUpdate: 'tool_call', toolCallId: 'tc1', title: 'run tests', kind: 'execute', status: 'pending', rawInput: { command: 'npm test' } } } });
    process.stdout.write('not json, still passed through ü\\n');
    out({ jsonrpc: '2.0', id: 'perm-1', method: 'session/request_permission', params: { sessionId: 'sess_tee', toolCall: { toolCallId: 'tc1', title: 'npm test', kind: 'execute' }, options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }] } });
    globalThis.prompt = m.id;
  }
  if (m.id === 'perm-1') {
    out({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'sess_tee', update: { sessionUpdate: 'tool_call_update', toolCallId: 'tc1', title: 'run tests', status: 'completed', rawOutput: { ok: true } } } });
    out({ jsonrpc: '2.0', id: globalThis.prompt, result: { stopReason: 'end_turn' } });
  }
});
rl.on('close', () => process.exit(3));
`;

const EDITOR = [
  { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } },
  { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } },
  { jsonrpc: '2.0', id: 2, method: 'session/prompt', params: { sessionId: 'sess_tee', prompt: [{ type: 'text', text: 'fix it' }] } },
];

async function drive(relay: string | undefined, dir: string) {
  const script = join(dir, 'agent.mjs');
  writeFileSync(script, AGENT);
  const emitter = createEmitter({ agent: 'acp', stateKey: 'bridge-acp', home: dir, ...(relay ? { relay, token: TOKEN } : {}), emits: ['run'], log: () => undefined });
  emitters.push(emitter);
  const observer = new AcpObserver((s, m, e) => emitter.emit(s, m, e), { epoch: emitter.epoch });
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let output = '';
  stdout.on('data', (c: Buffer) => (output += c.toString()));
  const exit = runTee({ argv: [process.execPath, script], stdin, stdout, observer });
  const send = (m: unknown) => stdin.write(`${JSON.stringify(m)}\n`);
  const until = async (pred: () => boolean) => {
    for (let i = 0; i < 300 && !pred(); i++) await new Promise((r) => setTimeout(r, 10));
  };
  send(EDITOR[0]);
  send(EDITOR[1]);
  await until(() => output.includes('sess_tee'));
  send(EDITOR[2]);
  await until(() => output.includes('perm-1'));
  send({ jsonrpc: '2.0', id: 'perm-1', result: { outcome: { outcome: 'selected', optionId: 'allow' } } });
  await until(() => output.includes('end_turn'));
  stdin.end();
  return { code: await exit, output, observer };
}

const EXPECTED_OUTPUT = [
  '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}',
  '{"jsonrpc":"2.0","id":1,"result":{"sessionId":"sess_tee"}}',
  '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_tee","update":{"sessionUpdate":"tool_call","toolCallId":"tc1","title":"run tests","kind":"execute","status":"pending","rawInput":{"command":"npm test"}}}}',
  'not json, still passed through ü',
  '{"jsonrpc":"2.0","id":"perm-1","method":"session/request_permission","params":{"sessionId":"sess_tee","toolCall":{"toolCallId":"tc1","title":"npm test","kind":"execute"},"options":[{"optionId":"allow","name":"Allow","kind":"allow_once"}]}}',
  '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_tee","update":{"sessionUpdate":"tool_call_update","toolCallId":"tc1","title":"run tests","status":"completed","rawOutput":{"ok":true}}}}',
  '{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}',
].map((l) => `${l}\n`).join('');

describe('ACP stdio tee with a stub editor and a stub agent', () => {
  it('passes the agent output through byte for byte, returns its exit code, and tees valid events to the relay', async () => {
    const relay = await harness.start({ token: TOKEN });
    const sse = await openSse(`${relay}/stream?from=all`, { authorization: `Bearer ${TOKEN}` });
    const { code, output, observer } = await drive(relay, home());
    expect(output).toBe(EXPECTED_OUTPUT);
    expect(code).toBe(3);
    await sse.waitFor((t) => t.includes('run.finished'));
    const events = sseEvents(sse);
    expect(events.map((e) => [e.type, e.session, e.run ?? null])).toEqual([
      ['session.started', 'sess_tee', null],
      ['run.started', 'sess_tee', `run:${events[1]!.epoch}:2`],
      ['tool.requested', 'sess_tee', `run:${events[1]!.epoch}:2`],
      ['attention.requested', 'sess_tee', `run:${events[1]!.epoch}:2`],
      ['attention.answered', 'sess_tee', `run:${events[1]!.epoch}:2`],
      ['attention.resolved', 'sess_tee', `run:${events[1]!.epoch}:2`],
      ['tool.completed', 'sess_tee', `run:${events[1]!.epoch}:2`],
      ['run.finished', 'sess_tee', `run:${events[1]!.epoch}:2`],
    ]);
    expect(events[4]!.subject).toBe(events[3]!.id);
    expect(events[3]!.data).toEqual({ kind: 'permission', prompt: 'Permission requested: npm test', options_count: 1 });
    for (const e of events) expect(validateEvent(e), String(e.type)).toEqual([]);
    expect(validateStream(events)).toEqual([]);
    expect(observer.skipped).toBe(3); // initialize (request, response) and the session/new request carry no session
    sse.close();
  });

  it('a dead relay never disturbs the session', async () => {
    const { code, output } = await drive(`http://127.0.0.1:${await deadPort()}`, home());
    expect(output).toBe(EXPECTED_OUTPUT);
    expect(code).toBe(3);
  });

  it('an agent that cannot be spawned exits 127; a killed agent exits 128 + signal', async () => {
    const stdin = new PassThrough();
    expect(await runTee({ argv: ['/no/such/agent-binary'], stdin, stdout: new PassThrough(), observer: null })).toBe(127);
    const killed = runTee({ argv: [process.execPath, '-e', 'process.kill(process.pid, "SIGTERM")'], stdin: new PassThrough(), stdout: new PassThrough(), observer: null });
    expect(await killed).toBe(143);
  });

  it('an agent whose grandchild still holds stdout ends the tee EXIT_DRAIN_MS after the agent exits, output kept', async () => {
    // A launcher that spawned a child (here a 3 s sleeper inheriting stdout) and exited 5.
    const script = 'process.stdout.write("last words\\n"); require("child_process").spawn(process.execPath, ["-e", "setTimeout(() => {}, 3000)"], { stdio: ["ignore", "inherit", "ignore"], detached: true }).unref(); process.exit(5);';
    const stdout = new PassThrough();
    let output = '';
    stdout.on('data', (c: Buffer) => (output += c.toString()));
    const t0 = Date.now();
    const code = await runTee({ argv: [process.execPath, '-e', script], stdin: new PassThrough(), stdout, observer: null });
    const took = Date.now() - t0;
    expect(code).toBe(5);
    expect(output).toBe('last words\n');
    expect(took).toBeGreaterThanOrEqual(EXIT_DRAIN_MS - 50);
    expect(took).toBeLessThan(2800);
  });
});
