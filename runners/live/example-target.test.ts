/**
 * The worked example of docs/certification.md, kept true: examples/claude-code-python/adapter.py,
 * a Claude Code adapter written as a third party would (Python, standard library only, the
 * standard's pins, its own reply formatting, prompt wording and run ids, no steering, no forms),
 * certified with `aep conformance --live --target`. It passes every `must` and `pin` check; each
 * broken variant (EXAMPLE_BREAK) fails the MUST it breaks; a declared deviation excuses a pin
 * failure and an undeclared one fails; its certification page shows its command and observed
 * hello, and nothing of our adapter. Needs python3 (skipped, saying so, without it).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../impl/cli/conformance.js';
import { fakeIo } from '../../impl/test-utils/cli-io.js';
import { packageRoot } from '../conformance/corpus.js';
import { skipped, WHY } from '../../impl/test-utils/skip.js';

const ROOT = packageRoot();
const ADAPTER = join(ROOT, 'examples', 'claude-code-python', 'adapter.py');
const command = (brk = '') => `${brk ? `EXAMPLE_BREAK=${brk} ` : ''}python3 ${ADAPTER} --relay {relay} --token {token}`;
const hasPython = (() => {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'aep-example-'));
  dirs.push(d);
  return d;
};

interface Reported {
  name: string;
  status: string;
  detail?: string;
  basis?: string;
  rule?: { id: string; section: string };
}

async function certify(values: Record<string, unknown>) {
  const io = fakeIo({ cwd: ROOT });
  const code = await runConformance({ values: { live: true, json: '-', ...values }, positionals: [] }, io, { progress: () => {} });
  return { code, err: io.err, report: JSON.parse(io.out) as { ok: boolean; checks: Reported[]; run: { profile?: string } } };
}

describe.skipIf(!hasPython)(`the third-party example adapter, certified with --target${skipped(!hasPython, 'python3 is not on PATH (apt-get install -y python3)')}`, () => {
  it('passes every must and pin check; undeclared capabilities are "not declared"; its page is built from what it did', async () => {
    const report = temp();
    const { code, report: r, err } = await certify({ target: [`claude-code=${command()}`], report });
    expect(r.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(code).toBe(0);
    expect(r.run.profile).toBe('standard');
    expect(err).toContain('profile: standard');
    // no reference check ran: the standard's MUSTs and pins only
    expect(r.checks.filter((c) => c.status !== 'skip' && c.basis === 'reference')).toEqual([]);
    expect(r.checks.filter((c) => c.status === 'pass' && c.basis === 'must').length).toBeGreaterThanOrEqual(40);
    expect(r.checks.some((c) => c.name.startsWith('live/control-loop/claude-code/') && c.status === 'pass')).toBe(true);
    const skipped = r.checks.filter((c) => c.status === 'skip');
    expect(skipped.length).toBeGreaterThan(0);
    for (const c of skipped) expect(c.detail).toMatch(/^not declared: the target's hello does not declare (steering|forms|elicitation)/);
    const page = readFileSync(join(report, 'certification', 'claude-code.md'), 'utf8');
    expect(page).toContain(`- command run: \`${command()}\``);
    expect(page).toContain('"accepts": [\n        "control.attention.respond"\n      ]');
    expect(page).toContain('**conforms:');
    // nothing of our own adapter: its port, verification, steering command, design-record deviations
    for (const ours of ['8377', 'verification', 'Deviations from the design record', 'vendor surface', 'AEP_INSTRUCT=1 |']) expect(page).not.toContain(ours);
    const observed = page.slice(page.indexOf('## hello as observed'), page.indexOf('## Classes claimed'));
    expect(observed).not.toContain('x.claude-code.control.instruct');
    expect(Object.keys(JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')).run.hellos)).toEqual(['claude-code']);
  }, 300_000);

  it.each([
    ['no-ack', 'live/control-loop/claude-code/permission: allow', 'control.ack.one'],
    ['second-terminal', 'live/control-loop/claude-code/run: a prompt typed while a run is open cancels that run; a late Stop of the cancelled turn closes nothing else', 'terminal'],
    ['over-ceiling', 'live/mappings/claude-code/UserPromptSubmit', 'event.valid'],
  ])('EXAMPLE_BREAK=%s fails %s on the MUST it breaks (%s)', async (brk, name, rule) => {
    const { code, report } = await certify({ target: [`claude-code=${command(brk)}`], case: [name] });
    expect(code).toBe(1);
    const [check] = report.checks;
    expect(check).toMatchObject({ name, status: 'fail', basis: 'must' });
    if (rule === 'terminal') expect(check!.detail).toMatch(/terminal/);
    if (rule === 'control.ack.one') expect(check!.detail).toMatch(/no ack \(control\.accepted\/control\.rejected with cause \w+\) within 5000 ms; the relay refused nothing; the target's last output lines/);
    if (rule === 'event.valid') expect(check!.detail).toMatch(/not valid: .*capture/);
  }, 120_000);

  it('a declared deviation turns a pin failure into "deviation (documented)"; an undeclared one fails', async () => {
    // A corpus of our own words, read as a standard's would be (every pin is `pin`): the example sets no subject on tool.requested.
    const corpus = temp();
    mkdirSync(join(corpus, 'mappings'));
    const input = { hook_event_name: 'PreToolUse', session_id: 'dev-1', tool_name: 'Bash', tool_use_id: 'toolu_9', tool_input: { command: 'ls' } };
    writeFileSync(join(corpus, 'mappings', 'claude-code.json'), JSON.stringify({
      identity: { session_from: 'session_id' },
      hooks: {
        SessionStart: { input: { hook_event_name: 'SessionStart', session_id: 'dev-1', source: 'startup' }, expected: { type: 'session.started', data: { client: { name: 'claude-code' } } } },
        PreToolUse: { input, expected: { type: 'tool.requested', subject: 'Bash', data: { tool: { name: 'Bash', call_id: 'toolu_9' }, args_digest: '4ab8f8dd1bd7e0c2dbf6a6c4ff6fa1a8' } } },
      },
    }));
    const cases = ['live/mappings/claude-code/SessionStart', 'live/mappings/claude-code/PreToolUse'];
    const undeclared = await certify({ corpus, target: [`claude-code=${command()}`], case: cases });
    expect(undeclared.code).toBe(1);
    expect(undeclared.report.checks.map((c) => [c.name, c.status, c.basis])).toEqual([
      ['live/mappings/claude-code/SessionStart', 'pass', 'pin'],
      ['live/mappings/claude-code/PreToolUse', 'fail', 'pin'],
    ]);
    const detail = undeclared.report.checks[1]!.detail!;
    // every differing member, with its path and both values
    expect(detail).toContain('$.subject: expected "Bash", got absent');
    expect(detail).toMatch(/\$\.data\.args_digest: expected "4ab8f8dd1bd7e0c2dbf6a6c4ff6fa1a8", got "[0-9a-f]{32}"/);
    expect(detail).not.toContain('undefined');

    const file = join(temp(), 'deviations.json');
    writeFileSync(file, JSON.stringify({ 'claude-code/PreToolUse#$.subject': 'we leave subject to the call id', 'claude-code/PreToolUse#$.data.args_digest': 'this test pins a digest of another value' }));
    const declared = await certify({ corpus, target: [`claude-code=${command()}`], case: cases, deviations: file });
    expect(declared.code).toBe(0);
    expect(declared.report.checks[1]).toMatchObject({ name: 'live/mappings/claude-code/PreToolUse', status: 'skip', basis: 'pin' });
    expect(declared.report.checks[1]!.detail).toContain('deviation (documented): claude-code/PreToolUse#$.subject (declared as claude-code/PreToolUse#$.subject: we leave subject to the call id): $.subject: expected "Bash", got absent');

    const half = join(temp(), 'deviations.json');
    writeFileSync(half, JSON.stringify({ deviations: [{ member: 'claude-code/PreToolUse#$.subject', reason: 'we leave subject to the call id' }] }));
    const partly = await certify({ corpus, target: [`claude-code=${command()}`], case: cases, deviations: half });
    expect(partly.code).toBe(1);
    expect(partly.report.checks[1]!.detail).toMatch(/args_digest.*not declared in the deviations file/);
  }, 180_000);

  it('--reference-parity also holds the target to our own choices, which it does not follow', async () => {
    const { code, report } = await certify({ target: [`claude-code=${command()}`], case: ['live/mappings/claude-code/SessionStart'], 'reference-parity': true });
    expect(report.run.profile).toBe('reference-parity');
    expect(code).toBe(1);
    expect(report.checks[0]).toMatchObject({ status: 'fail', basis: 'reference' });
    expect(report.checks[0]!.detail).toContain('$.data.trigger: expected "startup", got absent');
  }, 120_000);
});
