/**
 * `aep conformance --live --target`: our own claude-code daemon started as an external process
 * (by command, and already running at a URL) is certified on the wire; a deliberately broken
 * external daemon fails. Needs dist/ (npm test builds it first).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../../impl/cli/conformance.js';
import { fakeIo } from '../../impl/test-utils/cli-io.js';
import { packageRoot } from '../conformance/corpus.js';
import { parseTarget } from './external.js';

const ROOT = packageRoot();
const AEP = join(ROOT, 'bin', 'aep.js');
const OWN = `node ${AEP} adapter claude-code --port 0 --relay {relay} --token {token}`;
const SUBAGENT = "live/control-loop/claude-code/subagent: hooks inside a subagent (a held request included) are cause-linked to its delegation; an internal agent's stop emits nothing";

async function certify(values: Record<string, unknown>, env: Record<string, string> = {}) {
  const io = fakeIo({ cwd: ROOT, env });
  const progress: string[] = [];
  const code = await runConformance({ values: { live: true, json: '-', ...values }, positionals: [] }, io, { progress: (l) => progress.push(l) });
  return { code, report: JSON.parse(io.out) as { ok: boolean; target: string; checks: { name: string; status: string; detail?: string; basis?: string }[]; run: { target: string } }, progress };
}

async function freePort(): Promise<number> {
  const s = createServer();
  s.listen(0, '127.0.0.1');
  await once(s, 'listening');
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe('--target parsing', () => {
  it('takes a loopback URL or a command, and refuses anything else', () => {
    expect(parseTarget('claude-code=http://127.0.0.1:8377/')).toEqual({ agent: 'claude-code', url: 'http://127.0.0.1:8377' });
    expect(parseTarget('codex=./my-daemon --relay {relay}')).toEqual({ agent: 'codex', command: './my-daemon --relay {relay}' });
    expect(parseTarget('codex=http://10.0.0.1:1')).toBe('--target codex: only loopback daemons can be certified, got 10.0.0.1');
    expect(parseTarget('=x')).toMatch(/^--target must be <agent>=/);
  });
});

describe('aep conformance --live --target', () => {
  it('certifies our claude-code daemon started as an external process: every mapping entry and scenario, on the wire', async () => {
    // Judged as a target, our adapter meets no excuse of runners/judge/known-findings.ts: its one known finding fails strictly here.
    const excuses = join(mkdtempSync(join(tmpdir(), 'aep-target-')), 'expected.json');
    writeFileSync(excuses, JSON.stringify({ [SUBAGENT]: "known finding (runners/judge/known-findings.ts): a subagent's tool terminals carry the delegation as cause" }));
    const { code, report, progress } = await certify({ target: [`claude-code=${OWN}`], 'expected-failures': excuses });
    expect(report.checks.find((c) => c.name === SUBAGENT)).toMatchObject({ status: 'fail', basis: 'must' });
    expect(report.checks.filter((c) => c.status === 'fail' && c.name !== SUBAGENT)).toEqual([]);
    // A target is held to what its hello declares: our daemon's hello names no form loop (capabilities.experimental.forms)
    // and, without AEP_INSTRUCT, no steering; those scenarios are "not declared", never failures.
    for (const c of report.checks.filter((x) => x.status === 'skip')) expect(c.detail).toMatch(/^not declared: /);
    expect(code).toBe(0);
    expect(report.target).toBe(`claude-code=${OWN}`);
    expect(report.checks.every((c) => c.name.startsWith('live/mappings/claude-code/') || c.name.startsWith('live/control-loop/claude-code/'))).toBe(true);
    expect(report.checks.filter((c) => c.name.startsWith('live/mappings/')).length).toBeGreaterThanOrEqual(40);
    expect(report.checks.filter((c) => c.name.startsWith('live/control-loop/')).length).toBeGreaterThanOrEqual(30);
    expect(progress.some((l) => l.startsWith(`live/control-loop: starting the claude-code daemon (external: ${OWN}) [`))).toBe(true);
    expect(progress.some((l) => /^live\/control-loop: \d+\/\d+ scenarios done \[\d+\.\d s\]\n$/.test(l))).toBe(true);
  }, 240_000);

  it('certifies a daemon already running at a URL, linked to the relay the run starts on AEP_TARGET_RELAY_PORT', async () => {
    const port = await freePort();
    const token = 'target-test-token';
    const child = spawn(process.execPath, [AEP, 'adapter', 'claude-code', '--port', '0', '--relay', `http://127.0.0.1:${port}`, '--token', token], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      const url = await new Promise<string>((resolve) => {
        const on = (c: Buffer) => {
          out += String(c);
          const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
          if (m) resolve(m[0]);
        };
        child.stdout!.on('data', on);
        child.stderr!.on('data', on);
      });
      const { code, report } = await certify({ target: [`claude-code=${url}`], case: ['live/mappings/claude-code/SessionStart', 'live/control-loop/claude-code/permission: allow'] }, { AEP_TARGET_RELAY_PORT: String(port), AEP_TOKEN: token });
      expect(report.checks.map((c) => [c.name, c.status])).toEqual([
        ['live/mappings/claude-code/SessionStart', 'pass'],
        ['live/control-loop/claude-code/permission: allow', 'pass'],
      ]);
      expect(code).toBe(0);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }, 120_000);

  it('fails a deliberately broken external daemon, on the wire', async () => {
    const broken = `node ${join(ROOT, 'runners', 'live', 'test-utils', 'broken-daemon.mjs')}`;
    const { code, report } = await certify({ target: [`claude-code=${broken}`], case: ['live/mappings/claude-code/SessionStart', 'live/control-loop/claude-code/permission: allow'] });
    expect(code).toBe(1);
    expect(report.ok).toBe(false);
    expect(report.checks.map((c) => [c.name, c.status])).toEqual([
      ['live/mappings/claude-code/SessionStart', 'fail'],
      ['live/control-loop/claude-code/permission: allow', 'fail'],
    ]);
    for (const c of report.checks) expect(c.detail).toBeTruthy();
  }, 120_000);
});
