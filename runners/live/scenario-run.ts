/**
 * Runs one control-loop scenario against a target: the adapter's engine on a fake clock
 * (offline) or a live daemon behind a relay. The scenario logic is the same for both; the target
 * supplies transport and time.
 *
 * `judgeScenario` answers every problem it found, each with its basis and rule (a failed step does
 * not end the scenario: every later step it can still judge is judged), and `runScenario` renders
 * them one per line (null: none). The `standard` profile judges only what the standard requires
 * (`must`: one ack per command within the window, byte-identical re-acks, refusals, cause and
 * subject links of outcomes, the hold and its fail-open reply, valid events and stream, one
 * terminal per request, run ids one per turn, the capture ceiling; `pin`: the meaning of each hook
 * reply); the `reference` profile (our own adapters) adds this project's choices: the exact event
 * sequence, data members, run links and reply bytes.
 */
import { canonicalJson } from '../../impl/core/canonical.js';
import { captureRank, type CaptureLevel } from '../../impl/core/event.js';
import type { CheckBasis, CheckRule } from '../conformance/types.js';
import { isFreeTextPath, renderDiffs, valueDiffs } from '../conformance/value-diff.js';
import type { CommandStep, ExpectedEvent, HookStep, Scenario, Step } from './scenario-format.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isAck = (e: Record<string, unknown>): boolean => e.type === 'control.accepted' || e.type === 'control.rejected';

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
  /** What the relay and the target said when a step timed out (refused frames, the target's last stderr lines); live only. */
  evidence?(): string | undefined;
}

/** How long the runner waits for something a step must cause (live; offline never waits). */
export interface ScenarioBounds {
  /** A hook reply, an ack, a referenced event. Default 5000 ms. */
  stepMs?: number;
  /** After the last step, how long to keep listening for events beyond the expected ones. Default 0. */
  quietMs?: number;
}

/** `reference`: every aspect, this project's choices included (our adapters); `standard`: `must` and `pin` only (a `--target`). */
export type JudgeProfile = 'reference' | 'standard';

export interface ScenarioOptions extends ScenarioBounds {
  newId: () => string;
  now: () => string;
  /** null for a valid event, else why not; applied to every event the adapter emitted. */
  validate?: (event: unknown) => string | null;
  /** null for a valid stream, else why not; applied to everything the adapter emitted. */
  validateStream?: (events: unknown[]) => string | null;
  /** null when every call and run reached its paired terminal (runners/judge), else why not. */
  judgeStream?: (events: unknown[]) => string | null;
  /** Default `reference`. */
  profile?: JudgeProfile;
  /** How the vendor reads a hook reply (the descriptor's `neutral.reads`): `json` compares parsed values, free text by presence; default `bytes`. */
  replies?: 'json' | 'bytes';
  /** The agent, naming pin members (`<agent>/<hook>#reply`) for declared deviations. */
  agent?: string;
}

/** One problem a scenario found: what, where, and the basis and rule it breaks. */
export interface ScenarioProblem {
  basis: CheckBasis;
  rule: CheckRule;
  message: string;
  /** For a `pin` problem: the pin member a declared deviation names (`claude-code/PermissionRequest#reply`). */
  member?: string;
}

class StepFailure extends Error {
  constructor(readonly problem: ScenarioProblem) {
    super(problem.message);
  }
}

/** The operator identity our commands carry. */
export const OPERATOR_SOURCE = 'aep://conformance/agent/operator';

