/**
 * The control-loop scenario format (`conformance/fixtures/control-loop/<adapter>.json`), read
 * and checked before anything runs, so a bad file fails as one fixture error naming the file,
 * the scenario and the step. The format is documented in conformance/README.md.
 *
 * File: `{"adapter": "<agent>", "scenarios": [Scenario...]}`.
 * Scenario: `{name, session, instruct?, env?, attention_timeout_ms?, steps, events}`; `env` is the
 * adapter's own opt-in variables (e.g. `{"AEP_VSCODE_CONTROL": "1"}`), read by its `configure`.
 * Steps, run in order (each may carry `"as": "<label>"`):
 * - `{"hook": "<HookEvent>", "input": {...}, "reply": "<exact stdout>", "held"?: true}`;
 * - `{"command": "<type>", "subject"?, "run"?, "session"?, "data"?, "refused"?: "<code>", "settles"?: [...]}`;
 * - `{"resend": "@<command label>", "settles"?: [...]}`: the identical bytes again;
 * - `{"wait": "attention_timeout", "settles"?: [...]}`.
 * Events: `[{type, as?, data?, cause?, subject?, run?, capture?, repeat_of?}]`, every event the
 * adapter emits, in order. `"@label"` is the id of a labeled event or command, `"@label.run"` a
 * labeled event's run; `null` for cause/subject/run means the attribute is absent.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FixtureError, readJsonFixture } from '../conformance/fixtures.js';

export interface HookStep {
  kind: 'hook';
  label: string;
  hook: string;
  input: Record<string, unknown>;
  reply: string;
  held: boolean;
  settles: string[];
}

export interface CommandStep {
  kind: 'command';
  label: string;
  type: string;
  session?: string;
  subject?: string;
  run?: string;
  data: Record<string, unknown>;
  /** The refusal code this command must get, from the relay (an `error` frame) or the adapter (a nack). */
  refused?: string;
  settles: string[];
}

export interface ResendStep {
  kind: 'resend';
  label: string;
  /** The command label whose bytes are sent again. */
  of: string;
  settles: string[];
}

export interface WaitStep {
  kind: 'wait';
  label: string;
  settles: string[];
}

export type Step = HookStep | CommandStep | ResendStep | WaitStep;

export interface ExpectedEvent {
  type: string;
  as?: string;
  /** Members that must be present with exactly these values; other members are not compared. */
  data?: Record<string, unknown>;
  cause?: string | null;
  subject?: string | null;
  run?: string | null;
  capture?: string;
  /** The event must be byte-identical to this labeled event (a re-emitted ack). */
  repeat_of?: string;
}

export interface Scenario {
  name: string;
  session: string;
  instruct: boolean;
  /** The adapter's opt-in variables for this scenario (its `configure(env)`); default none. */
  env: Record<string, string>;
  /** The hold bound; offline it is elapsed on the fake clock, live the daemon runs with it. Default 30 000. */
  attentionTimeoutMs: number;
  steps: Step[];
  events: ExpectedEvent[];
}

export interface ScenarioFile {
  adapter: string;
  scenarios: Scenario[];
}

export const CONTROL_LOOP_DIR = 'control-loop';
export const DEFAULT_SCENARIO_TIMEOUT_MS = 30_000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The scenario files (`control-loop/*.json`), relative to the corpus, sorted; [] when none. */
export function scenarioFiles(corpusDir: string): string[] {
  try {
    return readdirSync(join(corpusDir, CONTROL_LOOP_DIR)).filter((f) => f.endsWith('.json')).sort().map((f) => `${CONTROL_LOOP_DIR}/${f}`);
  } catch {
    return [];
  }
}

/** The label a reference names: `@perm` → `perm`, `@turn.run` → `turn`; null for a literal. */
export function refLabel(value: unknown): string | null {
  return typeof value === 'string' && value.startsWith('@') ? value.slice(1).split('.')[0]! : null;
}

function readStep(where: string, raw: unknown, index: number): Step {
  if (!isObject(raw)) throw new FixtureError(`${where}: steps[${index}] is not an object`);
  const label = typeof raw.as === 'string' ? raw.as : `step${index + 1}`;
  const settles = Array.isArray(raw.settles) ? raw.settles.map((s) => refLabel(s) ?? '') : [];
  if (raw.settles !== undefined && (!Array.isArray(raw.settles) || settles.includes(''))) throw new FixtureError(`${where}: steps[${index}].settles must be a list of "@label" references to held hooks`);
  const str = (key: string): string | undefined => {
    if (raw[key] !== undefined && typeof raw[key] !== 'string') throw new FixtureError(`${where}: steps[${index}].${key} must be a string`);
    return raw[key] as string | undefined;
  };
  if (typeof raw.hook === 'string') {
    if (!isObject(raw.input) || typeof raw.reply !== 'string') throw new FixtureError(`${where}: hook step ${index + 1} needs an "input" object and the exact "reply" string`);
    return { kind: 'hook', label, hook: raw.hook, input: raw.input, reply: raw.reply, held: raw.held === true, settles };
  }
  if (typeof raw.command === 'string') {
    if (raw.data !== undefined && !isObject(raw.data)) throw new FixtureError(`${where}: steps[${index}].data must be an object`);
    const step: CommandStep = { kind: 'command', label, type: raw.command, data: (raw.data as Record<string, unknown>) ?? {}, settles };
    for (const key of ['session', 'subject', 'run', 'refused'] as const) {
      const value = str(key);
      if (value !== undefined) step[key] = value;
    }
    return step;
  }
  if (typeof raw.resend === 'string') {
    const of = refLabel(raw.resend);
    if (!of) throw new FixtureError(`${where}: steps[${index}].resend must be "@<command label>"`);
    return { kind: 'resend', label, of, settles };
  }
  if (raw.wait === 'attention_timeout') return { kind: 'wait', label, settles };
  throw new FixtureError(`${where}: steps[${index}] must be a hook, command, resend or wait step`);
}

