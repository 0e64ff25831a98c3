/**
 * live/mappings: every mapping entry replayed through the adapter daemon's hook endpoint. The
 * event that reaches the relay must equal the pure pin (`{type, data, subject?, step?}`, canonical
 * JSON), be a valid envelope, and carry the adapter's identity mapping: `agent`, the session from
 * `identity.session_from` and, where the input names one, the run from `identity.run_from`.
 * Each entry gets its own session (the input's, suffixed) so entries cannot disturb each other;
 * held hooks are freed by a short attention timeout. Form entries are replayed as the hooks
 * that carry them (AskUserQuestion through PermissionRequest, MCP elicitation through
 * Elicitation), at the default posture and on a second daemon at a metadata attention ceiling.
 * Plugin-shaped sections (`moments`, `todos`, `events`) are replayed as moments-live.ts says.
 */
import type { AdapterDef } from '../../impl/adapter-kit/types.js';
import type { RunningAdapter } from '../../impl/adapter-kit/daemon.js';
import { ADAPTER_MAPPERS, comparePin, mappingSources, pinShape, readMappingFile, type MappingFile } from '../conformance/families/mappings.js';
import { momentReplays, type MomentReplay } from './moments-live.js';
import { describeThrown, fail } from '../conformance/check.js';
import type { Check, CheckBasis, CheckRule } from '../conformance/types.js';
import { captureRank, type CaptureLevel } from '../../impl/core/event.js';
import { isFreeTextPath, renderDiffs, valueDiffs } from '../conformance/value-diff.js';
import type { TargetDeviations } from '../conformance/target-deviations.js';
import { poll, postHook } from './live-target.js';
import { checkFrom, type Problem } from './scenario-check.js';
import { pinBasis, type Declared } from './target-profile.js';
import type { Stack } from './stack.js';

/** How long a replayed hook's event may take to reach the relay. */
const EVENT_MS = 5000;
/** How long to listen for an event that must not come (a `null` pin). */
const QUIET_MS = 200;
/** Attention follow-ups: their `subject` is the request id, runtime state a pure pin cannot hold. */
const FOLLOW_UPS = new Set(['attention.answered', 'attention.resolved', 'attention.timeout']);
/** The hold bound of the replay daemons: held hooks are freed by it. */
const HOLD_MS = 250;

interface Replay {
  name: string;
  hook: string;
  input: Record<string, unknown>;
  /** The pinned `{type, data, subject?, step?}` or null; for forms, the pinned `data` only. */
  expected: unknown;
  form: boolean;
  metadata: boolean;
  /** The entry's join table state (Antigravity): primed through the daemon before the replay. */
  join?: unknown;
}

function replays(file: MappingFile): Replay[] {
  const out: Replay[] = file.hooks.map((h) => ({ name: h.name, hook: String(h.hook ?? h.input.hook_event_name ?? h.input.hookEventName ?? h.input.hookName ?? ''), input: h.input, expected: h.expected, form: false, metadata: false, ...(h.join !== undefined ? { join: h.join } : {}) }));
  for (const f of file.forms) {
    const input: Record<string, unknown> = f.section === 'ask_user_question'
      ? { hook_event_name: 'PermissionRequest', tool_name: 'AskUserQuestion', tool_input: { questions: f.input.questions } }
      : { hook_event_name: 'Elicitation', message: f.input.message, requested_schema: f.input.requestedSchema ?? f.input.requested_schema };
    const hook = input.hook_event_name as string;
    out.push({ name: f.section, hook, input, expected: f.expectedData, form: true, metadata: false });
    out.push({ name: `${f.section} (metadata)`, hook, input, expected: f.expectedDataMetadata, form: true, metadata: true });
  }
  return out;
}

/**
 * The PreToolUse calls that rebuild an entry's join in a daemon: for a join result `{name}`, one
 * at the entry's own `stepIdx`; for a table (`[{conversationId, stepIdx, name}]`), one per row of
 * the entry's conversation.
 */