const R = {
  ack: { id: 'control.ack.one', section: 'AEP-0004 §3' },
  reack: { id: 'control.ack.redelivery', section: 'AEP-0004 §3' },
  refusal: { id: 'control.refusal', section: 'AEP-0004 §4.2' },
  outcome: { id: 'control.outcome.cause', section: 'AEP-0004 §6' },
  subject: { id: 'attention.subject', section: 'AEP-0004 §6' },
  hold: { id: 'attention.hold', section: 'AEP-0004 §5' },
  failOpen: { id: 'hook.fail-open', section: 'AEP-0006' },
  request: { id: 'attention.request', section: 'AEP-0004 §5' },
  valid: { id: 'event.valid', section: 'AEP-0001 §5' },
  stream: { id: 'stream.valid', section: 'AEP-0001 §7' },
  terminals: { id: 'terminal.one', section: 'AEP-0002 §7' },
  run: { id: 'run.identity', section: 'AEP-0001 §5' },
  ceiling: { id: 'capture.ceiling', section: 'AEP-0001 §8' },
  reply: { id: 'hook.reply', section: 'AEP-0002 Annex A' },
  replyBytes: { id: 'hook.reply.bytes', section: 'AEP-0002 Annex A' },
  sequence: { id: 'control-loop.sequence', section: 'AEP-0004 §7' },
  data: { id: 'control-loop.data', section: 'AEP-0004 §7' },
} as const satisfies Record<string, CheckRule>;

const must = (rule: CheckRule, message: string): ScenarioProblem => ({ basis: 'must', rule, message });
const reference = (rule: CheckRule, message: string): ScenarioProblem => ({ basis: 'reference', rule, message });

/** Types whose expected links to a command or request are the standard's (AEP-0004 §5/§6). */
const OUTCOMES = new Set(['control.accepted', 'control.rejected', 'attention.answered', 'attention.resolved', 'attention.timeout', 'run.cancelled']);

/** `a` and `b` as the vendor reads them: the same bytes, or (`json`) the same parsed value, free text by presence. */
export function replyDiff(expected: string, actual: string, reads: 'json' | 'bytes'): string | null {
  if (expected === actual) return null;
  if (reads === 'json') {
    const parse = (t: string): { ok: boolean; v?: unknown } => {
      try {
        return { ok: true, v: JSON.parse(t) };
      } catch {
        return { ok: false };
      }
    };
    const [a, b] = [parse(expected), parse(actual)];
    if (a.ok && b.ok) {
      const diffs = valueDiffs(a.v, b.v, { freeText: isFreeTextPath });
      return diffs.length === 0 ? null : renderDiffs(diffs);
    }
    if (expected.trim() === '' && actual.trim() === '') return null;
  }
  return `${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`;
}

/** The capture ceiling of a scenario's daemon for an event type (its `AEP_CAPTURE`/`AEP_CAPTURE_ATTENTION`, else the default posture). */
function ceilingFor(scenario: Scenario, type: string): CaptureLevel {
  const ceiling = (scenario.env.AEP_CAPTURE ?? 'metadata') as CaptureLevel;
  const attention = (scenario.env.AEP_CAPTURE_ATTENTION ?? 'redacted') as CaptureLevel;
  return type.startsWith('attention.') && captureRank(attention) > captureRank(ceiling) ? attention : ceiling;
}

/** AEP-0001 §5 run identity, as properties: a new run id per turn, every event's run one a turn announced. */
export function runProblems(events: readonly Record<string, unknown>[]): string[] {
  const out: string[] = [];
  const started = new Set<string>();
  for (const [i, e] of events.entries()) {
    if (e.type === 'run.started') {
      if (typeof e.run !== 'string' || e.run === '') out.push(`events[${i}] run.started carries no run id`);
      else if (started.has(e.run)) out.push(`events[${i}] run.started reuses run ${JSON.stringify(e.run)}: each turn needs its own run id`);
      else started.add(e.run);
      continue;
    }
    if (typeof e.run === 'string' && !started.has(e.run)) out.push(`events[${i}] ${String(e.type)} carries run ${JSON.stringify(e.run)}, which no earlier run.started of this session announced`);
  }
  return out;
}