function readEvent(where: string, raw: unknown, index: number): ExpectedEvent {
  if (!isObject(raw) || typeof raw.type !== 'string') throw new FixtureError(`${where}: events[${index}] needs a "type"`);
  if (raw.data !== undefined && !isObject(raw.data)) throw new FixtureError(`${where}: events[${index}].data must be an object`);
  const out: ExpectedEvent = { type: raw.type };
  for (const key of ['as', 'capture', 'repeat_of'] as const) {
    if (raw[key] !== undefined && typeof raw[key] !== 'string') throw new FixtureError(`${where}: events[${index}].${key} must be a string`);
    if (typeof raw[key] === 'string') out[key] = raw[key] as string;
  }
  for (const key of ['cause', 'subject', 'run'] as const) {
    if (raw[key] !== undefined && raw[key] !== null && typeof raw[key] !== 'string') throw new FixtureError(`${where}: events[${index}].${key} must be a string or null`);
    if (raw[key] !== undefined) out[key] = raw[key] as string | null;
  }
  if (raw.data !== undefined) out.data = raw.data as Record<string, unknown>;
  return out;
}

/** Every `@label` a scenario uses must be defined exactly once; settles must name held hooks. */
function checkLabels(where: string, scenario: Scenario): void {
  const labels = new Map<string, string>();
  const define = (label: string, what: string): void => {
    if (labels.has(label)) throw new FixtureError(`${where}: label "${label}" is defined twice`);
    labels.set(label, what);
  };
  for (const step of scenario.steps) define(step.label, step.kind);
  for (const event of scenario.events) if (event.as) define(event.as, 'event');
  const use = (value: unknown, what: string): void => {
    const label = refLabel(value);
    if (label === null) return;
    if (!labels.has(label)) throw new FixtureError(`${where}: ${what} refers to "@${label}", which no step or event defines`);
    if (labels.get(label) !== 'command' && labels.get(label) !== 'event') throw new FixtureError(`${where}: ${what} refers to "@${label}", a ${labels.get(label)} step: refer to a command or an event`);
  };
  for (const step of scenario.steps) {
    if (step.kind === 'command') for (const key of ['session', 'subject', 'run'] as const) use(step[key], `step "${step.label}" ${key}`);
    if (step.kind === 'resend' && labels.get(step.of) !== 'command') throw new FixtureError(`${where}: step "${step.label}" resends "@${step.of}", which is not a command step`);
    for (const s of step.settles) {
      const target = scenario.steps.find((t) => t.label === s);
      if (!target || target.kind !== 'hook' || !target.held) throw new FixtureError(`${where}: step "${step.label}" settles "@${s}", which is not a held hook step`);
    }
  }
  for (const event of scenario.events) for (const key of ['cause', 'subject', 'run', 'repeat_of'] as const) use(event[key], `event ${event.as ?? event.type} ${key}`);
}

/** Read and check one scenario file. Throws FixtureError naming the file and the scenario. */
export function readScenarioFile(corpusDir: string, rel: string): ScenarioFile {
  const file = readJsonFixture(corpusDir, rel);
  if (!isObject(file) || typeof file.adapter !== 'string' || !Array.isArray(file.scenarios)) {
    throw new FixtureError(`${rel}: expected {"adapter": "<agent>", "scenarios": [...]}`);
  }
  const scenarios = file.scenarios.map((raw, i): Scenario => {
    const where = `${rel}: scenario ${isObject(raw) && typeof raw.name === 'string' ? `"${raw.name}"` : `#${i}`}`;
    if (!isObject(raw) || typeof raw.name !== 'string' || typeof raw.session !== 'string' || !Array.isArray(raw.steps) || !Array.isArray(raw.events)) {
      throw new FixtureError(`${where}: needs "name", "session", "steps" and "events"`);
    }
    const timeout = raw.attention_timeout_ms ?? DEFAULT_SCENARIO_TIMEOUT_MS;
    if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 1) throw new FixtureError(`${where}: attention_timeout_ms must be a positive integer`);
    const env = raw.env ?? {};
    if (!isObject(env) || Object.values(env).some((v) => typeof v !== 'string')) throw new FixtureError(`${where}: env must be an object of string values`);
    const scenario: Scenario = {
      name: raw.name,
      session: raw.session,
      instruct: raw.instruct === true,
      env: env as Record<string, string>,
      attentionTimeoutMs: timeout,
      steps: raw.steps.map((s, j) => readStep(where, s, j)),
      events: raw.events.map((e, j) => readEvent(where, e, j)),
    };
    checkLabels(where, scenario);
    return scenario;
  });
  return { adapter: file.adapter, scenarios };
}
