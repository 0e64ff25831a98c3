import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { skipped, WHY } from '../impl/test-utils/skip.js';
import { cpuBetween, descendants, labelOf, parsePidStat, parseProcStat, perUnit, procAvailable, sampleCpu, USER_HZ, type CpuSnapshot, type CpuWindow } from './proc-cpu.js';

describe('parseProcStat', () => {
  it('sums the first cpu line, busy without idle and iowait, guest not counted twice', () => {
    const text = 'cpu  100 5 50 1000 20 3 7 2 9 1\ncpu0 50 2 25 500 10 1 3 1 4 0\nintr 12345\n';
    // total = 100+5+50+1000+20+3+7+2; busy = total - 1000 - 20
    expect(parseProcStat(text)).toEqual({ totalTicks: 1187, busyTicks: 167 });
  });

  it('takes a shorter line from an older kernel as far as it goes', () => {
    expect(parseProcStat('cpu 10 0 10 80 5\n')).toEqual({ totalTicks: 105, busyTicks: 20 });
  });

  it('refuses what it cannot read, naming what is missing', () => {
    expect(() => parseProcStat('intr 1\nctxt 2\n')).toThrow(/no 'cpu ' line/);
    expect(() => parseProcStat('cpu0 1 2 3 4 5\n')).toThrow(/no 'cpu ' line/);
    expect(() => parseProcStat('cpu 1 2 3 4\n')).toThrow(/has 4 fields; it needs at least 5/);
    expect(() => parseProcStat('cpu 1 2 x 4 5\n')).toThrow(/system field is not a whole number of ticks: "x"/);
  });
});

describe('parsePidStat', () => {
  it('reads ppid and utime + stime', () => {
    const text = '11755 (cat) R 11746 11746 11063 0 -1 4194304 98 0 0 0 7 3 0 0 20 0 1 0 7158208 3133440 391\n';
    expect(parsePidStat(text)).toEqual({ ppid: 11746, cpuTicks: 10, comm: 'cat' });
  });

  it('counts the fields from after the last ")", whatever the command name holds', () => {
    const text = '42 (my (odd) name) x) S 7 42 42 0 -1 0 0 0 0 0 120 30 0 0 20 0 1 0 1 1 1';
    expect(parsePidStat(text)).toEqual({ ppid: 7, cpuTicks: 150, comm: 'my (odd) name) x' });
  });

  it('refuses what it cannot read, naming what is missing', () => {
    expect(() => parsePidStat('')).toThrow(/no command name in parentheses/);
    expect(() => parsePidStat('42 cat R 7')).toThrow(/no command name in parentheses/);
    expect(() => parsePidStat('42 (cat) R 7 1 1 0 -1 0 0 0 0 0 5')).toThrow(/field 15 \(stime\) is missing/);
    expect(() => parsePidStat('42 (cat) R x')).toThrow(/field 4 \(ppid\) is not a whole number/);
    expect(() => parsePidStat('42 (cat) R 7 1 1 0 -1 0 0 0 0 0 -5 1')).toThrow(/field 14 \(utime\) is not a whole number/);
  });
});

describe('labelOf', () => {
  it('names a program by its basename and a node process by its script', () => {
    expect(labelOf('/usr/sbin/nats-server\0-js\0-p\x004222\0')).toBe('nats-server');
    expect(labelOf('/usr/bin/node\0/w/dist/bench/relay-child.js\0')).toBe('relay-child.js');
    expect(labelOf(`${process.execPath}\0--expose-gc\0--import\0/x/hook.js\0/w/dist/bench/fanout-load.js\0`)).toBe('fanout-load.js');
    expect(labelOf('node\0-e\0setTimeout(()=>{}, 5000)\0')).toBe('node -e');
    expect(labelOf('', 'kworker/0:1')).toBe('kworker/0:1');
  });
});

