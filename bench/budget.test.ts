import { describe, expect, it } from 'vitest';
import { STAGES } from './budget-stages.js';
import { budgetMain, renderBudget } from './budget.js';

describe('budget stages', () => {
  it.each(STAGES.map((s) => [s.name, s] as const))('%s runs its sets and checks what it produced', async (_name, stage) => {
    const prepared = await stage.prepare(20, 2);
    try {
      await prepared.run(0);
      await prepared.run(1);
    } finally {
      await prepared.close?.();
    }
  }, 30_000);

  it('names every stage of the issue\'s budget, and the limits beside them', () => {
    const names = STAGES.map((s) => s.name);
    for (const n of ['read', 'read-lines', 'split', 'scan', 'validate', 'parse-lines', 'admit', 'render', 'write', 'validateStream', 'JSON.parse', 'bare write']) expect(names).toContain(n);
  });
});

describe('renderBudget', () => {
  it('prints one row per stage with its measures, a dash where a mode did not measure', () => {
    const text = renderBudget([{ stage: 'scan', group: 'ingest', us: 1.554, gc: 0.19 }, { stage: 'JSON.parse', group: 'limit', instructions: 14_512.4 }]);
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^stage\s+group\s+µs\/event\s+GC share\s+instructions\/event/);
    expect(lines[1]).toMatch(/^scan\s+ingest\s+1\.55\s+19%\s+-/);
    expect(lines[2]).toMatch(/^JSON\.parse\s+limit\s+-\s+-\s+14512/);
  });

  it('refuses an unknown stage with exit code 2', async () => {
    const write = process.stderr.write;
    let said = '';
    process.stderr.write = ((t: string) => ((said += t), true)) as typeof process.stderr.write;
    try {
      expect(await budgetMain(['--only', 'nope'])).toBe(2);
    } finally {
      process.stderr.write = write;
    }
    expect(said).toContain('no stage named "nope"');
  });
});
