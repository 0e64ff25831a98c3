/**
 * The scenario runner against deliberately broken targets: every kind of check must be able to fail.
 */
import { describe, expect, it } from 'vitest';
import { ulid } from '../../impl/core/ulid.js';
import { adapter as claudeCode } from '../../impl/adapters/claude-code/adapter.js';
import { adapter as codex } from '../../impl/adapters/codex/adapter.js';
import type { AdapterDef } from '../../impl/adapter-kit/types.js';
import { defaultCorpusDir } from '../conformance/corpus.js';
import { FakeClock, offlineTarget } from './offline-target.js';
import { readScenarioFile, type Scenario } from './scenario-format.js';
import { runScenario, type Observed, type ScenarioTarget } from './scenario-run.js';

const files = {
  'claude-code': readScenarioFile(defaultCorpusDir(), 'control-loop/claude-code.json'),
  codex: readScenarioFile(defaultCorpusDir(), 'control-loop/codex.json'),
};
const scenario = (agent: keyof typeof files, name: string): Scenario => files[agent].scenarios.find((s) => s.name === name)!;
const opts = { newId: () => ulid(), now: () => '2026-01-01T00:00:00.000Z' };

function target(def: AdapterDef, sc: Scenario, change: Partial<ScenarioTarget> = {}): ScenarioTarget {
  return { ...offlineTarget(def, sc), ...change };
}

describe('scenario runner', () => {
  it('passes a real scenario', async () => {
    const sc = scenario('codex', 'permission: allow');
    expect(await runScenario(sc, target(codex, sc), opts)).toBeNull();
  });

  it('a held hook released before its step fails, naming the hook', async () => {
    const sc = scenario('codex', 'permission: allow');
    const base = offlineTarget(codex, sc);
    const eager = target(codex, sc, { hook: (h, i) => (h === 'PermissionRequest' ? (void base.hook(h, i), Promise.resolve('')) : base.hook(h, i)), observed: base.observed, command: base.command });
    expect(await runScenario(sc, eager, opts)).toBe('step 3 (hook PermissionRequest): held hook "@perm" (PermissionRequest) was released early, with ""');
  });

  it('a command that never reaches the adapter fails its step with no ack', async () => {
    const sc = scenario('claude-code', 'permission: deny');
    expect(await runScenario(sc, target(claudeCode, sc, { command: () => undefined }), { ...opts, stepMs: 10 })).toMatch(/^step 4 \(command control\.attention\.respond\): no ack \(control\.accepted\/control\.rejected with cause [0-9A-Z]{26}\) within 10 ms$/m);
  });

  it('a relay refusal satisfies "refused", a wrong code or a refusal of a routable command fails', async () => {
    const sc = scenario('codex', 'undeclared command type: control.cancel is refused unsupported');
    const refusals = new Map<string, string>();
    const relay = (code: string): Partial<ScenarioTarget> => ({
      command: (raw) => void refusals.set(JSON.parse(raw).id as string, code),
      refusal: (id) => refusals.get(id),
    });
    expect(await runScenario(sc, target(codex, sc, relay('unsupported')), opts)).toBeNull();
    refusals.clear();
    expect(await runScenario(sc, target(codex, sc, relay('no-route')), opts)).toBe('step 3 (command control.cancel): expected the command to be refused "unsupported" (relay error frame or adapter nack), got "no-route"');
    const allow = scenario('codex', 'permission: allow');
    refusals.clear();
    expect((await runScenario(allow, target(codex, allow, relay('unauthorized')), opts))?.split('\n')[0]).toBe('step 4 (command control.attention.respond): the relay refused the command: unauthorized');
  });

  it('a re-ack that is not byte-identical fails the repeat pin', async () => {
    const sc = scenario('codex', 'retransmitted command: one decision, re-acked byte-identically');
    const base = offlineTarget(codex, sc);
    let sent = 0;
    const reserialized = target(codex, sc, {
      ...base,
      command: (raw) => {
        sent++;
        base.command(raw);
      },
      observed: (): Observed[] =>
        base.observed().map((o, i, all) => (sent === 2 && i === all.length - 1 && o.event.type === 'control.accepted' ? { ...o, line: JSON.stringify(o.event, Object.keys(o.event).sort()) } : o)),
    });
    expect(await runScenario(sc, reserialized, opts)).toMatch(/^events\[6\] control\.accepted: not byte-identical to @ack: /);
  });

  it('a second decision on a retransmit is caught by the count', async () => {
    const sc = scenario('claude-code', 'retransmitted command: one decision, re-acked byte-identically');
    const base = offlineTarget(claudeCode, sc);
    const seen = new Set<string>();
    const fresh = target(claudeCode, sc, {
      ...base,
      // a target that forgets commands: a retransmit arrives with a new id and is decided again
      command: (raw) => {
        const cmd = JSON.parse(raw) as Record<string, unknown>;
        if (seen.has(cmd.id as string)) cmd.id = `${String(cmd.id)}-again`;
        seen.add(cmd.id as string);
        base.command(JSON.stringify(cmd));
      },
    });
    expect(await runScenario(sc, fresh, { ...opts, stepMs: 10 })).toMatch(/^step 5 \(resend @c1\): no ack/);
  });

  it('the fake clock fires timers in due order and only when due', () => {
    const clock = new FakeClock(1000);
    const fired: string[] = [];
    clock.set(() => fired.push('b'), 20);
    const a = clock.set(() => fired.push('a'), 10);
    clock.set(() => fired.push('c'), 30);
    clock.advance(19);
    expect(fired).toEqual(['a']);
    clock.clear(a);
    clock.advance(11);
    expect(fired).toEqual(['a', 'b', 'c']);
    expect(clock.now()).toBe(1030);
  });
});