/** The problems in what a target emitted, judged on the events alone (pure): validity, capture ceilings, the stream, terminals, runs. */
export function judgeEmitted(scenario: Scenario, emitted: readonly Record<string, unknown>[], opts: Pick<ScenarioOptions, 'validate' | 'validateStream' | 'judgeStream'>): ScenarioProblem[] {
  const out: ScenarioProblem[] = [];
  for (const [i, e] of emitted.entries()) {
    const invalid = opts.validate?.(e);
    if (invalid) out.push(must(R.valid, `events[${i}] ${String(e.type)} is not a valid event: ${invalid}`));
    const level = (typeof e.capture === 'string' ? e.capture : 'metadata') as CaptureLevel;
    const ceiling = ceilingFor(scenario, String(e.type));
    if (captureRank(level) > captureRank(ceiling)) out.push(must(R.ceiling, `events[${i}] ${String(e.type)} declares capture "${level}" above the daemon's ceiling "${ceiling}"`));
  }
  const stream = opts.validateStream?.([...emitted]);
  if (stream) out.push(must(R.stream, `the adapter's stream is not valid: ${stream}`));
  const terminals = opts.judgeStream?.([...emitted]);
  if (terminals) out.push(must(R.terminals, terminals));
  for (const r of runProblems([...emitted])) out.push(must(R.run, r));
  return out;
}

/** One command as sent (pure): its envelope with the operator's identity, and its exact bytes. */
export function buildCommand(step: CommandStep, ids: { id: string; time: string }, subject: string | undefined, run: string | undefined, session: string): { id: string; raw: string } {
  const cmd: Record<string, unknown> = { aep: '0.1', id: ids.id, type: step.type, time: ids.time, source: OPERATOR_SOURCE, agent: 'operator', session };
  if (subject !== undefined) cmd.subject = subject;
  if (run !== undefined) cmd.run = run;
  cmd.data = step.data;
  return { id: ids.id, raw: JSON.stringify(cmd) };
}

/** One scenario in progress against one target: its commands, held hooks and the problems found so far. */
class ScenarioRun {
  readonly problems: ScenarioProblem[] = [];
  readonly commands = new Map<string, { id: string; raw: string }>();
  private readonly refused = new Set<string>();
  private readonly held = new Map<string, { step: HookStep; reply?: string }>();
  private readonly expectedSettled = new Set<string>();
  private readonly failOpen = new Set<string>();
  private readonly judgedHeld = new Set<string>();
  private readonly eventIndex: Map<string, number>;
  readonly stepMs: number;
  private readonly profile: JudgeProfile;
  private readonly reads: 'json' | 'bytes';

  constructor(readonly scenario: Scenario, readonly target: ScenarioTarget, private readonly opts: ScenarioOptions) {
    this.stepMs = opts.stepMs ?? 5000;
    this.profile = opts.profile ?? 'reference';
    this.reads = opts.replies ?? 'bytes';
    this.eventIndex = new Map(scenario.events.flatMap((e, i) => (e.as ? [[e.as, i] as const] : [])));
  }

  record(p: ScenarioProblem): void {
    if (this.profile === 'standard' && p.basis === 'reference') return;
    this.problems.push(p);
  }

  private evidence(): string {
    const e = this.target.evidence?.();
    return e ? `; ${e}` : '';
  }

  /** The adapter's events, minus acks of commands that were meant to be refused (checked by their step). */
  relevant(): Observed[] {
    return this.target.observed().filter((o) => !(isAck(o.event) && this.refused.has(o.event.cause as string)));
  }

  /** The observed event an expected one stands for: the same type, the same occurrence of it (so one missing event does not shift the rest). */
  matchOf(index: number): Observed | undefined {
    const events = this.scenario.events;
    const occurrence = events.slice(0, index).filter((e) => e.type === events[index]!.type).length;
    return this.relevant().filter((o) => o.event.type === events[index]!.type)[occurrence];
  }

  async resolve(value: string | undefined, where: string): Promise<string | undefined> {
    if (value === undefined || !value.startsWith('@')) return value;
    const [label, field] = value.slice(1).split('.') as [string, string | undefined];
    const cmd = this.commands.get(label);
    if (cmd) return cmd.id;
    const index = this.eventIndex.get(label)!;
    await this.target.settle(() => this.matchOf(index) !== undefined, this.stepMs);
    const observed = this.matchOf(index);
    const want = this.scenario.events[index]!.type;
    if (!observed) {
      const rule = want === 'attention.requested' ? R.request : R.sequence;
      throw new StepFailure({ basis: want === 'attention.requested' ? 'must' : 'reference', rule, message: `${where}: not judged: event "@${label}" (${want}) never arrived; saw ${types(this.relevant())}${this.evidence()}` });
    }
    const resolved = observed.event[field ?? 'id'];
    if (typeof resolved !== 'string') throw new StepFailure(reference(R.data, `${where}: event "@${label}" has no ${field ?? 'id'}`));
    return resolved;
  }

