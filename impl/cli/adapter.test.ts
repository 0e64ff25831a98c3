/** `aep adapter`: starts a daemon, serves hooks, stops on the stop signal; refuses bad usage. */
import { afterEach, describe, expect, it } from 'vitest';
import { postHook, tempHome } from '../adapter-kit/test-utils.js';
import type { CliIo } from './io.js';
import { main } from './main.js';
import { ADAPTERS } from './adapter.js';

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