export function joinPrimes(join: unknown, input: Record<string, unknown>, sessionKey: string): { stepIdx: unknown; name: unknown }[] {
  if (Array.isArray(join)) return (join as Record<string, unknown>[]).filter((row) => row.conversationId === input[sessionKey]).map((row) => ({ stepIdx: row.stepIdx, name: row.name }));
  if (typeof join === 'object' && join !== null && typeof (join as Record<string, unknown>).name === 'string') return [{ stepIdx: input.stepIdx, name: (join as Record<string, unknown>).name }];
  return [];
}

/**
 * Types a daemon adds from its own state around a pinned entry, by source, for mapping files that
 * state them only in prose (the standard's antigravity.json: "session.started on first sight ...
 * runs SYNTHESIZED"). A file's own `identity.synthesized` list wins.
 */
export const DAEMON_SYNTHESIZED: Readonly<Record<string, readonly string[]>> = {
  antigravity: ['session.started', 'run.started'],
};

/** The synthesized types of a file: its `identity.synthesized`, else what DAEMON_SYNTHESIZED says of its source. */
export function synthesizedTypes(file: MappingFile): Set<string> {
  const own = (file.identity as Record<string, unknown>).synthesized;
  return new Set(Array.isArray(own) ? (own as string[]) : DAEMON_SYNTHESIZED[file.source] ?? []);
}

/** The field name an identity rule starts with (`"session_id (the serializer ...)"` → `session_id`); dotted paths kept. */
export function identityField(rule: unknown): string | undefined {
  if (typeof rule !== 'string') return undefined;
  const m = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(rule.trim());
  return m ? m[0] : undefined;
}

/** The value at a dotted path (`extra.turn_id`). */
function at(input: Record<string, unknown>, path: string): unknown {
  let v: unknown = input;
  for (const part of path.split('.')) v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[part] : undefined;
  return v;
}

/** How one entry is judged: the basis of its pin, whether it runs against a `--target`, the daemon's ceiling. */
interface EntryJudge {
  basis: 'pin' | 'reference';
  target: boolean;
  /**
   * How long to wait for the pinned event: the full bound, or (a `reference` pin a `standard`
   * run does not judge) a short quiet period, since only what did arrive is judged.
   */
  patienceMs: number;
  /** The daemon's capture ceiling for an event type. */
  ceiling: (type: string) => CaptureLevel;
  member: string;
}

const RULES = {
  endpoint: { id: 'hook.endpoint', section: 'AEP-0003 §3' },
  valid: { id: 'event.valid', section: 'AEP-0001 §5' },
  ceiling: { id: 'capture.ceiling', section: 'AEP-0001 §8' },
  session: { id: 'mapping.identity.session', section: 'AEP-0002 Annex A' },
  run: { id: 'mapping.identity.run', section: 'AEP-0002 Annex A' },
  pin: { id: 'mapping.pin', section: 'AEP-0002 Annex A' },
  reference: { id: 'mapping.reference-pin', section: 'AEP-0002 Annex A' },
} as const satisfies Record<string, CheckRule>;

/**
 * One entry's verdict as problems: the MUSTs (a 200 reply, valid events, the capture ceiling),
 * the session identity (a pin: the mapping's key rule), and the comparison with the pin, one
 * problem per differing member (free text by presence when the pin is the standard's). Against a
 * `--target`, the run id is left to the control-loop scenarios' run-id properties.
 */
class Verdicts {
  readonly problems: Problem[] = [];
  constructor(private readonly j: EntryJudge) {}
  get patienceMs(): number {
    return this.j.patienceMs;
  }
  must(rule: CheckRule, message: string): null {
    this.problems.push({ basis: 'must', rule, message });
    return null;
  }
  pinned(message: string, basis: CheckBasis = this.j.basis, rule: CheckRule = this.j.basis === 'pin' ? RULES.pin : RULES.reference, member = this.j.member): null {
    this.problems.push({ basis, rule, message, member });
    return null;
  }
  /** Every differing member of the pin, each its own problem. */
  compare(expected: unknown, actual: unknown, prefix = ''): null {
    const diffs = valueDiffs(expected, actual, this.j.basis === 'pin' ? { freeText: isFreeTextPath } : {});
    for (const d of diffs) this.pinned(`${prefix}${renderDiffs([d])}`, this.j.basis, undefined, `${this.j.member}#${d.path}`);
    return null;
  }
  /** A delivered event: valid, and within the daemon's capture ceiling. */
  event(e: Record<string, unknown>, validate: (e: unknown) => string | null): void {
    const invalid = validate(e);
    if (invalid) this.must(RULES.valid, `the delivered ${String(e.type)} is not valid: ${invalid}`);
    const level = (typeof e.capture === 'string' ? e.capture : 'metadata') as CaptureLevel;
    const ceiling = this.j.ceiling(String(e.type));
    if (captureRank(level) > captureRank(ceiling)) this.must(RULES.ceiling, `the delivered ${String(e.type)} declares capture "${level}" above the daemon's ceiling "${ceiling}"`);
  }
}

