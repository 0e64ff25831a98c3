import { describe, expect, it } from 'vitest';
import type { Benchmark } from './harness.js';
import { main } from './main.js';

function sink() {
  let text = '';
  return { write: (s: string) => (text += s), text: () => text };
}

const fake = (name: string, fail = false): Benchmark => ({
  name,
  unit: 'units',
  what: `the ${name} fake`,
  budgetMs: 1,
  prepare: async () => {
    if (fail) throw new Error('inputs did not validate');
    return { ours: { run: () => 1 }, baseline: { run: () => 1 } };
  },
});

describe('main', () => {
  it('runs the selected benchmarks and prints the table', async () => {
    const out = sink();
    const err = sink();
    expect(await main(['--rounds', '1', '--only', 'b'], [fake('a'), fake('b')], out, err)).toBe(0);
    expect(out.text()).toMatch(/^name +unit +ours +baseline/);
    expect(out.text()).toMatch(/\nb +units\/s /);
    expect(out.text()).not.toMatch(/\na +units\/s /);
    expect(err.text()).toContain('b: the b fake\n  round 1/1 (ours first): ');
  });

  it('keeps going past a failed benchmark, names it, and exits 1', async () => {
    const out = sink();
    const err = sink();
    expect(await main(['--rounds', '1', '--json'], [fake('broken', true), fake('ok')], out, err)).toBe(1);
    expect(err.text()).toContain('bench broken failed: inputs did not validate\n');
    expect(JSON.parse(out.text()).results.map((r: { name: string }) => r.name)).toEqual(['ok']);
  });

  it('exits 2 with the usage on a bad argument, and 0 on --help', async () => {
    const out = sink();
    const err = sink();
    expect(await main(['--rounds', 'many'], [fake('a')], out, err)).toBe(2);
    expect(err.text()).toMatch(/^bench: --rounds needs an integer from 1 to 99, got "many"\n\nusage: /);
    expect(await main(['--help'], [fake('a')], out, err)).toBe(0);
    expect(out.text()).toMatch(/^usage: npm run bench/);
  });

  it('reads the load around each row and puts it in the JSON', async () => {
    const out = sink();
    const err = sink();
    const readings = [0.2, 0.3, 4.5, 4.6];
    const probe = { load: () => readings.shift() ?? 9, cores: () => 2 };
    expect(await main(['--rounds', '1', '--json'], [fake('a')], out, err, probe)).toBe(0);
    const doc = JSON.parse(out.text());
    expect(doc.machine).toEqual({ cores: 2, loadAtStart: 0.2, loadAtEnd: 4.6 });
    expect(doc.results[0].load).toEqual({ start: 0.3, end: 4.5, cores: 2, noisy: true });
    expect(err.text()).toContain('load average 0.3 at start, 4.5 at end, 2 cores: NOISY');
  });
});
