import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureNames, normalizePayload, writeCapture } from './fixtures.js';
import type { HookRecord } from './recorder.js';

const pin = { vendor: 'codex' as const, package: '@openai/codex', version: '0.1.0', bin: 'codex' };
const rec = (event: string, payload: string): HookRecord => ({ event, via: 'command', at: 'x', payload, reply: '{}', code: 0 });
let dir: string | undefined;
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

describe('fixtures', () => {
  it('rewrites the run root, as a path and as a dash-encoded project folder name', () => {
    const root = '/tmp/aep-vendor-Ab12';
    expect(normalizePayload('{"cwd":"/tmp/aep-vendor-Ab12/work","t":"/tmp/aep-vendor-Ab12/home/.claude/projects/-tmp-aep-vendor-Ab12-work/s.jsonl"}', root)).toBe(
      '{"cwd":"/aep-run/work","t":"/aep-run/home/.claude/projects/-aep-run-work/s.jsonl"}',
    );
  });

  it('numbers files in firing order and keeps names file-safe', () => {
    expect(fixtureNames([rec('SessionStart', ''), rec('Odd/Name', '')])).toEqual(['01-SessionStart.json', '02-Odd_Name.json']);
  });

  it('writes the exact (normalized) bytes and a dated manifest, replacing an earlier capture of the scenario', () => {
    dir = mkdtempSync(join(tmpdir(), 'aep-fixtures-'));
    writeCapture(dir, pin, 'remote-allow', 'TUI', [rec('SessionStart', '{"a":1}'), rec('Stop', '{"cwd":"/r/x"}')], '/r', new Date('2026-03-04T05:06:07Z'));
    writeCapture(dir, pin, 'remote-allow', 'TUI', [rec('Stop', '{"cwd":"/r/y"}')], '/r', new Date('2026-03-05T00:00:00Z'));
    const release = join(dir, 'codex-0.1.0');
    expect(readdirSync(join(release, 'remote-allow'))).toEqual(['01-Stop.json']);
    expect(readFileSync(join(release, 'remote-allow', '01-Stop.json'), 'utf8')).toBe('{"cwd":"/aep-run/y"}');
    const manifest = JSON.parse(readFileSync(join(release, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ vendor: 'codex', package: '@openai/codex', version: '0.1.0', captured: '2026-03-05', scenarios: { 'remote-allow': { mode: 'TUI', captured: '2026-03-05', files: ['01-Stop.json'] } } });
  });
});