  private acksOf(id: string): Observed[] {
    return this.target.observed().filter((o) => isAck(o.event) && o.event.cause === id);
  }

  async deliver(id: string, raw: string, where: string, refusal?: string): Promise<void> {
    const { target, stepMs } = this;
    const before = this.acksOf(id).length;
    target.command(raw);
    await target.settle(() => this.acksOf(id).length > before || target.refusal(id) !== undefined, stepMs);
    const relayCode = target.refusal(id);
    if (refusal !== undefined) {
      const nack = target.observed().find((o) => o.event.type === 'control.rejected' && o.event.cause === id);
      const code = relayCode ?? (nack && isObject(nack.event.data) ? nack.event.data.reason : undefined);
      if (code === undefined) throw new StepFailure(must(R.refusal, `${where}: expected the command to be refused "${refusal}" (relay error frame or adapter nack), got no refusal${this.acksOf(id).length ? ' (it was accepted)' : ''}`));
      // The code of an undeclared type is the standard's (AEP-0004 §4.2); which reason a target gives otherwise is its choice.
      if (code !== refusal) throw new StepFailure({ basis: refusal === 'unsupported' ? 'must' : 'reference', rule: R.refusal, message: `${where}: expected the command to be refused "${refusal}" (relay error frame or adapter nack), got "${String(code)}"` });
      return;
    }
    if (relayCode !== undefined) throw new StepFailure(must(R.refusal, `${where}: the relay refused the command: ${relayCode}${this.evidence()}`));
    if (this.acksOf(id).length <= before) throw new StepFailure(must(R.ack, `${where}: no ack (control.accepted/control.rejected with cause ${id}) within ${stepMs} ms${this.evidence()}`));
  }

  checkReply(step: HookStep, label: string, reply: string, where: string): void {
    const fo = this.failOpen.has(label);
    const meaning = replyDiff(step.reply, reply, this.reads);
    const member = `${this.opts.agent ?? 'agent'}/${step.hook}#reply`;
    const what = step.held ? `held hook "@${label}" (${step.hook}) was released with` : `reply`;
    if (meaning !== null) {
      const how = this.reads === 'json' && !meaning.startsWith('"') ? `a reply of another meaning (compared as parsed JSON): ${meaning}` : meaning;
      if (fo) this.record(must(R.failOpen, `${where}: ${what} ${how} (a timed-out hold fails open with the vendor's neutral reply)`));
      else this.record({ basis: 'pin', rule: R.reply, member, message: `${where}: ${what} ${how}` });
      return;
    }
    if (reply !== step.reply) this.record(reference(R.replyBytes, `${where}: ${what} ${JSON.stringify(reply)}, the same meaning as our daemon's ${JSON.stringify(step.reply)} in other bytes`));
  }

  private async runHook(step: HookStep, where: string): Promise<void> {
    const { target, stepMs } = this;
    const input = { session_id: this.scenario.session, ...step.input };
    const entry: { step: HookStep; reply?: string } = { step };
    const reply = target.hook(step.hook, input).then(
      (r) => (entry.reply = r),
      (err: unknown) => (entry.reply = `(the hook call failed: ${err instanceof Error ? err.message : String(err)})`),
    );
    if (step.held) {
      this.held.set(step.label, entry);
      // A held hook answers nothing yet: give its request a moment to reach the stream (a daemon
      // serving hooks on several threads may otherwise take the next step's hook first).
      const before = target.observed().length;
      await target.settle(() => target.observed().length > before, Math.min(stepMs, 1000));
      return;
    }
    await target.settle(() => entry.reply !== undefined, stepMs);
    if (entry.reply === undefined) throw new StepFailure(must(R.hold, `${where}: no reply within ${stepMs} ms (a hook that is not "held" must be answered at once)${this.evidence()}`));
    await reply;
    this.checkReply(step, step.label, entry.reply, where);
  }

