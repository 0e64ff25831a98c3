/**
 * `aep hook`: always exit 0 with the neutral output when it cannot forward, and one stderr line
 * for every misconfiguration; the lean entry loads node built-ins and the shim only.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolvePort, portEnvName } from '../adapter-kit/config.js';
import { startAdapter, type RunningAdapter } from '../adapter-kit/daemon.js';
import { tempHome } from '../adapter-kit/test-utils/daemon-harness.js';
import { adapter as claudeCode } from '../adapters/claude-code/adapter.js';
import { adapter as codex } from '../adapters/codex/adapter.js';
import { startRelay, type RunningRelay } from '../relay/server.js';
import { main } from './main.js';
import { ADAPTERS } from './adapter.js';
import { SHIM_ADAPTERS, neutralOf, shimPort, shimPortEnv } from './hook.cjs';
import { fakeIo } from '../test-utils/cli-io.js';
import { deadPort } from '../test-utils/dead-port.js';
import { skipped, WHY } from '../test-utils/skip.js';

let running: RunningAdapter | null = null;
let relay: RunningRelay | null = null;
afterEach(async () => {
  await running?.close();
  await relay?.close();
  running = null;
  relay = null;
});

const input = '{"hook_event_name":"PreToolUse","session_id":"s_h","tool_name":"Read","tool_input":{}}';
const lines = (text: string): string[] => text.split('\n').filter((l) => l !== '');


/** The child's exit code; SIGKILLed (code null) when it is still running after 8 s. */
function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((r) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 8000);
    child.on('exit', (c) => (clearTimeout(timer), r(c)));
  });
}
describe('aep hook', () => {
  it('with no daemon: exit 0 and the neutral {} at once, quiet unless AEP_DEBUG', async () => {
    const port = String(await deadPort());
    const io = fakeIo({ stdin: input, env: { AEP_CLAUDE_CODE_PORT: port } });
    const started = Date.now();
    expect(await main(['hook', 'claude-code', 'PreToolUse'], io)).toBe(0);
    expect(io.out).toBe('{}');
    expect(io.err).toBe('');
    expect(Date.now() - started).toBeLessThan(2000);
    const debug = fakeIo({ stdin: input, env: { AEP_CLAUDE_CODE_PORT: port, AEP_DEBUG: '1' } });
    expect(await main(['hook', 'claude-code', 'PreToolUse'], debug)).toBe(0);
    expect(debug.err).toBe(`aep hook: no adapter daemon on port ${port} (ECONNREFUSED); start 'aep adapter claude-code'; answered neutrally\n`);
  });

  it('with a live daemon: the daemon reply on stdout, nothing on stderr', async () => {
    running = await startAdapter(claudeCode, { port: 0, home: tempHome() });
    const io = fakeIo({ stdin: input, env: { AEP_DEBUG: '1' } });
    expect(await main(['hook', 'claude-code', 'PreToolUse', '--port', String(running.port)], io)).toBe(0);
    expect(io.out).toBe('{}');
    expect(io.err).toBe('');
  });

  it.each(['nope', '__proto__', 'constructor', 'hasOwnProperty', 'toString'])('unknown adapter %s: exit 0, empty stdout, one line naming the fix', async (name) => {
    const io = fakeIo({ stdin: input, env: {} });
    expect(await main(['hook', name, 'Stop'], io)).toBe(0);
    expect(io.out).toBe('');
    expect(io.err).toBe(`aep hook: unknown adapter '${name}' (known: ${Object.keys(SHIM_ADAPTERS).join(", ")}); fix the hook command to 'aep hook <adapter> Stop'; nothing forwarded (fail-open)\n`);
  });

  it('missing event, unknown flag, bad port: exit 0, neutral, said on stderr', async () => {
    const missing = fakeIo({ stdin: input, env: {} });
    expect(await main(['hook', 'claude-code'], missing)).toBe(0);
    expect(missing.out).toBe('{}');
    expect(missing.err).toMatch(/^aep hook: usage: aep hook <adapter> <HookEvent> \(adapters: antigravity, claude-code, cline, codex, /);
    const port = String(await deadPort());
    const unknownFlag = fakeIo({ stdin: input, env: { AEP_CLAUDE_CODE_PORT: port } });
    expect(await main(['hook', 'claude-code', 'Stop', '--bogus'], unknownFlag)).toBe(0);
    expect(unknownFlag.out).toBe('{}');
    expect(unknownFlag.err).toBe("aep hook: ignoring '--bogus' (usage: aep hook <name> <HookEvent> [--port N])\n");
    const badPort = fakeIo({ stdin: input, env: { AEP_CLAUDE_CODE_PORT: 'x' } });
    expect(await main(['hook', 'claude-code', 'Stop'], badPort)).toBe(0);
    expect(badPort.out).toBe('{}');
    expect(badPort.err).toBe("aep hook: AEP_CLAUDE_CODE_PORT must be a port number 0-65535, got 'x'; answered neutrally\n");
  });

  it('malformed stdin: neutral, one line, the daemon never sees it', async () => {
    const home = tempHome();
    running = await startAdapter(claudeCode, { port: 0, home });
    for (const [stdin, why] of [
      ['{"hook_event_name":', /^aep hook: stdin is not JSON \(.+\); answered neutrally\n$/],
      ['[]', /^aep hook: stdin is JSON but not an object; a hook payload is a JSON object; answered neutrally\n$/],
      ['', /^aep hook: stdin was empty; the vendor pipes the hook JSON on stdin; answered neutrally\n$/],
    ] as const) {
      const io = fakeIo({ stdin, env: {} });
      expect(await main(['hook', 'claude-code', 'Stop', '--port', String(running.port)], io)).toBe(0);
      expect(io.out).toBe('{}');
      expect(io.err).toMatch(why);
    }
    expect(existsSync(join(home, 'logs'))).toBe(false);
  });

  it('a relay on the port (404): neutral, and says it is not an adapter daemon', async () => {
    relay = await startRelay({ port: 0 });
    const io = fakeIo({ stdin: input, env: { AEP_CODEX_PORT: String(relay.port) } });
    expect(await main(['hook', 'codex', 'Stop'], io)).toBe(0);
    expect(io.out).toBe('');
    expect(io.err).toBe(
      `aep hook: port ${relay.port} answered HTTP 404 to POST /hook/Stop: it is not an aep adapter daemon (a relay, or another server?); ` +
        `start 'aep adapter codex' there, or point --port / AEP_CODEX_PORT at its port; answered neutrally\n`,
    );
  });

  it('the daemon of another adapter on the port: refused before it emits anything, and said', async () => {
    const home = tempHome();
    running = await startAdapter(codex, { port: 0, home });
    const io = fakeIo({ stdin: input, env: {} });
    expect(await main(['hook', 'claude-code', 'PreToolUse', '--port', String(running.port)], io)).toBe(0);
    expect(io.out).toBe('{}');
    expect(lines(io.err)).toEqual([
      `aep hook: port ${running.port} is the codex adapter daemon, not claude-code's (two installs on one port?); start 'aep adapter claude-code' there, or point --port / AEP_CLAUDE_CODE_PORT at its port; answered neutrally`,
    ]);
    expect(existsSync(join(home, 'logs'))).toBe(false);
  });

  it('SHIM_ADAPTERS matches every AdapterDef: neutral reply for every hook, default port, port variables', async () => {
    expect(Object.keys(SHIM_ADAPTERS).sort()).toEqual(Object.keys(ADAPTERS).sort());
    const hooks = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop', 'SessionEnd', 'Notification', 'Elicitation', 'Interrupt', 'Unknown'];
    for (const name of Object.keys(ADAPTERS)) {
      const def = await ADAPTERS[name]!();
      const shim = SHIM_ADAPTERS[name]!;
      for (const hook of hooks) expect(neutralOf(shim, hook), `${name} ${hook}`).toBe(def.neutralReply(hook));
      expect(shim.port).toBe(def.defaultPort);
      expect(shimPortEnv(name)).toBe(portEnvName(def.agent));
      for (const [flag, env] of [
        [undefined, {}],
        ['9000', {}],
        ['x', {}],
        [undefined, { [portEnvName(def.agent)]: '9100', AEP_ADAPTER_PORT: '9200' }],
        [undefined, { AEP_ADAPTER_PORT: '9200' }],
        [undefined, { AEP_ADAPTER_PORT: '70000' }],
      ] as const) {
        expect(shimPort(name, shim.port, flag, env)).toEqual(resolvePort(def.agent, def.defaultPort, flag, env));
      }
    }
  });

  it('the lean entry loads node built-ins and the shim only (no daemon, zod, ajv), as CommonJS from a CommonJS bin', () => {
    const entry = resolve('dist/impl/cli/hook.cjs');
    if (!existsSync(entry)) throw new Error('dist/ is missing: run npm run build');
    const seen = new Set<string>();
    const external = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/require\(\s*['"]([^'"]+)['"]\s*\)|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]/g)) {
        const spec = (m[1] ?? m[2] ?? m[3])!;
        if (spec.startsWith('.')) visit(resolve(dirname(file), spec));
        else external.add(spec);
      }
    };
    visit(entry);
    expect([...seen].map((f) => f.slice(resolve('dist').length + 1)).sort()).toEqual(['impl/adapter-kit/shim.cjs', 'impl/cli/hook.cjs', 'impl/cli/shim-table.cjs']);
    expect([...external].length).toBeGreaterThan(0);
    expect([...external].every((s) => s.startsWith('node:'))).toBe(true);
    const bin = readFileSync('bin/aep.js', 'utf8');
    expect(JSON.parse(readFileSync('bin/package.json', 'utf8'))).toEqual({ type: 'commonjs' });
    expect(bin.indexOf("require('../dist/impl/cli/hook.cjs')")).toBeGreaterThan(-1);
    expect(bin.indexOf("require('../dist/impl/cli/hook.cjs')")).toBeLessThan(bin.indexOf("import('../dist/impl/cli/main.js')"));
    expect(bin).not.toMatch(/^import /m);
  });
});