async function replayOne(stack: Stack, daemon: RunningAdapter, file: MappingFile, replay: Replay, n: number, validate: (e: unknown) => string | null, v: Verdicts, target: boolean): Promise<null> {
  if (!replay.hook) return v.must(RULES.endpoint, 'the entry input has no hook_event_name (or hookEventName), so it cannot be replayed through the hook endpoint');
  const sessionKey = identityField(file.identity.session_from) ?? 'session_id';
  const session = `${String(replay.input[sessionKey] ?? 'mapping')}~live${n}`;
  const input = { ...replay.input, [sessionKey]: session };
  const agent = file.source;
  // Rebuild the entry's join in the daemon (Antigravity): one PreToolUse carrying the joined name at
  // the entry's stepIdx (the join result `{name}`), or one per row of this conversation (a table).
  for (const row of joinPrimes(replay.join, replay.input, sessionKey)) {
    const before = stack.client.frames.length;
    await postHook(daemon.url, 'PreToolUse', { [sessionKey]: session, stepIdx: row.stepIdx, toolCall: { name: row.name, args: {} } });
    await poll(() => stack.client.frames.slice(before).some((f) => f.json?.type === 'tool.requested' && f.json.session === session), EVENT_MS);
  }
  // Agent-scoped events (agent.*) carry no session: those arriving after this entry's POST are its own too.
  const mark = stack.client.frames.length;
  const mine = () => stack.client.frames.slice(mark).filter((f) => typeof f.json?.aep === 'string' && f.json.agent === agent && (f.json.session === session || f.json.session === undefined));
  const reply = postHook(daemon.url, replay.hook, input);
  if (Array.isArray(replay.expected)) return replayArray(replay, mine, reply, session, file, validate, v, target);
  if (replay.expected === null) {
    const { status } = await reply;
    if (status !== 200) return v.must(RULES.endpoint, `the daemon answered HTTP ${status}`);
    await poll(() => mine().length > 0, QUIET_MS);
    for (const f of mine()) v.event(f.json!, validate);
    return mine().length === 0 ? null : v.pinned(`expected no event, the relay delivered ${mine().map((f) => String(f.json!.type)).join(', ')}`);
  }
  // The event of the pinned type: an adapter may emit companions around it (a reconstructed request before an orphan answer).
  const pinnedType = !replay.form && typeof replay.expected === 'object' && replay.expected !== null ? (replay.expected as { type?: unknown }).type : undefined;
  await poll(() => (pinnedType === undefined ? mine().length > 0 : mine().some((f) => f.json?.type === pinnedType)), v.patienceMs);
  const first = mine().find((f) => f.json?.type === pinnedType) ?? mine()[0];
  const { status } = await reply;
  if (status !== 200) v.must(RULES.endpoint, `the daemon answered HTTP ${status}`);
  for (const f of mine()) v.event(f.json!, validate);
  if (!first) return v.pinned(`no event reached the relay within ${EVENT_MS} ms; the pin expects ${pinnedType === undefined ? 'one' : String(pinnedType)}${stack.evidence() ? `; ${stack.evidence()}` : ''}`);
  const event = first.json!;
  const agentScoped = String(event.type).startsWith('agent.');
  if (agentScoped ? event.session !== undefined : event.session !== session) v.pinned(`session ${event.session === undefined ? 'absent' : JSON.stringify(event.session)}, expected ${agentScoped ? 'absent (agent.* is agent-scoped)' : `${JSON.stringify(session)} (from ${sessionKey})`}`, 'pin', RULES.session, `${file.source}/identity#session`);
  const runKey = identityField(file.identity.run_from);
  const run = runKey === undefined ? undefined : at(replay.input, runKey);
  // Our derivation of run ids is ours: a target is held to the run-id properties instead (control-loop).
  if (typeof run === 'string' && !String(event.type).startsWith('session.') && event.run !== run) v.pinned(`run ${event.run === undefined ? 'absent' : JSON.stringify(event.run)}, expected ${JSON.stringify(run)} (from ${runKey})`, 'reference', RULES.run, `${file.source}/identity#run`);
  if (replay.form) return v.compare(replay.expected, event.data, 'data ');
  // A follow-up's subject is the id of the request it follows: runtime wiring, so a pin leaves it
  // out. Live, it must name a request this entry's replay delivered; the rest is compared as pinned.
  const pin = pinShape(replay.expected) as Record<string, unknown>;
  if (FOLLOW_UPS.has(String(event.type)) && pin.subject === undefined && event.subject !== undefined) {
    const requests = mine().filter((f) => f.json!.type === 'attention.requested').map((f) => f.json!.id);
    if (!requests.includes(event.subject)) v.must({ id: 'attention.subject', section: 'AEP-0004 §6' }, `subject ${JSON.stringify(event.subject)} names no attention.requested delivered for this entry`);
    return v.compare(pin, pinShape({ ...event, subject: undefined }));
  }
  return v.compare(pin, pinShape(withoutMintedCallId(pin, event)));
}