  async runStep(step: Step, where: string): Promise<void> {
    switch (step.kind) {
      case 'hook':
        return this.runHook(step, where);
      case 'command': {
        const session = (await this.resolve(step.session, where)) ?? this.scenario.session;
        const cmd = buildCommand(step, { id: this.opts.newId(), time: this.opts.now() }, await this.resolve(step.subject, where), await this.resolve(step.run, where), session);
        this.commands.set(step.label, cmd);
        if (step.refused !== undefined) this.refused.add(cmd.id);
        return this.deliver(cmd.id, cmd.raw, where, step.refused);
      }
      case 'resend': {
        const cmd = this.commands.get(step.of);
        if (!cmd) throw new StepFailure(must(R.ack, `${where}: not judged: command "@${step.of}" was never sent`));
        return this.deliver(cmd.id, cmd.raw, where);
      }
      case 'wait':
        for (const s of step.settles) this.failOpen.add(s);
        this.target.elapse(this.scenario.attentionTimeoutMs);
        return;
    }
  }

  /** After a step: the labels it settles are expected released, and every held hook released so far is judged once. */
  async afterStep(step: Step, where: string): Promise<void> {
    for (const s of step.settles) this.expectedSettled.add(s);
    const waitMs = step.kind === 'wait' ? this.scenario.attentionTimeoutMs + this.stepMs : this.stepMs;
    await this.target.settle(() => step.settles.every((s) => this.held.get(s)?.reply !== undefined), step.settles.length ? waitMs : 0);
    this.checkHeld(where);
  }

  private checkHeld(where: string): void {
    for (const [label, { step, reply }] of this.held) {
      if (this.judgedHeld.has(label)) continue;
      if (reply !== undefined && !this.expectedSettled.has(label)) {
        this.judgedHeld.add(label);
        this.record(must(R.hold, `${where}: held hook "@${label}" (${step.hook}) was released early, with ${JSON.stringify(reply)}`));
      } else if (reply === undefined && this.expectedSettled.has(label)) {
        this.judgedHeld.add(label);
        this.record(must(R.hold, `${where}: held hook "@${label}" (${step.hook}) was not released${this.evidence()}`));
      } else if (reply !== undefined) {
        this.judgedHeld.add(label);
        this.checkReply(step, label, reply, where);
      }
    }
  }

  /** Held hooks no step ever released. */
  unsettled(): string[] {
    return [...this.held.keys()].filter((l) => !this.expectedSettled.has(l));
  }
}

/** Every problem the scenario finds; [] when it passes: the steps run through a `ScenarioRun`, then the events judged (`compareEvents`, `judgeEmitted`). */
export async function judgeScenario(scenario: Scenario, target: ScenarioTarget, opts: ScenarioOptions): Promise<ScenarioProblem[]> {
  const run = new ScenarioRun(scenario, target, opts);
  for (const [i, step] of scenario.steps.entries()) {
    const where = `step ${i + 1} (${describe(step)})`;
    try {
      await run.runStep(step, where);
    } catch (err) {
      if (!(err instanceof StepFailure)) throw err;
      run.record(err.problem);
    }
    await run.afterStep(step, where);
  }
  const unsettled = run.unsettled();
  if (unsettled.length) run.record(must(R.hold, `the scenario ends with held hook(s) ${unsettled.map((l) => `"@${l}"`).join(', ')} never released by any step`));
  await target.settle(() => run.relevant().length >= scenario.events.length, run.stepMs);
  await target.settle(() => false, opts.quietMs ?? 0);
  for (const p of await compareEvents(scenario, run.relevant(), (i) => run.matchOf(i), (v, w) => run.resolve(v, w), run.commands)) run.record(p);
  for (const p of judgeEmitted(scenario, target.observed().map((o) => o.event), opts)) run.record(p);
  return run.problems;
}

/** `[must control.ack.one, AEP-0004 §3] step 4 (...): no ack ...`: one problem on one line. */
export function renderProblem(p: ScenarioProblem): string {
  return `[${p.basis} ${p.rule.id}, ${p.rule.section}] ${p.message}`;
}

