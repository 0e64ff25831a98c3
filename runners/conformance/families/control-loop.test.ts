import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { issue } from '../../../impl/core/issue.js';
import type { AdapterDef, HookContext } from '../../../impl/adapter-kit/types.js';
import { defaultCorpusDir } from '../corpus.js';
import { referenceImplementation } from '../implementation.js';
import type { Check, Family, Implementation } from '../types.js';
import { mapHeld } from '../../../impl/adapter-kit/held.js';
import { SCENARIO_ADAPTERS, controlLoopFamily, family } from './control-loop.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function run(fam: Family, corpusDir = defaultCorpusDir(), implementation: Implementation = referenceImplementation): Promise<{ checks: Check[]; lines: string[] }> {
  const lines: string[] = [];
  const checks = await fam.run({ corpusDir, implementation, logger: { info: (l) => lines.push(l) } });
  return { checks, lines };
}

/** Failed checks by scenario, each with the first problem of its detail (every problem is on its own line). */
const failed = (checks: Check[]) => Object.fromEntries(checks.filter((c) => c.status === 'fail').map((c) => [c.name.replace(/^control-loop\//, ''), c.detail?.split('\n')[0]]));
const details = (checks: Check[]) => Object.fromEntries(checks.filter((c) => c.status === 'fail').map((c) => [c.name.replace(/^control-loop\//, ''), c.detail ?? '']));
const cc = SCENARIO_ADAPTERS['claude-code']!;
const codex = SCENARIO_ADAPTERS.codex!;

/** The Claude Code adapter with its hook context rewired by `wrap` (a deliberately broken target). */
function broken(def: AdapterDef, wrap: (ctx: HookContext) => HookContext, reply = (r: string) => r): Family {
  const handle: AdapterDef['handle'] = async (hookEvent, input, ctx) => reply(await def.handle(hookEvent, input, wrap(ctx)));
  return controlLoopFamily({ [def.agent]: { ...def, handle } });
}

function corpus(name: string, body: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'aep-control-loop-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'control-loop'));
  writeFileSync(join(dir, 'control-loop', name), JSON.stringify(body));
  return dir;
}

describe('control-loop family against our adapters', () => {
  it('passes every scenario of our corpus, offline', async () => {
    const { checks, lines } = await run(family);
    expect(failed(checks)).toEqual({});
    const names = checks.map((c) => c.name);
    expect(names.filter((n) => n.startsWith('control-loop/claude-code/')).length).toBeGreaterThanOrEqual(20);
    expect(names.filter((n) => n.startsWith('control-loop/codex/')).length).toBeGreaterThanOrEqual(10);
    expect(lines).toEqual(['control-loop: live only (aep conformance --live): control-loop/kilocode-sse.json (kilocode-sse), control-loop/kimi-web.json (kimi-web), control-loop/opencode-sse.json (opencode-sse), control-loop/openhands.json (openhands)']);
  });

  it('names scenario files of adapters it does not have, runs nothing for them, and reports one skip check', async () => {
    const dir = corpus('heron.json', { adapter: 'heron', scenarios: [{ name: 'x', session: 's', steps: [], events: [] }] });
    const { checks, lines } = await run(family, dir);
    expect(checks).toEqual([{ name: 'control-loop/heron', status: 'skip', detail: 'skipped: control-loop/heron.json names adapter heron, which this implementation does not have', integration: 'core' }]);
    expect(lines).toEqual(['control-loop: not run: control-loop/heron.json (heron) (this implementation has no such adapter)']);
  });
});

describe('control-loop family against deliberately broken adapters', () => {
  it('text that grants instead of denying fails the guidance scenarios on the reply bytes', async () => {
    const grants = broken(cc, (ctx) => ({
      ...ctx,
      hold: (spec) => mapHeld(ctx.hold(spec), (out) => (out.settlement.kind === 'option' && out.settlement.text ? { ...out, settlement: { kind: 'option', option: 'allow', via: 'control' } } : out)),
    }));
    const f = failed((await run(grants)).checks);
    expect(Object.keys(f)).toEqual(['claude-code/permission: guidance text is a deny carrying the text']);
    expect(f['claude-code/permission: guidance text is a deny carrying the text']).toBe('step 4 (command control.attention.respond): held hook "@perm" (PermissionRequest) was released with a reply of another meaning (compared as parsed JSON): $.hookSpecificOutput.decision.behavior: expected "deny", got "allow"; $.hookSpecificOutput.decision.message: expected "plan it first and show me the diff", got absent');
  });

  it('a timeout that is not fail-open fails the timeout scenarios', async () => {
    const strict = broken(cc, (ctx) => ({
      ...ctx,
      hold: (spec) => mapHeld(ctx.hold(spec), (out) => (out.settlement.kind === 'timeout' ? { ...out, settlement: { kind: 'option', option: 'deny', via: 'control' } } : out)),
    }));
    // the form handler answers anything but a values settlement neutrally, so only the permission loop leaks
    expect(Object.keys(failed((await run(strict)).checks))).toEqual(['claude-code/permission: timeout fails open with the neutral reply']);
  });

  it('a session-level event put on a run, an extra event or a wrong neutral reply are each caught', async () => {
    const onRun = broken(cc, (ctx) => ({ ...ctx, emit: (s, m, extra) => ctx.emit(s, m, m.type === 'session.ended' ? { ...extra, run: 'r-stale' } : extra) }));
    const all = details((await run(onRun)).checks);
    // every problem is listed, not only the first: the stale run is also not a run any turn announced
    expect(all['claude-code/steering: queued texts are dropped, audited, at session end']).toBe('events[7] session.ended: run "r-stale", expected absent\nevents[7] session.ended carries run "r-stale", which no earlier run.started of this session announced');
    expect(failed((await run(onRun)).checks)).toEqual({
      'claude-code/permission: SessionEnd dismisses a pending request, then cancels the open run, before session.ended': 'events[5] session.ended: run "r-stale", expected absent',
      'claude-code/steering: queued texts are dropped, audited, at session end': 'events[7] session.ended: run "r-stale", expected absent',
      'claude-code/elicitation: a URL-mode request stays open until its ElicitationResult; a control answer is refused': 'events[7] session.ended: run "r-stale", expected absent',
      'claude-code/elicitation: a URL-mode request still open when the session ends is dismissed before session.ended': 'events[3] session.ended: run "r-stale", expected absent',
      'claude-code/session: a session resumed after its end opens no second session.started, and ends with no second session.ended': 'events[1] session.ended: run "r-stale", expected absent',
    });

    const chattyDef: AdapterDef = {
      ...codex,
      handle: async (e, i, ctx) => {
        if (e === 'SessionStart') ctx.emit(i.session_id as string, { type: 'progress.status', data: {} });
        return codex.handle(e, i, ctx);
      },
    };
    const extra = failed((await run(controlLoopFamily({ codex: chattyDef }))).checks);
    expect(Object.keys(extra).length).toBe(22);
    // one extra event shifts nothing: the expected ones are matched by type and occurrence, so only the sequence differs
    expect(extra['codex/permission: allow']).toMatch(/^expected 6 events \(.*\), got 7 \(progress\.status, session\.started, /);
    expect(extra['codex/interrupt drain: a turn left open without Stop or Interrupt closes at the next prompt, by nobody named']).toMatch(/^expected 5 events \(.*\), got 6 \(progress\.status, session\.started, /);

    const loud = broken(codex, (ctx) => ctx, (r) => (r === '' ? '{}' : r));
    expect(failed((await run(loud)).checks)['codex/permission: allow']).toBe('step 1 (hook SessionStart): reply "{}", expected ""');
  });

  it('an implementation whose validator rejects everything fails every scenario with an event', async () => {
    const picky: Implementation = { ...referenceImplementation, validateEvent: () => [issue('envelope.test', 'AEP-0001 §5', '$', 'rejected on purpose')] };
    const { checks } = await run(family, defaultCorpusDir(), picky);
    expect(checks.every((c) => c.status === 'fail')).toBe(true);
    expect(checks[0]!.detail).toMatch(/not a valid event: .*rejected on purpose/);
    const pickyStream: Implementation = { ...referenceImplementation, validateStream: () => [issue('stream.test', 'AEP-0001 §7', '$', 'stream rejected on purpose', 2)] };
    const streamChecks = (await run(family, defaultCorpusDir(), pickyStream)).checks;
    expect(streamChecks.every((c) => c.status === 'fail')).toBe(true);
    expect(streamChecks[0]!.detail).toBe("the adapter's stream is not valid: line 2: $ [stream.test, AEP-0001 §7] stream rejected on purpose");
  });
});

describe('control-loop family against broken scenario files', () => {
  const base = { name: 'one', session: 's1', steps: [{ hook: 'SessionStart', input: {}, reply: '{}' }], events: [{ type: 'session.started' }] };
  const cases: Array<[string, unknown, RegExp]> = [
    ['no adapter', { scenarios: [] }, /expected \{"adapter": "<agent>", "scenarios": \[\.\.\.\]\}/],
    ['a reference to nothing', { adapter: 'claude-code', scenarios: [{ ...base, events: [{ type: 'session.started', cause: '@ghost' }] }] }, /scenario "one": event session\.started cause refers to "@ghost"/],
    ['settles on a hook that is not held', { adapter: 'claude-code', scenarios: [{ ...base, steps: [{ ...base.steps[0], as: 'h' }, { wait: 'attention_timeout', settles: ['@h'] }] }] }, /settles "@h", which is not a held hook step/],
    ['a reference to a hook step', { adapter: 'claude-code', scenarios: [{ ...base, steps: [{ ...base.steps[0], as: 'h' }], events: [{ type: 'session.started', cause: '@h' }] }] }, /refers to "@h", a hook step: refer to a command or an event/],
    ['a label defined twice', { adapter: 'claude-code', scenarios: [{ ...base, steps: [{ ...base.steps[0], as: 'x' }], events: [{ type: 'session.started', as: 'x' }] }] }, /label "x" is defined twice/],
    ['a hook step without its reply', { adapter: 'claude-code', scenarios: [{ ...base, steps: [{ hook: 'SessionStart', input: {} }] }] }, /hook step 1 needs an "input" object and the exact "reply" string/],
    ['an unknown step', { adapter: 'claude-code', scenarios: [{ ...base, steps: [{ sleep: 5 }] }] }, /steps\[0\] must be a hook, command, resend or wait step/],
  ];
  it.each(cases)('%s is a fixture error naming file and scenario', async (_name, body, message) => {
    await expect(run(family, corpus('claude-code.json', body))).rejects.toThrow(message);
  });

  it('a cause link pinned to the wrong event fails, naming the reference', async () => {
    const ours = JSON.parse(readFileSync(join(defaultCorpusDir(), 'control-loop', 'codex.json'), 'utf8')) as { adapter: string; scenarios: Array<{ name: string; events: Array<Record<string, unknown>> }> };
    const allow = ours.scenarios.find((sc) => sc.name === 'permission: allow')!;
    allow.events.at(-1)!.cause = '@c1';
    const detail = failed((await run(family, corpus('codex.json', { ...ours, scenarios: [allow] }))).checks)['codex/permission: allow'];
    expect(detail).toMatch(/^events\[5\] attention\.resolved: cause "[0-9A-Z]{26}", expected "[0-9A-Z]{26}" \(@c1\)$/);
  });

  it('a scenario whose pins are wrong fails with the differing member', async () => {
    const wrong = { adapter: 'claude-code', scenarios: [{ ...base, events: [{ type: 'session.started', data: { trigger: 'resume' } }] }] };
    const dir = corpus('claude-code.json', { ...wrong, scenarios: [{ ...wrong.scenarios[0], steps: [{ hook: 'SessionStart', input: { source: 'startup' }, reply: '{}' }] }] });
    expect(failed((await run(family, dir)).checks)).toEqual({ 'claude-code/one': 'events[0] session.started: data.trigger is "startup", expected "resume"' });
  });
});

describe('control-loop family against broken gate and oob adapters', () => {
  /** An adapter whose configured instances have their replies or hook context rewired. */
  function brokenConfigured(def: AdapterDef, wrap: (ctx: HookContext) => HookContext, reply = (_h: string, r: string) => r): Family {
    const rewire = (d: AdapterDef): AdapterDef => ({ ...d, handle: async (h, i, ctx) => reply(h, await d.handle(h, i, wrap(ctx))), configure: (env) => { const c = def.configure!(env); return typeof c === 'string' ? c : rewire(c); } });
    return controlLoopFamily({ [def.agent]: rewire(def) });
  }

  it('a VS Code gate that grants on allow (instead of no objection) fails exactly the allow-shaped scenarios', async () => {
    const grants = brokenConfigured(SCENARIO_ADAPTERS.vscode!, (ctx) => ctx, (h, r) => (h === 'PreToolUse' && r === '{}' ? '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}' : r));
    const f = failed((await run(grants)).checks);
    expect(Object.keys(f).filter((k) => k.startsWith('vscode/'))).toContain('vscode/permission: allow');
    expect(f['vscode/permission: allow']).toMatch(/released with a reply of another meaning \(compared as parsed JSON\): \$\.hookSpecificOutput: expected absent, got .*"permissionDecision":"allow"/);
  });

  it('a Kimi adapter that drops the runtime denial fails the rejected-pair scenario on the event count', async () => {
    const quiet = brokenConfigured(SCENARIO_ADAPTERS['kimi-code']!, (ctx) => ({ ...ctx, emit: (s, m, x) => (m.type === 'tool.denied' && m.data.by === 'runtime' ? ctx.emit(s, { type: 'x.kimi-code.session.nothing', data: {} }, x) : ctx.emit(s, m, x)) }));
    const f = failed((await run(quiet)).checks);
    expect(Object.keys(f).filter((k) => k.startsWith('kimi-code/'))).toEqual(['kimi-code/observed pair: rejected with feedback lands tool.denied by runtime, the terminal of the call']);
  });

  it('a scenario env the adapter refuses is a failed scenario naming the variable', async () => {
    const body = { adapter: 'vscode', scenarios: [{ name: 'bad env', session: 's', env: { AEP_VSCODE_CONTROL: 'maybe' }, steps: [], events: [] }] };
    expect(failed((await run(family, corpus('vscode.json', body))).checks)['vscode/bad env']).toMatch(/AEP_VSCODE_CONTROL must be 1/);
    await expect(run(family, corpus('vscode.json', { ...body, scenarios: [{ ...body.scenarios[0], env: { A: 1 } }] }))).rejects.toThrow(/env must be an object of string values/);
  });
});