/**
 * A call id the adapter minted (the vendor names no call, e.g. Gemini CLI's BeforeTool) is runtime
 * state a pure pin cannot hold: when the pin's `data.tool` has no `call_id`, a delivered non-empty
 * string one is set aside and the rest compared as pinned.
 */
export function withoutMintedCallId(pin: Record<string, unknown>, event: Record<string, unknown>): Record<string, unknown> {
  const obj = (v: unknown): Record<string, unknown> | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);
  const pinnedTool = obj(obj(pin.data)?.tool);
  const data = obj(event.data);
  const tool = obj(data?.tool);
  if (!pinnedTool || 'call_id' in pinnedTool || !tool || typeof tool.call_id !== 'string' || tool.call_id === '') return event;
  const { call_id: _minted, ...rest } = tool;
  return { ...event, data: { ...data, tool: rest } };
}

/**
 * An array pin (the array mappers): every pinned event must arrive, in order, and nothing more
 * within a short quiet period. Types the file's `identity.synthesized` list names (events the
 * daemon adds from its own state, e.g. a synthesized `session.started`) are skipped unless pinned.
 * Answer/terminal events of observed cards carry the pairing key as subject in the pin; an entry
 * replayed alone is unpaired, so the daemon emits them as pinned.
 */
async function replayArray(
  replay: Replay,
  mine: () => { json?: Record<string, unknown> }[],
  reply: Promise<{ status: number }>,
  session: string,
  file: MappingFile,
  validate: (e: unknown) => string | null,
  v: Verdicts,
  target: boolean,
): Promise<null> {
  const expected = replay.expected as unknown[];
  const synthesized = synthesizedTypes(file);
  const pinnedTypes = new Set(expected.map((e) => (typeof e === 'object' && e !== null ? String((e as Record<string, unknown>).type) : '')));
  const delivered = () => mine().map((f) => f.json!).filter((e) => pinnedTypes.has(String(e.type)) || !synthesized.has(String(e.type)));
  const { status } = await reply;
  if (status !== 200) return v.must(RULES.endpoint, `the daemon answered HTTP ${status}`);
  await poll(() => delivered().length >= expected.length, v.patienceMs);
  await new Promise((r) => setTimeout(r, expected.length === 0 ? QUIET_MS : 50));
  const events = delivered();
  for (const event of events) {
    v.event(event, validate);
    const agentScoped = String(event.type).startsWith('agent.');
    if (!agentScoped && event.session !== session) v.pinned(`${String(event.type)}: session ${event.session === undefined ? 'absent' : JSON.stringify(event.session)}, expected ${JSON.stringify(session)}`, 'pin', RULES.session, `${file.source}/identity#session`);
  }
  const runKey = identityField(file.identity.run_from);
  const run = runKey === undefined ? undefined : at(replay.input, runKey);
  if (typeof run === 'string' && !target) {
    const off = events.find((e) => !String(e.type).startsWith('session.') && !String(e.type).startsWith('x.') && e.run !== run);
    if (off) v.pinned(`${String(off.type)} has run ${off.run === undefined ? 'absent' : JSON.stringify(off.run)}, expected ${JSON.stringify(run)} (from ${runKey})`, 'reference', RULES.run, `${file.source}/identity#run`);
  }
  return v.compare(pinShape(expected), pinShape(events));
}