const snap = (busyTicks: number, processes: [number, string, number][]): CpuSnapshot => ({
  busyTicks,
  totalTicks: busyTicks * 2,
  processes: new Map(processes.map(([pid, label, ticks]) => [pid, { label, ticks }])),
});

describe('cpuBetween', () => {
  it('turns ticks into ms, keeps only positive deltas, largest first, and leaves out a process that vanished', () => {
    const a = snap(1000, [[10, 'nats-server', 50], [11, 'relay-child.js', 200], [12, 'relay-child.js', 7], [13, 'fanout-load.js', 30]]);
    const b = snap(1250, [[10, 'nats-server', 60], [11, 'relay-child.js', 230], [12, 'relay-child.js', 7], [14, 'node -e', 2]]);
    const tick = 1000 / USER_HZ;
    expect(cpuBetween(a, b)).toEqual({
      machineMs: 250 * tick,
      processes: [
        { pid: 11, label: 'relay-child.js', ms: 30 * tick },
        { pid: 10, label: 'nats-server', ms: 10 * tick },
        { pid: 14, label: 'node -e', ms: 2 * tick },
      ],
    });
  });

  it('counts a reused pid (another program) from zero', () => {
    const d = cpuBetween(snap(0, [[10, 'old', 500]]), snap(0, [[10, 'new', 3]]));
    expect(d.processes).toEqual([{ pid: 10, label: 'new', ms: 30 }]);
  });
});

describe('perUnit', () => {
  const w = (wallMs: number, count: number, machineMs: number, processes: [number, string, number][]): CpuWindow => ({
    wallMs,
    count,
    cpu: { machineMs, processes: processes.map(([pid, label, ms]) => ({ pid, label, ms })) },
  });

  it('takes medians per unit, and each process the mean over every window', () => {
    const s = perUnit([w(100, 1000, 200, [[1, 'a', 100]]), w(300, 1000, 600, [[1, 'a', 300], [2, 'b', 40]]), w(200, 1000, 400, [[1, 'a', 200]])], 10);
    expect(s.wallMs).toBe(20);
    expect(s.cpuMs).toBe(40);
    expect(s.processesMs).toBe(20);
    expect(s.perSecond).toBe(5000);
    expect(s.processes).toEqual([{ pid: 1, label: 'a', ms: 20 }, { pid: 2, label: 'b', ms: 40 / 30 }]);
  });

  it('refuses no windows', () => {
    expect(() => perUnit([], 10)).toThrow(/no windows/);
  });
});

const proc = procAvailable();
const readable = (() => {
  try {
    readFileSync('/proc/stat', 'utf8');
    return true;
  } catch {
    return false;
  }
})();

describe('procAvailable', () => {
  it('agrees with whether /proc/stat can be read', () => {
    expect(proc).toBe(readable);
  });
});

describe.skipIf(!proc)(`the /proc readings${skipped(!proc, WHY.linux)}`, () => {
  it('finds a child it did not know of, labels it, and sees it gone once killed', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 5000)'], { stdio: 'ignore' });
    try {
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', reject);
      });
      expect(descendants(process.pid)).toContainEqual({ pid: child.pid, label: 'node -e' });
      expect(descendants(child.pid!)).toEqual([]);
    } finally {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await gone;
    }
    expect(descendants(process.pid).map((d) => d.pid)).not.toContain(child.pid);
  });

  it('samples the machine and a busy child, and the window between shows their CPU', async () => {
    const child = spawn(process.execPath, ['-e', 'const end = Date.now() + 400; while (Date.now() < end);'], { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await new Promise<void>((resolve) => child.once('spawn', resolve));
    const a = sampleCpu(process.pid, true);
    expect(a.totalTicks).toBeGreaterThan(a.busyTicks);
    expect(a.processes.get(child.pid!)?.label).toBe('node -e');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const d = cpuBetween(a, sampleCpu(process.pid));
    await exited;
    expect(d.machineMs).toBeGreaterThan(0);
    expect(d.processes.find((p) => p.pid === child.pid)?.ms).toBeGreaterThan(0);
  });
});