const bin = 'bin/aep.js';
describe.skipIf(!existsSync('dist/impl/cli/hook.cjs'))(`aep hook as a real process${skipped(!existsSync('dist/impl/cli/hook.cjs'), WHY.build)}`, () => {
  it('with no daemon: exit 0, stdout {}, within the 2 s bound', async () => {
    const port = await deadPort();
    const started = Date.now();
    const result = spawnSync(process.execPath, [bin, 'hook', 'claude-code', 'PermissionRequest'], {
      input,
      env: { ...process.env, AEP_CLAUDE_CODE_PORT: String(port) },
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('{}');
    expect(Date.now() - started).toBeLessThan(2000 + 1500); // the bound plus process start-up
  });

  it.each(['__proto__', 'constructor', 'hasOwnProperty'])('aep hook %s Stop: exit 0, never "internal error"', (name) => {
    const result = spawnSync(process.execPath, [bin, 'hook', name, 'Stop'], { input: '{}', encoding: 'utf8', timeout: 10_000 });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`aep hook: unknown adapter '${name}' (known: ${Object.keys(SHIM_ADAPTERS).join(", ")}); fix the hook command to 'aep hook <adapter> Stop'; nothing forwarded (fail-open)\n`);
  });

  it('(echo {}; sleep 60) | aep hook: answers as soon as the object is complete, and exits', async () => {
    const port = await deadPort();
    const child = spawn(process.execPath, [bin, 'hook', 'claude-code', 'PreToolUse'], { env: { ...process.env, AEP_CLAUDE_CODE_PORT: String(port) } });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stdin.write('{}\n'); // and the pipe stays open
    const started = Date.now();
    const code = await exitCode(child);
    expect(code).toBe(0);
    expect(out).toBe('{}');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('an incomplete object on a pipe that stays open: neutral after the 2 s stdin bound', async () => {
    const child = spawn(process.execPath, [bin, 'hook', 'claude-code', 'PreToolUse']);
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.stdin.write('{"session_id":');
    const started = Date.now();
    const code = await exitCode(child);
    expect(code).toBe(0);
    expect(out).toBe('{}');
    expect(err).toBe('aep hook: stdin did not close or complete a JSON object within 2000 ms (14 bytes read); answered neutrally\n');
    expect(Date.now() - started).toBeLessThan(4500);
  });
});

// Guard: the examples the README points at use the `aep hook <adapter> <Event>` form this file tests.
describe('the example configurations', () => {
  it('name only known adapters', () => {
    const files = [...readdirSync('impl/adapters/claude-code').filter((f) => /^settings.*\.json$/.test(f)).map((f) => `impl/adapters/claude-code/${f}`), 'impl/adapters/codex/hooks.example.json'];
    const commands = files.flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/"command":\s*"([^"]+)"/g)].map((m) => m[1]!));
    expect(commands.length).toBeGreaterThan(0);
    for (const c of commands) expect(Object.hasOwn(SHIM_ADAPTERS, c.split(' ')[2]!), c).toBe(true);
  });
});
