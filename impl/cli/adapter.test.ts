/** `aep adapter`: starts a daemon, serves hooks, stops on the stop signal; refuses bad usage. */
import { afterEach, describe, expect, it } from 'vitest';
import { postHook, tempHome } from '../adapter-kit/test-utils/daemon-harness.js';
import type { CliIo } from './io.js';
import { main } from './main.js';
import { readFileSync } from 'node:fs';
import { ADAPTERS, verb } from './adapter.js';
import { configureDef } from '../adapter-kit/configure.js';

function io(env: Record<string, string>): CliIo & { err: string; stop(): void } {
  let stop!: (s: string) => void;
  const self = {
    err: '',
    stdout: () => {},
    stderr: (t: string) => void (self.err += t),
    readStdin: async () => Buffer.alloc(0),
    env,
    cwd: process.cwd(),
    stopSignal: new Promise<string>((r) => (stop = r)),
    stop: () => stop('SIGTERM'),
  };
  return self;
}

const pending: Promise<number>[] = [];
afterEach(async () => {
  await Promise.all(pending.splice(0));
});

describe('aep adapter', () => {
  it('registers claude-code', () => {
    expect(Object.keys(ADAPTERS)).toContain('claude-code');
  });

  it('runs until the stop signal and answers hooks meanwhile', async () => {
    const home = tempHome();
    const fake = io({ AEP_HOME: home });
    const done = main(['adapter', 'claude-code', '--port', '0', '--relay', 'none'], fake);
    pending.push(done);
    for (let i = 0; i < 100 && !fake.err.includes('listening on'); i++) await new Promise((r) => setTimeout(r, 10));
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(fake.err)![1]!;
    expect(fake.err).toContain('relay disabled');
    expect((await postHook(url, 'Stop', { hook_event_name: 'Stop', session_id: 's' })).body).toBe('{}');
    fake.stop();
    expect(await done).toBe(0);
    expect(fake.err).toContain('SIGTERM');
  });

  it('refuses an unknown adapter, a missing name and a bad port with exit 2', async () => {
    for (const argv of [['adapter', 'nope'], ['adapter'], ['adapter', 'claude-code', '--port', 'x']]) {
      const fake = io({});
      expect(await main(argv, fake)).toBe(2);
      expect(fake.err).toMatch(/aep adapter: /);
    }
  });
});