/** The scenario's problems rendered one per line, or null when it passes. */
export async function runScenario(scenario: Scenario, target: ScenarioTarget, opts: ScenarioOptions): Promise<string | null> {
  const problems = await judgeScenario(scenario, target, opts);
  return problems.length === 0 ? null : problems.map((p) => p.message).join('\n');
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

/**
 * The expected events against the observed ones. Each expected event is matched to the observed
 * event of its type at the same occurrence, so one missing or extra event does not hide the rest.
 */
async function compareEvents(
  scenario: Scenario,
  observed: readonly Observed[],
  matchOf: (index: number) => Observed | undefined,
  resolve: (value: string | undefined, where: string) => Promise<string | undefined>,
  commands: ReadonlyMap<string, { id: string }>,
): Promise<ScenarioProblem[]> {
  const out: ScenarioProblem[] = [];
  const expected = scenario.events;
  const sequence = (list: readonly { type: string }[]): string => list.map((e) => e.type).join(', ') || 'none';
  if (observed.length !== expected.length || observed.some((o, i) => o.event.type !== expected[i]!.type)) {
    out.push(reference(R.sequence, `expected ${expected.length} events (${sequence(expected)}), got ${observed.length} (${types(observed)})`));
  }
  const lines = new Map<string, string>();
  const safe = async (value: string, where: string): Promise<string | undefined> => {
    try {
      return await resolve(value, where);
    } catch (err) {
      if (err instanceof StepFailure) return undefined;
      throw err;
    }
  };
  for (const [i, want] of expected.entries()) {
    const where = `events[${i}] ${want.type}`;
    const match = matchOf(i);
    if (!match) {
      if (OUTCOMES.has(want.type)) out.push(must(R.outcome, `${where}: absent (the stream has ${types(observed)})`));
      continue;
    }
    const { event, line } = match;
    for (const key of ['cause', 'subject', 'run'] as const) {
      if (want[key] === undefined) continue;
      const ref = want[key];
      const value = ref === null ? undefined : await safe(ref, where);
      if (ref !== null && ref.startsWith('@') && value === undefined) continue;
      const label = ref?.startsWith('@') ? ref.slice(1).split('.')[0]! : undefined;
      const toCommand = label !== undefined && commands.has(label);
      const standard = OUTCOMES.has(want.type) && ((key === 'cause' && toCommand) || (key === 'subject' && want.type.startsWith('attention.')));
      if (event[key] === value) continue;
      // AEP-0004 §6: an outcome may name the command or its ack; consumers follow either one hop.
      if (standard && key === 'cause' && toCommand && observed.some((o) => isAck(o.event) && o.event.cause === value && o.event.id === event.cause)) continue;
      const text = `${where}: ${key} ${event[key] === undefined ? 'absent' : JSON.stringify(event[key])}, expected ${value === undefined ? 'absent' : JSON.stringify(value)}${ref?.startsWith('@') ? ` (${ref})` : ''}`;
      out.push(standard ? must(key === 'cause' ? R.outcome : R.subject, text) : reference(R.data, text));
    }
    if (want.capture !== undefined && (event.capture ?? 'metadata') !== want.capture) out.push(reference(R.data, `${where}: capture ${event.capture === undefined ? 'absent' : JSON.stringify(event.capture)}, expected "${want.capture}"`));
    const data = isObject(event.data) ? event.data : {};
    for (const [key, value] of Object.entries(want.data ?? {})) {
      if (!(key in data)) out.push(reference(R.data, `${where}: data.${key} is absent, expected ${canonicalJson(value)}`));
      else if (canonicalJson(data[key]) !== canonicalJson(value)) out.push(reference(R.data, `${where}: data.${key} is ${canonicalJson(data[key])}, expected ${canonicalJson(value)}`));
    }
    if (want.repeat_of !== undefined) {
      const original = lines.get(want.repeat_of.slice(1));
      if (line !== original) out.push(must(R.reack, `${where}: not byte-identical to ${want.repeat_of}: ${line} vs ${original ?? 'nothing'}`));
    }
    if (want.as) lines.set(want.as, line);
  }
  return out;
}
