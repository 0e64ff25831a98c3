/**
 * Runs one control-loop scenario against a target: the adapter's engine on a fake clock
 * (offline) or a live daemon behind a relay. The scenario logic is the same for both; the target
 * supplies transport and time. The result is null (pass) or the first problem, naming the step.
 */
import { canonicalJson } from '../../impl/core/canonical.js';
import type { CommandStep, ExpectedEvent, HookStep, Scenario, Step } from './scenario-format.js';

/** One event as observed: parsed, and its exact line. */
export interface Observed {
  event: Record<string, unknown>;
  line: string;
}

/** What a scenario runs against. Every member may be called any time while the scenario runs. */
export interface ScenarioTarget {
  /** Call one hook; resolves with the exact stdout (a held hook resolves when settled). */
  hook(hookEvent: string, input: Record<string, unknown>): Promise<string>;
  /** Deliver one command's exact bytes to the adapter (offline directly, live through the relay). */
  command(raw: string): void;
  /** Let `ms` of hold time pass: offline advances the fake clock; live does nothing (the daemon's own timer runs). */
  elapse(ms: number): void;
  /** Give in-flight work a chance to happen: resolve once `until()` holds or `ms` elapsed (offline: after flushing). */
  settle(until: () => boolean, ms: number): Promise<void>;
  /** The adapter's events for the scenario's session so far, in arrival order (re-sent acks included). */
  observed(): readonly Observed[];
  /** Relay refusal codes (AEP-0004 §4.2 `error` frames) by command id; empty offline. */
  refusal(commandId: string): string | undefined;
}