/** One plugin-shaped entry through the daemon: its setup POSTs, then the entry, then the pinned event(s). */
async function replayMoment(stack: Stack, daemon: RunningAdapter, agent: string, replay: MomentReplay, n: number, validate: (e: unknown) => string | null, v: Verdicts): Promise<null> {
  const session = `live-${agent}-${n}`;
  const bound = replay.bind(session);
  const ofSession = (from: number) => stack.client.frames.slice(from).filter((f) => typeof f.json?.aep === 'string' && f.json.agent === agent && f.json.session === session);
  for (const prelude of bound.preludes) {
    const { status } = await postHook(daemon.url, prelude.hook, prelude.input);
    if (status !== 200) return v.must(RULES.endpoint, `a setup moment (${prelude.hook}) got HTTP ${status}`);
  }
  if (bound.preludes.length > 0) await poll(() => false, QUIET_MS);
  const mark = stack.client.frames.length;
  const reply = postHook(daemon.url, bound.post.hook, bound.post.input);
  const want = Array.isArray(bound.expected) ? bound.expected.length : bound.expected === null ? 0 : 1;
  await poll(() => ofSession(mark).length >= Math.max(want, 1), want === 0 ? QUIET_MS : v.patienceMs);
  if (want !== 1) await poll(() => false, QUIET_MS);
  const { status } = await reply;
  if (status !== 200) return v.must(RULES.endpoint, `the daemon answered HTTP ${status}`);
  const events = ofSession(mark).map((f) => f.json!);
  for (const event of events) v.event(event, validate);
  if (bound.expected === null) return events.length === 0 ? null : v.pinned(`expected no event, the relay delivered ${String(events[0]!.type)}`);
  if (Array.isArray(bound.expected)) {
    if (events.length !== bound.expected.length) return v.pinned(`expected ${bound.expected.length} event(s), the relay delivered ${events.length} (${events.map((e) => e.type).join(', ') || 'none'})`);
    return v.compare(bound.expected.map(pinShape), events.map(pinShape));
  }
  if (!events[0]) return v.pinned(`no event reached the relay within ${EVENT_MS} ms`);
  return v.compare(pinShape(bound.expected), pinShape(events[0]));
}

/** How `liveMappings` judges: against a `--target` (its profile, declarations, deviations) or our own adapters (every aspect). */
export interface MappingsJudge {
  /** Whether this run certifies an external daemon (run ids then go to the control-loop properties). */
  target?: boolean;
  /** `standard`: `must` and `pin` problems only; default `reference` (every aspect). */
  profile?: 'standard' | 'reference';
  /** Whether `corpusDir` is this package's own corpus (its hook pins are ours: `reference`). */
  ownCorpus?: boolean;
  deviations?: TargetDeviations;
  deviationsFile?: string;
  /** What the target's hello declares (forms, steering); undefined: everything (our own adapters). */
  declared?: (agent: string) => Declared | undefined;
}

