import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { natsServerBinary } from '../impl/relay/fleet/local-nats.js';
import { skipped, WHY } from '../impl/test-utils/skip.js';
import { fleetCpuCeiling, jetstreamCeiling, parseCeilingsArgs, threadCeiling } from './ceilings.js';
import { procAvailable } from './proc-cpu.js';
import { parseLines } from './ceilings-worker.js';

const built = existsSync(new URL('../dist/bench/ceilings-worker.js', import.meta.url));

describe('parseLines', () => {
  it('parses every non-empty line and counts them', () => {
    expect(parseLines('{"a":1}\n\n[2]\n"x"')).toBe(3);
    expect(parseLines('')).toBe(0);
  });

  it('throws on a line that is not JSON (the measure cannot pass over broken input)', () => {
    expect(() => parseLines('{"a":1}\n{nope}\n')).toThrow(SyntaxError);
  });
});

describe('parseCeilingsArgs', () => {
  it('takes the defaults and the flags', () => {
    expect(parseCeilingsArgs([])).toMatchObject({ rounds: 7, json: undefined });
    expect(parseCeilingsArgs(['--rounds', '3', '--threads', '4', '--json', 'out.json'])).toEqual({ rounds: 3, threads: 4, json: 'out.json' });
  });

  it('refuses what it cannot take, saying what', () => {
    expect(parseCeilingsArgs(['--rounds', '0'])).toMatch(/--rounds needs a whole number of at least 1, got "0"/);
    expect(parseCeilingsArgs(['--threads', '1.5'])).toMatch(/--threads needs a whole number/);
    expect(parseCeilingsArgs(['--fast'])).toMatch(/--fast/);
    expect(parseCeilingsArgs(['stray'])).toMatch(/stray/);
    expect(parseCeilingsArgs(['--json'])).toMatch(/--json/);
    expect(parseCeilingsArgs(['--json', '--rounds'])).toMatch(/'--json' argument is ambiguous/);
    expect(parseCeilingsArgs(['--json='])).toMatch(/--json needs a FILE, got ""/);
  });
});

describe.skipIf(!built)(`threadCeiling${skipped(!built, WHY.build)}`, () => {
  it('splits the lines over the workers, every line parsed once, and reports both timings', async () => {
    const c = await threadCeiling(2, 1, 300);
    expect(c).toMatchObject({ threads: 2, lines: 300 });
    expect(c.mainMs).toBeGreaterThan(0);
    expect(c.workersMs).toBeGreaterThan(0);
    expect(c.speedup).toBeCloseTo(c.mainMs / c.workersMs, 10);
  });

  it('uses one worker when asked for one', async () => {
    expect((await threadCeiling(1, 1, 50)).threads).toBe(1);
  });
});

const nats = natsServerBinary() !== undefined;
describe.skipIf(!nats)(`jetstreamCeiling${skipped(!nats, 'nats-server is not installed (ci.sh installs it)')}`, () => {
  it('times a batch three ways, each accepted', async () => {
    const c = await jetstreamCeiling(1, 2);
    if (typeof c === 'string') throw new Error(c);
    expect(c.events).toBe(100);
    for (const ms of [c.jetstreamMs, c.relayMs, c.fleetNodeMs]) {
      expect(Number.isFinite(ms)).toBe(true);
      expect(ms).toBeGreaterThan(0);
    }
  }, 60_000);
});

const proc = procAvailable();
describe.skipIf(!nats || !built || !proc)(`fleetCpuCeiling${skipped(!nats, 'nats-server is not installed (ci.sh installs it)')}${skipped(nats && !built, WHY.build)}${skipped(nats && built && !proc, WHY.linux)}`, () => {
  it("measures both sides of fleet-fanout, the fleet's processes named, and the bound from them", async () => {
    const c = await fleetCpuCeiling(1, 1);
    if (typeof c === 'string') throw new Error(c);
    for (const side of [c.one, c.fleet]) {
      for (const n of [side.wallMs, side.cpuMs, side.processesMs, side.perSecond]) {
        expect(Number.isFinite(n)).toBe(true);
        expect(n).toBeGreaterThan(0);
      }
    }
    expect(c.cores).toBeGreaterThanOrEqual(1);
    expect(Number.isFinite(c.bound)).toBe(true);
    expect(c.bound).toBe(c.one.wallMs / (c.fleet.cpuMs / c.cores));
    const labels = c.fleet.processes.map((p) => p.label);
    expect(labels).toContain('nats-server');
    expect(labels).toContain('relay-child.js');
    for (const p of c.fleet.processes) expect(p.ms).toBeGreaterThan(0);
  }, 120_000);
});

describe.skipIf(!built)(`the command${skipped(!built, WHY.build)}`, () => {
  const run = (...args: string[]) => spawnSync(process.execPath, [new URL('../dist/bench/ceilings.js', import.meta.url).pathname, ...args], { encoding: 'utf8' });

  it('refuses a bad flag with exit code 2, the reason and the usage', () => {
    for (const args of [['--rounds', '0'], ['--threads', 'x'], ['--fast'], ['--json'], ['stray']]) {
      const r = run(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^ceilings: .+\nusage: node dist\/bench\/ceilings\.js/);
      expect(r.stdout).toBe('');
    }
  });
});
