import { describe, expect, it } from 'vitest';
import { entriesFor, excuse, KNOWN_FAILURES, staleEntries, type KnownFailure } from './known-failures.js';
import { selected, verdict } from './lane.js';
import { SCENARIOS } from './scenarios.js';

const entry: KnownFailure = { vendor: 'codex', scenarios: ['remote-deny'], match: /^event tool\.denied/, reason: 'the adapter emits no terminal tool event' };

describe('known failures', () => {
  it('excuses only the matching problems of the listed scenarios', () => {
    expect(entriesFor('codex', 'remote-deny', [entry])).toEqual([entry]);
    expect(entriesFor('codex', 'remote-allow', [entry])).toEqual([]);
    expect(entriesFor('claude-code', 'remote-deny', [entry])).toEqual([]);
    expect(excuse(['event tool.denied (expected #7)', 'the tool ran'], [entry])).toEqual({ excused: [{ problem: 'event tool.denied (expected #7)', entry }], open: ['the tool ran'] });
  });

  it('turns problems into pass, skip (all excused, with the reason) or fail (any open problem)', () => {
    expect(verdict('vendors/codex/remote-deny', [], [entry]).check).toEqual({ name: 'vendors/codex/remote-deny', status: 'pass' });
    const skipped = verdict('vendors/codex/remote-deny', ['event tool.denied (x)'], [entry]);
    expect(skipped.check.status).toBe('skip');
    expect(skipped.check.detail).toBe('known failure (runners/vendors/known-failures.ts): the adapter emits no terminal tool event; observed: event tool.denied (x)');
    expect([...skipped.used]).toEqual([entry]);
    const failed = verdict('vendors/codex/remote-deny', ['event tool.denied (x)', 'the tool ran'], [entry]);
    expect(failed.check).toEqual({ name: 'vendors/codex/remote-deny', status: 'fail', detail: 'the tool ran (also 1 known failure(s))' });
  });

  it('finds entries that applied but excused nothing (stale)', () => {
    const other: KnownFailure = { ...entry, scenarios: '*', reason: 'other' };
    expect(staleEntries([entry, other], new Set([entry]))).toEqual([other]);
    expect(staleEntries([entry], new Set([entry]))).toEqual([]);
  });

  it('lists only scenarios and vendors that exist, each with a reason', () => {
    const names = SCENARIOS.map((s) => s.name);
    for (const k of KNOWN_FAILURES) {
      expect(k.reason.length).toBeGreaterThan(40);
      if (k.scenarios !== '*') for (const s of k.scenarios) expect(names).toContain(s);
    }
  });
});

describe('--only selections', () => {
  it('take a whole vendor or one vendor/scenario; none takes everything', () => {
    expect(selected(undefined, 'cline', 'record-session')).toBe(true);
    expect(selected([], 'cline', 'record-session')).toBe(true);
    expect(selected(['cline'], 'cline', 'record-session')).toBe(true);
    expect(selected(['qwen-code/remote-deny'], 'qwen-code', 'remote-deny')).toBe(true);
    expect(selected(['qwen-code/remote-deny'], 'qwen-code', 'remote-allow')).toBe(false);
    expect(selected(['qwen-code/remote-deny', 'gemini-cli'], 'gemini-cli', 'observe-tool')).toBe(true);
    expect(selected(['gemini-cli'], 'cline', 'record-session')).toBe(false);
  });
});