/** Replay every mapping entry of every source with an adapter; one check per entry. */
export async function liveMappings(
  stack: Stack,
  corpusDir: string,
  adapters: Readonly<Record<string, AdapterDef>>,
  validate: (e: unknown) => string | null,
  selects: (checkName: string) => boolean = () => true,
  judge: MappingsJudge = {},
): Promise<Check[]> {
  const checks: Check[] = [];
  let n = 0;
  const standard = judge.profile === 'standard';
  for (const source of mappingSources(corpusDir).filter((s) => adapters[s])) {
    const file = readMappingFile(corpusDir, source);
    const def = adapters[source]!;
    const all = replays(file).filter((r) => selects(`live/mappings/${source}/${r.name}`));
    // The plugin-shaped sections (moments, todos, events): a file may hold only those (pi, OpenCode, Kilo Code).
    const moments = (ADAPTER_MAPPERS[source] ? momentReplays(file, ADAPTER_MAPPERS[source]!) : []).filter((r) => selects(`live/mappings/${source}/${r.name}`));
    if (all.length === 0 && moments.length === 0) continue;
    let daemon: RunningAdapter;
    let metadata: RunningAdapter;
    try {
      daemon = await stack.adapter(def, { attentionTimeoutMs: HOLD_MS });
      metadata = all.some((r) => r.metadata) ? await stack.adapter(def, { attentionTimeoutMs: HOLD_MS, posture: { ceiling: 'metadata', attention: 'metadata' } }) : daemon;
    } catch (err) {
      // A daemon that cannot start or link fails every entry it would have replayed, each saying why.
      for (const r of all) checks.push({ ...fail(`live/mappings/${source}/${r.name}`, describeThrown(err)), basis: 'must', rule: RULES.endpoint });
      continue;
    }
    const declared = judge.declared?.(def.agent);
    const one = async (name: string, basis: 'pin' | 'reference', ceiling: (type: string) => CaptureLevel, body: (v: Verdicts) => Promise<null>): Promise<void> => {
      const v = new Verdicts({ basis, target: judge.target === true, ceiling, patienceMs: standard && basis === 'reference' ? QUIET_MS * 2 : EVENT_MS, member: name.replace(/^live\/mappings\//, '') });
      try {
        await body(v);
      } catch (err) {
        checks.push({ ...fail(name, describeThrown(err)), basis: 'must', rule: RULES.endpoint });
        return;
      }
      const problems = standard ? v.problems.filter((p) => p.basis !== 'reference') : v.problems;
      checks.push(checkFrom(name, problems, { passBasis: standard && basis === 'reference' ? 'must' : basis, passRule: standard && basis === 'reference' ? RULES.valid : basis === 'pin' ? RULES.pin : RULES.reference, ...(judge.deviations ? { deviations: judge.deviations } : {}), ...(judge.deviationsFile ? { deviationsFile: judge.deviationsFile } : {}) }));
    };
    for (const replay of all) {
      const name = `live/mappings/${source}/${replay.name}`;
      const basis = pinBasis(judge.ownCorpus !== false, replay.form ? replay.name.replace(/ \(metadata\)$/, '') : 'hooks');
      const form = replay.form || isFormHook(replay);
      if (form && declared && !declared.forms) {
        checks.push({ name, status: 'skip', basis, rule: RULES.pin, detail: `not declared: the target's hello does not declare forms (capabilities.experimental.forms), so its form mapping is not judged`, excusedBy: "the target's hello" });
        continue;
      }
      await one(name, basis, replay.metadata ? () => 'metadata' : defaultCeiling, (v) => replayOne(stack, replay.metadata ? metadata : daemon, file, replay, n++, validate, v, judge.target === true));
    }
    for (const replay of moments) {
      const name = `live/mappings/${source}/${replay.name}`;
      await one(name, pinBasis(judge.ownCorpus !== false, 'moments'), defaultCeiling, (v) => replayMoment(stack, daemon, def.agent, replay, n++, validate, v));
    }
    await daemon.close();
    if (metadata !== daemon) await metadata.close();
  }
  return checks;
}

/** The default posture's ceiling (adapter-kit/capture.ts): metadata, attention.* redacted. */
const defaultCeiling = (type: string): CaptureLevel => (type.startsWith('attention.') ? 'redacted' : 'metadata');

/** A hook entry that carries a form (AskUserQuestion through PermissionRequest, an MCP elicitation). */
function isFormHook(replay: Replay): boolean {
  return (replay.hook === 'PermissionRequest' && replay.input.tool_name === 'AskUserQuestion') || replay.hook === 'Elicitation';
}
