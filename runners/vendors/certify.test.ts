/**
 * `aep certify` without a vendor: the lane and the registry are injected, the pinned captures are
 * a folder of our own. The page says what passed and what changed, the verdict follows the used
 * surface, and an integration the lane does not drive gets its manual steps.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { referenceImplementation } from '../conformance/implementation.js';
import { certifyRelease, laneVendor, manualSteps, parseRelease } from './certify.js';
import type { runLane } from './lane.js';
import { loadPins } from './versions.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'aep-certify-'));
  dirs.push(d);
  return d;
};
const pinned = loadPins().find((p) => p.vendor === 'claude-code')!;

/** A pinned capture set: one scenario, SessionStart and PreToolUse (with permission_mode). */
function fixtures(): string {
  const root = temp();
  const dir = join(root, `claude-code-${pinned.version}`, 'allow');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, '01-SessionStart.json'), JSON.stringify({ session_id: 's', source: 'startup' }));
  writeFileSync(join(dir, '02-PreToolUse.json'), JSON.stringify({ session_id: 's', tool_name: 'Bash', permission_mode: 'default' }));
  writeFileSync(join(dir, '..', 'manifest.json'), JSON.stringify({ vendor: 'claude-code', package: pinned.package, version: pinned.version, captured: '2026-01-01', scenarios: { allow: { mode: 'print', captured: '2026-01-01', files: ['01-SessionStart.json', '02-PreToolUse.json'] } } }));
  return root;
}

function lane(status: 'pass' | 'fail', hooks: { hook: string; payload: unknown }[]): typeof runLane {
  return async (opts) => {
    opts.onHooks?.('claude-code', 'allow', hooks.map((h) => ({ event: h.hook, via: 'http', at: '2026-01-01T00:00:00Z', payload: JSON.stringify(h.payload), reply: '{}' })));
    expect(opts.pins).toEqual([{ ...pinned, version: '9.9.9' }]);
    return [{ name: 'vendors/claude-code/allow', status, ...(status === 'fail' ? { detail: 'no ack' } : {}) }];
  };
}

const base = { integration: 'claude-code', version: 'latest', implementation: referenceImplementation, log: () => {}, latest: async () => '9.9.9', now: () => new Date('2026-12-05T00:00:00Z') };

describe('aep certify (injected lane and registry)', () => {
  it('the same surface and passing scenarios certify; the page names the release, the scenarios and "no change"', async () => {
    const reportsDir = temp();
    const same = [{ hook: 'SessionStart', payload: { session_id: 's', source: 'startup' } }, { hook: 'PreToolUse', payload: { session_id: 's', tool_name: 'Bash', permission_mode: 'default' } }];
    const r = await certifyRelease({ ...base, reportsDir, fixturesDir: fixtures(), lane: lane('pass', same) });
    expect(r.code).toBe(0);
    const md = readFileSync(join(reportsDir, 'claude-code@9.9.9.md'), 'utf8');
    expect(md).toContain(`# Certification: claude-code against ${pinned.package}@9.9.9`);
    expect(md).toContain(`**certified**: 1/1 scenarios pass; no surface the adapter uses changed (against the pinned ${pinned.version}).`);
    expect(md).toContain('No change: the same hooks fired');
    expect(readFileSync(join(reportsDir, 'claude-code@9.9.9.html'), 'utf8')).toContain('<pre># Certification: claude-code against');
  });

  it('a dropped member fails the verdict; an added hook alone does not; a failed scenario fails it', async () => {
    const dropped = [{ hook: 'SessionStart', payload: { session_id: 's', source: 'startup' } }, { hook: 'PreToolUse', payload: { session_id: 's', tool_name: 'Bash' } }, { hook: 'PostToolBatch', payload: { session_id: 's' } }];
    const reportsDir = temp();
    const r = await certifyRelease({ ...base, reportsDir, fixturesDir: fixtures(), lane: lane('pass', dropped) });
    expect(r.code).toBe(1);
    const md = readFileSync(join(reportsDir, 'claude-code@9.9.9.md'), 'utf8');
    expect(md).toContain('- `+ hook PostToolBatch`');
    expect(md).toContain('- `- PreToolUse.permission_mode (string)`');
    expect(md).toMatch(/## Changes to the surface the adapter uses\n\n- `- PreToolUse\.permission_mode \(string\)`\n/);
    const added = [...dropped.slice(0, 1), { hook: 'PreToolUse', payload: { session_id: 's', tool_name: 'Bash', permission_mode: 'default' } }, dropped[2]!];
    expect((await certifyRelease({ ...base, reportsDir: temp(), fixturesDir: fixtures(), lane: lane('pass', added) })).code).toBe(0);
    expect((await certifyRelease({ ...base, reportsDir: temp(), fixturesDir: fixtures(), lane: lane('fail', added) })).code).toBe(1);
  });

  it('names the manual steps for an integration the lane does not drive, and parses releases', async () => {
    expect(laneVendor('gemini-cli')).toBe('gemini-cli');
    expect(laneVendor('hermes')).toBeUndefined();
    const r = await certifyRelease({ ...base, integration: 'hermes' });
    expect(r.code).toBe(1);
    expect(r.lines).toEqual(manualSteps('hermes'));
    expect(r.lines[0]).toMatch(/does not drive hermes: it drives claude-code, codex, gemini-cli, /);
    expect(parseRelease('claude-code@latest')).toEqual({ integration: 'claude-code', version: 'latest' });
    expect(parseRelease('claude-code@2.1.210')).toEqual({ integration: 'claude-code', version: '2.1.210' });
    expect(parseRelease('claude-code')).toEqual({ integration: 'claude-code' });
    expect(parseRelease('claude-code@^2')).toMatch(/is not <integration>\[@<version>\|@latest\]/);
  });
});
