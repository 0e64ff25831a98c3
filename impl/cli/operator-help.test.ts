import { describe, expect, it } from 'vitest';
import { VERBS } from './verbs.js';
import { aep } from '../operator/test-utils/stack.js';

const OPERATOR = ['tail', 'sink', 'timeline', 'respond', 'cancel', 'doctor', 'replay', 'setup', 'mcp', 'demo'];

describe('the operator verbs are listed and documented', () => {
  it('aep --help lists every one', async () => {
    const r = await aep(['--help']);
    for (const v of OPERATOR) expect(r.out).toMatch(new RegExp(`^  ${v} +\\S`, 'm'));
    expect(Object.keys(VERBS)).toEqual(expect.arrayContaining(OPERATOR));
  });
  it.each(OPERATOR)('aep %s --help: usage, --json, exit codes', async (v) => {
    const r = await aep([v, '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`^usage: aep ${v}`));
    expect(r.out).toContain('--json');
    expect(r.out).toMatch(/exit codes: \d/);
  });
  it('an unknown flag is a usage error (exit 2) for each', async () => {
    for (const v of OPERATOR) expect((await aep([v, '--no-such-flag'])).code, v).toBe(2);
  });
});

describe('aep help VERB', () => {
  it("prints that verb's help, for every verb, exactly as VERB --help does", async () => {
    const { VERBS } = await import('./verbs.js');
    for (const v of Object.keys(VERBS).filter((n) => n !== 'hook')) {
      const viaHelp = await aep(['help', v]);
      const viaFlag = await aep([v, '--help']);
      expect(viaHelp.code, v).toBe(0);
      expect(viaHelp.out, v).toBe(viaFlag.out);
      expect(viaHelp.out, v).toMatch(new RegExp(`^usage: aep ${v}`));
    }
    expect((await aep(['help', 'nosuch'])).code).toBe(2);
  });
});