/** How long the runner waits for something a step must cause (live; offline never waits). */
export interface ScenarioBounds {
  /** A hook reply, an ack, a referenced event. Default 5000 ms. */
  stepMs?: number;
  /** After the last step, how long to keep listening for events beyond the expected ones. Default 0. */
  quietMs?: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isAck = (e: Record<string, unknown>): boolean => e.type === 'control.accepted' || e.type === 'control.rejected';

class StepFailure extends Error {}

/** The operator identity our commands carry. */
export const OPERATOR_SOURCE = 'aep://conformance/agent/operator';

export async function runScenario(
  scenario: Scenario,
  target: ScenarioTarget,
  opts: {
    newId: () => string;
    now: () => string;
    /** null for a valid event, else why not; applied to every expected event. */
    validate?: (event: unknown) => string | null;
    /** null for a valid stream, else why not; applied to everything the adapter emitted. */
    validateStream?: (events: unknown[]) => string | null;
    /** null when every call and run reached its paired terminal (runners/judge), else why not. */
    judgeStream?: (events: unknown[]) => string | null;
  } & ScenarioBounds,
): Promise<string | null> {
  const stepMs = opts.stepMs ?? 5000;
  const commands = new Map<string, { id: string; raw: string }>();
  const refused = new Set<string>();
  const held = new Map<string, { step: HookStep; reply?: string }>();
  const expectedSettled = new Set<string>();
  const eventIndex = new Map(scenario.events.flatMap((e, i) => (e.as ? [[e.as, i] as const] : [])));

  /** The adapter's events, minus acks of commands that were meant to be refused (checked by their step). */
  const relevant = (): Observed[] => target.observed().filter((o) => !(isAck(o.event) && refused.has(o.event.cause as string)));

  async function resolve(value: string | undefined, where: string): Promise<string | undefined> {
    if (value === undefined || !value.startsWith('@')) return value;
    const [label, field] = value.slice(1).split('.') as [string, string | undefined];
    const cmd = commands.get(label);
    if (cmd) return cmd.id;
    const index = eventIndex.get(label)!;
    await target.settle(() => relevant().length > index, stepMs);
    const observed = relevant()[index];
    if (!observed) throw new StepFailure(`${where}: event "@${label}" (events[${index}], ${scenario.events[index]!.type}) never arrived; saw ${types(relevant())}`);
    const want = scenario.events[index]!.type;
    if (observed.event.type !== want) throw new StepFailure(`${where}: event "@${label}" should be events[${index}] ${want}, got ${String(observed.event.type)} (stream: ${types(relevant())})`);
    const resolved = observed.event[field ?? 'id'];
    if (typeof resolved !== 'string') throw new StepFailure(`${where}: event "@${label}" has no ${field ?? 'id'}`);
    return resolved;
  }

  function buildCommand(step: CommandStep, subject: string | undefined, run: string | undefined, session: string): { id: string; raw: string } {
    const id = opts.newId();
    const cmd: Record<string, unknown> = { aep: '0.1', id, type: step.type, time: opts.now(), source: OPERATOR_SOURCE, agent: 'operator', session };
    if (subject !== undefined) cmd.subject = subject;
    if (run !== undefined) cmd.run = run;
    cmd.data = step.data;
    return { id, raw: JSON.stringify(cmd) };
  }

  const acksOf = (id: string): number => target.observed().filter((o) => isAck(o.event) && o.event.cause === id).length;

  async function deliver(id: string, raw: string, where: string, refusal?: string): Promise<void> {
    const before = acksOf(id);
    target.command(raw);
    await target.settle(() => acksOf(id) > before || target.refusal(id) !== undefined, stepMs);
    const relayCode = target.refusal(id);
    if (refusal !== undefined) {
      const nack = target.observed().find((o) => o.event.type === 'control.rejected' && o.event.cause === id);
      const code = relayCode ?? (nack && isObject(nack.event.data) ? nack.event.data.reason : undefined);
      if (code !== refusal) throw new StepFailure(`${where}: expected the command to be refused "${refusal}" (relay error frame or adapter nack), got ${code === undefined ? 'no refusal' : `"${String(code)}"`}`);
      return;
    }
    if (relayCode !== undefined) throw new StepFailure(`${where}: the relay refused the command: ${relayCode}`);
    if (acksOf(id) <= before) throw new StepFailure(`${where}: no ack (control.accepted/control.rejected with cause ${id}) within ${stepMs} ms`);
  }

  async function runStep(step: Step, where: string): Promise<void> {
    switch (step.kind) {
      case 'hook': {
        const input = { session_id: scenario.session, ...step.input };
        const entry: { step: HookStep; reply?: string } = { step };
        const reply = target.hook(step.hook, input).then(
          (r) => (entry.reply = r),
          (err: unknown) => (entry.reply = `(the hook call failed: ${err instanceof Error ? err.message : String(err)})`),
        );
        if (step.held) {
          held.set(step.label, entry);
          await target.settle(() => false, 0);
          return;
        }
        await target.settle(() => entry.reply !== undefined, stepMs);
        if (entry.reply === undefined) throw new StepFailure(`${where}: no reply within ${stepMs} ms (a hook that is not "held" must be answered at once)`);
        await reply;
        if (entry.reply !== step.reply) throw new StepFailure(`${where}: reply ${JSON.stringify(entry.reply)}, expected ${JSON.stringify(step.reply)}`);
        return;
      }
      case 'command': {
        const session = (await resolve(step.session, where)) ?? scenario.session;
        const cmd = buildCommand(step, await resolve(step.subject, where), await resolve(step.run, where), session);
        commands.set(step.label, cmd);
        if (step.refused !== undefined) refused.add(cmd.id);
        return deliver(cmd.id, cmd.raw, where, step.refused);
      }
      case 'resend': {
        const cmd = commands.get(step.of)!;
        return deliver(cmd.id, cmd.raw, where);
      }
      case 'wait':
        target.elapse(scenario.attentionTimeoutMs);
        return;
    }
  }

  function checkHeld(where: string): void {
    for (const [label, { step, reply }] of held) {
      if (reply !== undefined && !expectedSettled.has(label)) throw new StepFailure(`${where}: held hook "@${label}" (${step.hook}) was released early, with ${JSON.stringify(reply)}`);
      if (reply === undefined && expectedSettled.has(label)) throw new StepFailure(`${where}: held hook "@${label}" (${step.hook}) was not released`);
      if (reply !== undefined && reply !== step.reply) throw new StepFailure(`${where}: held hook "@${label}" (${step.hook}) was released with ${JSON.stringify(reply)}, expected ${JSON.stringify(step.reply)}`);
    }
  }

  try {
    for (const [i, step] of scenario.steps.entries()) {
      const where = `step ${i + 1} (${describe(step)})`;
      await runStep(step, where);
      for (const s of step.settles) expectedSettled.add(s);
      const waitMs = step.kind === 'wait' ? scenario.attentionTimeoutMs + stepMs : stepMs;
      await target.settle(() => step.settles.every((s) => held.get(s)?.reply !== undefined), step.settles.length ? waitMs : 0);
      checkHeld(where);
    }
    const unsettled = [...held.keys()].filter((l) => !expectedSettled.has(l));
    if (unsettled.length) throw new StepFailure(`the scenario ends with held hook(s) ${unsettled.map((l) => `"@${l}"`).join(', ')} never released by any step`);
    await target.settle(() => relevant().length >= scenario.events.length, stepMs);
    await target.settle(() => false, opts.quietMs ?? 0);
    const mismatch = await compareEvents(scenario.events, relevant(), resolve, opts.validate);
    if (mismatch !== null) return mismatch;
    const emitted = target.observed().map((o) => o.event);
    const stream = opts.validateStream?.(emitted);
    if (stream) return `the adapter's stream is not valid: ${stream}`;
    return opts.judgeStream?.(emitted) ?? null;
  } catch (err) {
    if (err instanceof StepFailure) return err.message;
    throw err;
  }
}

function describe(step: Step): string {
  switch (step.kind) {
    case 'hook':
      return `hook ${step.hook}`;
    case 'command':
      return `command ${step.type}`;
    case 'resend':
      return `resend @${step.of}`;
    case 'wait':
      return 'wait attention_timeout';
  }
}

const types = (list: readonly Observed[]): string => (list.length ? list.map((o) => o.event.type).join(', ') : 'none');

async function compareEvents(
  expected: readonly ExpectedEvent[],
  observed: readonly Observed[],
  resolve: (value: string | undefined, where: string) => Promise<string | undefined>,
  validate?: (event: unknown) => string | null,
): Promise<string | null> {
  if (observed.length !== expected.length) return `expected ${expected.length} events (${expected.map((e) => e.type).join(', ')}), got ${observed.length} (${types(observed)})`;
  const lines = new Map<string, string>();
  for (const [i, want] of expected.entries()) {
    const { event, line } = observed[i]!;
    const where = `events[${i}] ${want.type}`;
    if (event.type !== want.type) return `${where}: got ${String(event.type)} (stream: ${types(observed)})`;
    const invalid = validate?.(event);
    if (invalid) return `${where}: not a valid event: ${invalid}`;
    for (const key of ['cause', 'subject', 'run'] as const) {
      if (want[key] === undefined) continue;
      const value = want[key] === null ? undefined : await resolve(want[key]!, where);
      if (event[key] !== value) return `${where}: ${key} ${JSON.stringify(event[key]) ?? 'absent'}, expected ${value === undefined ? 'absent' : JSON.stringify(value)}${want[key]?.startsWith('@') ? ` (${want[key]})` : ''}`;
    }
    if (want.capture !== undefined && (event.capture ?? 'metadata') !== want.capture) return `${where}: capture ${JSON.stringify(event.capture)}, expected "${want.capture}"`;
    const data = isObject(event.data) ? event.data : {};
    for (const [key, value] of Object.entries(want.data ?? {})) {
      if (!(key in data)) return `${where}: data.${key} is absent, expected ${canonicalJson(value)}`;
      if (canonicalJson(data[key]) !== canonicalJson(value)) return `${where}: data.${key} is ${canonicalJson(data[key])}, expected ${canonicalJson(value)}`;
    }
    if (want.repeat_of !== undefined) {
      const original = lines.get(want.repeat_of.slice(1));
      if (line !== original) return `${where}: not byte-identical to ${want.repeat_of}: ${line} vs ${original ?? 'nothing'}`;
    }
    if (want.as) lines.set(want.as, line);
  }
  return null;
}