describe('aep adapter: opt-in legs', () => {
  it('a bad opt-in value is a usage error naming the variable', async () => {
    const fake = io({ AEP_HOME: tempHome(), AEP_VSCODE_CONTROL: 'on' });
    expect(await main(['adapter', 'vscode', '--port', '0', '--relay', 'none'], fake)).toBe(2);
    expect(fake.err).toContain('AEP_VSCODE_CONTROL must be 1');
  });

  it('AEP_KIMI_CONTROL=1 runs the gate with its own hold window inside the vendor timeout', async () => {
    const home = tempHome();
    const fake = io({ AEP_HOME: home, AEP_KIMI_CONTROL: '1', AEP_ATTENTION_TIMEOUT_MS: '80' });
    const done = main(['adapter', 'kimi-code', '--port', '0', '--relay', 'none'], fake);
    pending.push(done);
    for (let i = 0; i < 100 && !fake.err.includes('listening on'); i++) await new Promise((r) => setTimeout(r, 10));
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(fake.err)![1]!;
    const started = Date.now();
    expect(await postHook(url, 'PreToolUse', { hook_event_name: 'PreToolUse', session_id: 'cli-k', tool_name: 'Bash', tool_input: {} })).toEqual({ status: 200, body: '{}' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(70);
    fake.stop();
    expect(await done).toBe(0);
  });
});

/**
 * Every adapter's opt-in variables, one mechanism (`AdapterDef.configure`): what each turns on,
 * and that `aep adapter --help` and the README's environment table name it.
 */
const OPT_INS: { adapter: string; env: Record<string, string>; accepts: string[] }[] = [
  { adapter: 'hermes', env: { AEP_HERMES_CONTROL: '1', AEP_HERMES_GATE_TOOLS: '^terminal$' }, accepts: ['control.attention.respond'] },
  { adapter: 'cline', env: { AEP_CLINE_HUB: '1', AEP_CLINE_HUB_TOKEN: 't' }, accepts: [] },
  { adapter: 'cline', env: { AEP_CLINE_HUB_CONTROL: '1', AEP_CLINE_HUB_TOKEN: 't' }, accepts: ['control.attention.respond', 'control.cancel', 'x.cline.control.send_input'] },
  { adapter: 'pi', env: { AEP_PI_CONTROL: '1' }, accepts: ['control.attention.respond'] },
  { adapter: 'vscode', env: { AEP_VSCODE_CONTROL: '1', AEP_VSCODE_GATE_TOOLS: 'Bash' }, accepts: ['control.attention.respond'] },
  { adapter: 'kimi-code', env: { AEP_KIMI_CONTROL: '1', AEP_KIMI_GATE_TOOLS: 'Shell' }, accepts: ['control.attention.respond'] },
];

describe('aep adapter: every opt-in leg goes through configure', () => {
  it.each(OPT_INS)('$adapter with $env', async ({ adapter, env, accepts }) => {
    const template = await ADAPTERS[adapter]!();
    expect(template.accepts).toEqual([]);
    const on = configureDef(template, env);
    if (typeof on === 'string') throw new Error(on);
    expect(on.accepts).toEqual(accepts);
    // a fresh instance each time: configuring the configured one without the variables turns it off
    expect((configureDef(on, {}) as { accepts: string[] }).accepts).toEqual([]);
  });

  it('every opt-in variable is documented in aep adapter --help and docs/environment.md', () => {
    const readme = readFileSync(new URL('../../docs/environment.md', import.meta.url), 'utf8');
    for (const name of new Set(OPT_INS.flatMap((o) => Object.keys(o.env)))) {
      expect(verb.help, name).toContain(name);
      // a row of the environment table whose first cell names it
      expect(new RegExp(`^\\| [^|\\n]*\`${name}\``, 'm').test(readme), `${name} in the environment table of docs/environment.md`).toBe(true);
    }
  });

  it.each([
    [{ AEP_HERMES_CONTROL: '1', AEP_HERMES_GATE_TOOLS: '(' }, 'hermes', 'aep adapter: AEP_HERMES_GATE_TOOLS must be a regular expression over tool names: '],
    [{ AEP_CLINE_HUB: '1' }, 'cline', 'aep adapter: the Cline hub tap needs a token: set AEP_CLINE_HUB_TOKEN'],
  ])('a refused value exits 2 naming the variable (%j)', async (env, adapter, message) => {
    const fake = io({ AEP_HOME: tempHome(), ...env });
    expect(await main(['adapter', adapter, '--port', '0', '--relay', 'none'], fake)).toBe(2);
    expect(fake.err.startsWith(message)).toBe(true);
  });

  it('AEP_PI_CONTROL=1 through the CLI: the daemon holds a forwarded tool_call', async () => {
    const fake = io({ AEP_HOME: tempHome(), AEP_PI_CONTROL: '1', AEP_ATTENTION_TIMEOUT_MS: '80' });
    const done = main(['adapter', 'pi', '--port', '0', '--relay', 'none'], fake);
    pending.push(done);
    for (let i = 0; i < 100 && !fake.err.includes('listening on'); i++) await new Promise((r) => setTimeout(r, 10));
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(fake.err)![1]!;
    const started = Date.now();
    const res = await postHook(url, 'tool_call', { session: 'cli-pi', event: { type: 'tool_call', toolCallId: 'c1', toolName: 'bash', input: { command: 'ls' } } });
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(70);
    fake.stop();
    expect(await done).toBe(0);
  });
});
