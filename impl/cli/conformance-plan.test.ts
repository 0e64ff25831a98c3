/** `aep conformance` decided before it is done: selection, outputs and targets as data or an Issue. */
import { describe, expect, it } from 'vitest';
import { baselineScope, caseMatches, familyOfCase, isIssue, planOutputs, planSelection, planTargets, relayPortIssue, targetText } from './conformance-plan.js';

const NAMES = ['golden', 'mappings', 'control-loop'];

describe('planSelection', () => {
  it('joins --family, commas and positionals; --case names its families and selects once', () => {
    const s = planSelection({ family: ['golden, mappings'] }, ['control-loop'], NAMES);
    expect(isIssue(s)).toBe(false);
    expect(s).toMatchObject({ wanted: ['golden', 'mappings', 'control-loop'], cases: [], wantsLive: false, byName: false });
    expect('selects' in s).toBe(false);
    const c = planSelection({ case: [' live/mappings/x ', 'golden/'] }, [], NAMES);
    if (isIssue(c)) throw new Error(c.message);
    expect(c.wanted).toEqual(['mappings', 'golden']);
    expect(c.wantsLive).toBe(true);
    expect(c.selects?.('live/mappings/x/y')).toBe(true);
    expect(c.selects?.('golden/line 1')).toBe(true);
    expect(c.selects?.('mappings/x')).toBe(false);
  });

  it('returns an Issue for a --case of no family and a malformed --require-revision', () => {
    const bad = planSelection({ case: ['nope/x'] }, [], NAMES);
    expect(isIssue(bad) && bad.message).toMatch(/^no check matches --case 'nope\/x': a case name starts with its family \(golden, mappings, control-loop\)/);
    const rev = planSelection({ 'require-revision': 'sha256:12' }, [], NAMES);
    expect(isIssue(rev) && rev.rule).toBe('cli.conformance.require-revision');
  });

  it('a --target run selects by name, except for --list', () => {
    expect(planSelection({ target: ['x=http://127.0.0.1:1'] }, [], NAMES)).toMatchObject({ byName: true });
    expect(planSelection({ target: ['x=http://127.0.0.1:1'], list: true }, [], NAMES)).toMatchObject({ byName: false });
  });

  it('case helpers', () => {
    expect(caseMatches('a/b/c', 'a/b')).toBe(true);
    expect(caseMatches('a/bc', 'a/b')).toBe(false);
    expect(familyOfCase('live/control-loop/x')).toBe('control-loop');
    expect(familyOfCase('golden/line 1')).toBe('golden');
  });
});

describe('planOutputs', () => {
  it('resolves every path against the working directory and lists the files to check', () => {
    const o = planOutputs({ json: 'r/run.json', report: 'r', junit: 'j.xml', 'write-expected-failures': '.aep/e.json', 'expected-failures': 'old.json' }, '/w');
    expect(o).toEqual({
      json: '/w/r/run.json',
      report: '/w/r',
      junit: '/w/j.xml',
      writeBaseline: '/w/.aep/e.json',
      readBaseline: '/w/old.json',
      files: [['--json', '/w/r/run.json'], ['--junit', '/w/j.xml'], ['--write-expected-failures', '/w/.aep/e.json']],
    });
    expect(planOutputs({ json: '-' }, '/w')).toEqual({ json: '-', files: [] });
  });
});

describe('planTargets', () => {
  it('parses targets, the profile and the deviations path', () => {
    const t = planTargets({ target: ['codex=http://127.0.0.1:9'], deviations: 'd.json', 'reference-parity': true }, true, '/w', { AEP_TARGET_RELAY_PORT: '4000' });
    if (isIssue(t)) throw new Error(t.message);
    expect(t).toMatchObject({ profile: 'reference-parity', deviationsFile: '/w/d.json', relayPort: 4000 });
    expect(targetText(t.targets)).toBe('codex=http://127.0.0.1:9');
    expect(relayPortIssue(t, {})).toBeNull();
    expect(targetText([])).toBeNull();
  });

  it('refuses a target without --live, parity without a target, a bad relay port', () => {
    expect(planTargets({ target: ['codex=http://127.0.0.1:9'] }, false, '/w', {})).toMatchObject({ message: '--target certifies a daemon through the live families: add --live' });
    expect(planTargets({ 'reference-parity': true }, true, '/w', {})).toMatchObject({ message: expect.stringMatching(/^--reference-parity judges a --target daemon/) });
    expect(planTargets({ target: ['=x'] }, true, '/w', {})).toMatchObject({ rule: 'cli.conformance.target' });
    const t = planTargets({ target: ['codex=http://127.0.0.1:9'] }, true, '/w', { AEP_TARGET_RELAY_PORT: 'x' });
    if (isIssue(t)) throw new Error(t.message);
    expect(relayPortIssue(t, { AEP_TARGET_RELAY_PORT: 'x' })?.message).toBe("AEP_TARGET_RELAY_PORT must be a port number, got 'x'");
  });
});

describe('baselineScope', () => {
  it('knows every family, its live name and vendors; carries the selection', () => {
    const sel = planSelection({ case: ['golden/'] }, [], NAMES);
    if (isIssue(sel)) throw new Error(sel.message);
    const scope = baselineScope(NAMES, ['golden', 'vendors'], sel);
    expect(scope.ran).toEqual(['golden', 'vendors']);
    expect(scope.known).toEqual(['golden', 'mappings', 'control-loop', 'live/golden', 'live/mappings', 'live/control-loop', 'vendors']);
    expect(scope.selects?.('golden/x')).toBe(true);
  });
});
