/**
 * Every verb under interruption and bad input: Ctrl-C stops at once (daemons drain), memory stays
 * bounded on endless input, bad paths are refused before any work, flag errors are in our words.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeIo } from '../test-utils/cli-io.js';
import { main } from './main.js';
import { VERBS } from './verbs.js';
import { skipped, WHY } from '../test-utils/skip.js';

const bin = 'bin/aep.js';
const built = existsSync('dist/impl/cli/main.js');
const onLinux = process.platform === 'linux' && existsSync('/proc/self/status');

const children: ChildProcessWithoutNullStreams[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

function run(args: string[], env: Record<string, string> = {}): { child: ChildProcessWithoutNullStreams; out: () => string; err: () => string; exit: Promise<{ code: number | null; signal: string | null }> } {
  const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env } });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  const exit = new Promise<{ code: number | null; signal: string | null }>((r) => child.on('exit', (code, signal) => r({ code, signal })));
  return { child, out: () => out, err: () => err, exit };
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function within<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([p, sleep(ms).then(() => Promise.reject(new Error(`not within ${ms} ms`)))]);
}

describe.skipIf(!built || !onLinux)(`interruption and endless input (real processes)${skipped(!built || !onLinux, !built ? WHY.build : WHY.linux)}`, () => {
  it('aep validate /dev/zero: memory stays under 100 MB, and SIGINT stops its endless read with exit 130', async () => {
    const p = run(['validate', '/dev/zero']);
    await sleep(2500);
    expect(p.child.exitCode).toBe(null);
    expect(rssMb(p.child.pid!)).toBeLessThan(100);
    p.child.kill('SIGINT');
    // The read never ends on its own: a loop that never yields to the signal would never exit.
    // The bound is for a busy machine, not a latency claim.
    const { code } = await within(p.exit, 5000);
    expect(code).toBe(130);
  }, 15_000);

  it('aep validate - over an endless stream of lines: bounded memory, issues printed as found; SIGTERM exits 143', async () => {
    const p = run(['validate', '-']);
    const junk = Buffer.from('not json\n'.repeat(4096));
    let writing = true;
    const pump = (): void => {
      while (writing && p.child.stdin.write(junk));
      if (writing) p.child.stdin.once('drain', pump);
    };
    p.child.stdin.on('error', () => {});
    pump();
    await sleep(2500);
    writing = false;
    expect(rssMb(p.child.pid!)).toBeLessThan(100);
    expect(p.out()).toMatch(/^line 1: \$ \[stream\.line\.json, AEP-0003 §3\.1\] line is not valid JSON/);
    p.child.kill('SIGTERM');
    // A busy machine may take a while to schedule the child after 2.5 s of pumping: the claim is the exit code, not a latency.
    const { code } = await within(p.exit, 3000);
    expect(code).toBe(143);
  }, 10_000);

  it('a verb waiting on stdin (validate -) stops on SIGINT with 130, without waiting for the input to end', async () => {
    const p = run(['validate', '-']);
    // Ready when it has answered a first line; its standard input then stays open, so only the
    // signal can end it (a verb that ignored SIGINT would never exit: the bound below is for a
    // busy machine, not a latency claim).
    p.child.stdin.write('not json\n');
    for (let i = 0; i < 200 && !p.out().includes('line 1:'); i++) await sleep(50);
    expect(p.out()).toMatch(/^line 1: /);
    p.child.kill('SIGINT');
    expect((await within(p.exit, 5000)).code).toBe(130);
  }, 20_000);

  it('a daemon (aep relay) still drains on SIGINT and exits 0', async () => {
    const p = run(['relay', '--port', '0']);
    for (let i = 0; i < 100 && !p.out().includes('listening'); i++) await sleep(50);
    expect(p.out()).toMatch(/^aep relay listening on /);
    p.child.kill('SIGINT');
    const { code } = await within(p.exit, 3000);
    expect(code).toBe(0);
    expect(p.err()).toMatch(/SIGINT: draining clients/);
  }, 10_000);

  it('AEP_HOME=/proc/1/nope: aep adapter refuses at once naming AEP_HOME (no 100% CPU spin)', async () => {
    const p = run(['adapter', 'claude-code', '--port', '0', '--relay', 'none'], { AEP_HOME: '/proc/1/nope' });
    const { code } = await within(p.exit, 3000);
    expect(code).toBe(2);
    expect(p.err()).toMatch(/^aep adapter: AEP_HOME \/proc\/1\/nope: cannot create it: /);
  });
});

describe.skipIf(!onLinux)(`bad paths are refused before any work starts${skipped(!onLinux, WHY.linux)}`, () => {
  it.each([
    [['conformance', '--report', '/proc/nope'], /^aep conformance: --report \/proc\/nope: cannot create it: /],
    [['conformance', '--json', '/proc/nope/report.json'], /^aep conformance: --json \/proc\/nope\/report\.json: the directory \/proc\/nope does not exist\n/],
    [['conformance', '--json', '/proc'], /^aep conformance: --json \/proc: it is a directory; name a file\n/],
    [['check-live', 'http://127.0.0.1:9', '--json', '/proc/nope/x.json'], /^aep check-live: --json \/proc\/nope\/x\.json: the directory \/proc\/nope does not exist\n/],
  ])('%j', async (args, message) => {
    const io = fakeIo();
    const started = Date.now();
    expect(await main(args, io)).toBe(2);
    expect(io.err).toMatch(message);
    expect(io.out).toBe(''); // nothing ran: no corpus line, no check header
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('AEP_HOME that cannot be created: aep adapter exits 2 before it listens', async () => {
    const io = fakeIo({ env: { AEP_HOME: '/proc/1/nope' } });
    expect(await main(['adapter', 'claude-code', '--port', '0', '--relay', 'none'], io)).toBe(2);
    expect(io.err).toMatch(/^aep adapter: AEP_HOME \/proc\/1\/nope: cannot create it: .+\nRun 'aep adapter --help' for usage\.\n$/);
  });
});

describe('flag errors in our words, for every verb', () => {
  const verbs = Object.keys(VERBS).filter((v) => v !== 'hook');

  it.each(verbs)('aep %s --bogus: "unknown flag", exit 2', async (verb) => {
    const io = fakeIo();
    expect(await main([verb, '--bogus'], io)).toBe(2);
    expect(io.err).toBe(`aep ${verb}: unknown flag --bogus\nRun 'aep ${verb} --help' for usage.\n`);
  });

  it.each(verbs)('aep %s: a near-miss flag gets "did you mean"', async (verb) => {
    const options = Object.keys((await VERBS[verb]!.load()).options);
    const target = options.find((o) => o.length >= 4) ?? 'help';
    const typo = `${target.slice(0, -1)}${target.endsWith('x') ? 'y' : 'x'}`;
    const io = fakeIo();
    expect(await main([verb, `--${typo}`], io)).toBe(2);
    expect(io.err).toMatch(new RegExp(`^aep ${verb}: unknown flag --${typo} \\(did you mean --${target}\\?\\)\\n`));
    expect(io.err).not.toMatch(/place it at the end|ambiguous|Unknown option/);
  });

  it.each([
    [['validate', '--jsn', 'x'], 'aep validate: unknown flag --jsn (did you mean --json?)'],
    [['conformance', '--json'], 'aep conformance: --json needs a value (--json VALUE)'],
    [['adapter', 'claude-code', '--relay', '--token', 't'], "aep adapter: --relay needs a value, but the next argument '--token' is a flag; write --relay=--token if you mean it"],
    [['conformance', '--live=yes'], 'aep conformance: --live takes no value (got --live=yes)'],
    [['relay', 'extra'], "aep relay: unexpected argument 'extra' (this verb takes no arguments)"],
    [['validate', '-x', 'f'], 'aep validate: unknown flag -x'],
    [['validate', '--__proto__', 'f'], 'aep validate: unknown flag --__proto__'],
    [['validate', '--constructor', 'f'], 'aep validate: unknown flag --constructor'],
  ])('%j', async (args, first) => {
    const io = fakeIo();
    expect(await main(args, io)).toBe(2);
    expect(io.err.split('\n')[0]).toBe(first);
  });

  it.each(['__proto__', 'constructor', 'hasOwnProperty', 'validte'])('unknown verb %s: exit 2, never an internal error', async (name) => {
    const io = fakeIo();
    expect(await main([name], io)).toBe(2);
    expect(io.err).toMatch(new RegExp(`^aep: unknown verb '${name}'`));
    if (name === 'validte') expect(io.err).toContain("(did you mean 'validate'?)");
  });

  it.each(['__proto__', 'constructor', 'hasOwnProperty'])('aep adapter %s: unknown adapter, exit 2', async (name) => {
    const io = fakeIo();
    expect(await main(['adapter', name], io)).toBe(2);
    expect(io.err).toMatch(new RegExp(`^aep adapter: unknown adapter '${name}'; known: `));
  });

  it.each(['__proto__', 'constructor'])('aep conformance --family %s: unknown family, exit 2', async (name) => {
    const io = fakeIo();
    expect(await main(['conformance', '--family', name], io)).toBe(2);
    expect(io.err).toMatch(new RegExp(`^aep conformance: unknown family '${name}'`));
  });
});

describe('bad values and busy ports', () => {
  it.each(['yes', 'true', 'on', '2'])('AEP_INSTRUCT=%s is a usage error', async (value) => {
    const io = fakeIo({ env: { AEP_INSTRUCT: value, AEP_HOME: '/tmp/aep-never-used' } });
    expect(await main(['adapter', 'claude-code', '--port', '0', '--relay', 'none'], io)).toBe(2);
    expect(io.err.split('\n')[0]).toBe(`aep adapter: AEP_INSTRUCT must be 1 (accept steering) or 0 (refuse it, the default), got '${value}'`);
  });

  it('aep demo-agent --help lists its exit codes', async () => {
    const io = fakeIo();
    expect(await main(['demo-agent', '--help'], io)).toBe(0);
    expect(io.out).toMatch(/exit codes: 0 stopped on SIGINT\/SIGTERM .*· 1 the relay\nrefused the credentials · 2 usage error\n$/s);
  });

  it('aep demo-agent diagnostics start with "aep demo-agent:"', () => {
    const source = readFileSync('impl/demo-agent/agent.ts', 'utf8');
    const messages = [...source.matchAll(/io\.stderr\(`([^`]*)`\)/g)].map((m) => m[1]!);
    expect(messages.length).toBeGreaterThan(0);
    for (const m of messages) expect(m.startsWith('aep demo-agent: ')).toBe(true);
  });

  it('a relay port already in use names the port and the flag', async () => {
    const busy = createServer();
    servers.push(busy);
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as AddressInfo).port;
    const io = fakeIo();
    expect(await main(['relay', '--port', String(port)], io)).toBe(1);
    expect(io.err).toBe(`aep relay: cannot listen on 127.0.0.1:${port}: port ${port} on 127.0.0.1 is already in use (another relay?); pick another with --port N (or AEP_PORT), 0 for a free one\n`);
  });
});
