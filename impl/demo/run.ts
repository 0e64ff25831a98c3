/**
 * `npm run demo` / `aep demo`: the whole loop on one machine, with real processes. A tokened
 * relay, the Claude Code adapter daemon fed synthetic hooks, the demo agent, an `aep tail`
 * consumer, and the operator verbs, playing five beats; each beat is checked against what the
 * relay actually holds. Everything is torn down at the end, and when interrupted.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchReplay } from '../operator/stream.js';
import type { RelayTarget } from '../operator/relay-opts.js';
import { ALLOW_REPLY, healthz, postHook } from './hooks.js';
import { Procs, type Proc } from './procs.js';
import { freePort } from '../relay/fleet/local-nats.js';
import { InOrder } from './beat-order.js';

type Json = Record<string, unknown>;

export interface Beat {
  name: string;
  ok: boolean;
  detail: string;
}

export interface DemoIo {
  /** The narrative and the timeline. */
  out(line: string): void;
  /** Progress. */
  progress(line: string): void;
  stop: Promise<string>;
}

class Interrupted extends Error {}

/** The five beats, in the order the README tells them and the demo prints them (it plays 2, 3, 5, 4, then closes 1; beat-order.ts holds the early ones). */
export const BEATS = [
  'a session and run lifecycle',
  'tools, including a failure',
  'an attention request answered over control',
  'a cancel with its ack and outcome',
  'a consumer killed and reattached receives exactly the tail',
];
const rank = (name: string): number => (BEATS.includes(name) ? BEATS.indexOf(name) : BEATS.length);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Watching the demo in `aep console`: the console's port (0: a free one), and how long to wait before the beats (ms) so the page can be opened. */
export interface DemoConsole {
  port: number;
  leadMs: number;
}

/** A beat's verdict, decided from what the relay holds (pure). */
export interface Verdict {
  ok: boolean;
  detail: string;
}

/** Beat 2: the tool events of the session. */
export function judgeTools(types: readonly string[]): Verdict {
  const ok = ['session.started', 'run.started', 'tool.requested', 'tool.completed', 'tool.failed'].every((x) => types.includes(x));
  return { ok, detail: `${types.filter((x) => x.startsWith('tool.')).join(', ')}` };
}

/** Beat 3: `aep respond`'s exit, the held hook's reply, and the request's events. */
export function judgeAttention(code: number | null, replyBody: string, types: readonly string[]): Verdict {
  const ok = code === 0 && replyBody === ALLOW_REPLY && ['attention.requested', 'control.attention.respond', 'control.accepted', 'attention.answered', 'attention.resolved'].every((x) => types.includes(x));
  return { ok, detail: `aep respond exit ${code}; the held hook replied ${replyBody === ALLOW_REPLY ? 'allow' : JSON.stringify(replyBody)}` };
}

/** Beat 5: the consumer's two runs join into the relay's sequence, the second starting after the saved position. */
export function judgeTail(firstRun: readonly number[], second: readonly number[], all: readonly number[], lastSeq: number): Verdict {
  const exact = JSON.stringify([...firstRun, ...second]) === JSON.stringify(all);
  return {
    ok: exact && second[0] === lastSeq + 1,
    detail: `first run ${firstRun[0]}..${firstRun.at(-1)}, after the restart ${second[0]}..${second.at(-1)}; relay ${all[0]}..${all.at(-1)}: ${exact ? 'no gap, no duplicate' : 'MISMATCH'}`,
  };
}

/** Beat 4: `aep cancel`'s exit, and its ack and outcome cause-linked to the command. */
export function judgeCancel(code: number | null, events: readonly Json[], cmdId: unknown): Verdict {
  const ack = events.find((e) => e.type === 'control.accepted' && e.cause === cmdId);
  const outcome = events.find((e) => e.type === 'run.cancelled' && e.cause === cmdId);
  return { ok: code === 0 && !!ack && !!outcome, detail: `aep cancel exit ${code}; control.accepted ${ack ? 'and run.cancelled both' : 'or run.cancelled NOT'} cause-linked to ${String(cmdId)}` };
}

/** Beat 1: the lifecycle events, in order. */
export function judgeLifecycle(types: readonly string[]): Verdict {
  const lifecycle = ['session.started', 'run.started', 'run.finished', 'session.ended'];
  const ok = lifecycle.every((x) => types.includes(x)) && types.indexOf('session.started') < types.indexOf('run.started') && types.indexOf('run.finished') < types.indexOf('session.ended');
  return { ok, detail: lifecycle.join(' → ') };
}

const types = (events: Json[]) => events.map((e) => e.type as string);

/** What every step of a demo shares: the processes, the relay, the adapter, the session and how beats are told. */
interface Stage {
  io: DemoIo;
  procs: Procs;
  work: string;
  url: string;
  ops: string[];
  adapterUrl: string;
  /** The console's port and URL, when watched. */
  consolePort?: number;
  at?: string;
  S: string;
  base: Json;
  turn: Json;
  history(session: string): Promise<Json[]>;
  beat(name: string, verdict: Verdict): void;
  check(): void;
}

/** The relay, the console when asked for, and the Claude Code adapter linked to the relay. */
async function startCast(io: DemoIo, procs: Procs, token: string, opts: { console?: DemoConsole }, check: () => void): Promise<{ url: string; adapterUrl: string; consolePort?: number; at?: string; t: RelayTarget }> {
  const consolePort = opts.console ? (opts.console.port === 0 ? await freePort() : opts.console.port) : undefined;
  const origin = consolePort === undefined ? undefined : `http://127.0.0.1:${consolePort}`;
  io.progress(`starting a relay (AEP_TOKEN set, port 0${origin ? `, readable by ${origin}` : ''})`);
  const relayProc = procs.start('relay', ['relay', '--port', '0'], origin ? { AEP_CORS_ORIGINS: origin } : {});
  const url = (await relayProc.line(/listening on http:/)).split(' ').at(-1)!;
  check();
  let at: string | undefined;
  if (consolePort !== undefined) {
    // The token reaches the console through AEP_TOKEN (procs' environment), never its argv.
    const watcher = procs.start('console', ['console', '--relay', url, '--port', String(consolePort)]);
    // The URL carries the console's launch secret: the page opens only from it.
    at = /(http:\/\/[0-9.]+:\d+\/\S*)/.exec(await watcher.line(/listening on http:/))![1]!;
    io.out(`watch it in the console: ${at}  (the beats start in ${Math.round(opts.console!.leadMs / 1000)} s)`);
    await until(() => false, opts.console!.leadMs, '').catch((err: unknown) => {
      if (err instanceof Interrupted) throw err;
    });
    check();
  }
  io.progress(`relay at ${url}; starting the Claude Code adapter daemon`);
  const adapter = procs.start('adapter', ['adapter', 'claude-code', '--port', '0', '--relay', url]);
  const adapterUrl = /(http:\/\/[0-9.]+:\d+)/.exec(await adapter.line(/listening on http:/))![1]!;
  await until(async () => (await healthz(adapterUrl))?.relay === true, 10_000, 'the adapter to say hello to the relay');
  check();
  return { url, adapterUrl, ...(consolePort !== undefined ? { consolePort } : {}), ...(at !== undefined ? { at } : {}), t: { relay: url, token } };
}

/** Beats 1 and 2, first part: a session, a run, tools (one fails). */
async function playTools(s: Stage): Promise<void> {
  const { adapterUrl, base, turn, S } = s;
  s.io.progress(`synthetic Claude Code session ${S}: SessionStart, a prompt, two tool calls (one fails)`);
  await postHook(adapterUrl, 'SessionStart', { ...base, source: 'startup' });
  await postHook(adapterUrl, 'UserPromptSubmit', { ...turn, prompt: 'run the tests and fix what fails' });
  await postHook(adapterUrl, 'PreToolUse', { ...turn, tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_1' });
  await postHook(adapterUrl, 'PostToolUse', { ...turn, tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: { stdout: 'src', stderr: '' }, tool_use_id: 'toolu_1' });
  await postHook(adapterUrl, 'PreToolUse', { ...turn, tool_name: 'Edit', tool_input: { file_path: 'src/a.ts' }, tool_use_id: 'toolu_2' });
  await postHook(adapterUrl, 'PostToolUseFailure', { ...turn, tool_name: 'Edit', tool_input: { file_path: 'src/a.ts' }, tool_use_id: 'toolu_2', error: 'old_string not found' });
  await until(async () => types(await s.history(S)).includes('tool.failed'), 5000, 'the tool events to reach the relay');
  s.check();
  s.beat('tools, including a failure', judgeTools(types(await s.history(S))));
}

const seqsOf = (events: Json[], session: string) => events.filter((e) => e.session === session && typeof e.seq === 'number').map((e) => e.seq as number);
const consumed = (p: Proc) => p.out.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Json);

/** Beat 5, first half: the consumer saw everything so far, saved its position once quiet, and is killed. */
async function killConsumer(s: Stage, consumer: Proc, state: string): Promise<{ firstRun: number[]; lastSeq: number }> {
  const S = s.S;
  const lastSeq = Math.max(...seqsOf(await s.history(S), S));
  await until(() => seqsOf(consumed(consumer), S).includes(lastSeq), 5000, 'the consumer to print the events');
  await until(() => {
    try {
      // State file version 2: positions per session, then per source (AEP-0001 §7.4).
      const bySource = (JSON.parse(readFileSync(state, 'utf8')) as { positions: Record<string, Record<string, { seq: number }>> }).positions[S] ?? {};
      return Object.values(bySource).some((p) => p.seq === lastSeq);
    } catch {
      return false;
    }
  }, 5000, 'the consumer to save its position');
  const firstRun = seqsOf(consumed(consumer), S);
  s.io.progress(`killing the consumer (SIGKILL) after seq ${lastSeq}; its state file says ${lastSeq}`);
  consumer.child.kill('SIGKILL');
  await consumer.exited;
  return { firstRun, lastSeq };
}

/** Beat 3: a permission prompt held by the adapter, answered from a terminal. */
async function playAttention(s: Stage): Promise<void> {
  const { adapterUrl, turn, S, ops, procs } = s;
  s.io.progress('the agent asks permission for `npm test` (PermissionRequest, held by the adapter)');
  await postHook(adapterUrl, 'PreToolUse', { ...turn, tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_use_id: 'toolu_3' });
  const held = postHook(adapterUrl, 'PermissionRequest', { ...turn, tool_name: 'Bash', tool_input: { command: 'npm test' } });
  let inbox: Array<{ session: string; id: string; commands: string[] }> = [];
  await until(async () => {
    const r = await procs.run(['tail', '--attention', '--json', '--session', S, ...ops]);
    inbox = r.code === 0 ? JSON.parse(r.out || '[]') : [];
    return inbox.length > 0;
  }, 10_000, 'the request to show in aep tail --attention');
  const command = inbox[0]!.commands.find((c) => c.includes('--option allow')) ?? `aep respond ${S} ${inbox[0]!.id} --option allow`;
  s.io.out(`  aep tail --attention lists it; the operator types: ${command}`);
  const answered = await procs.run(['respond', S, inbox[0]!.id, '--option', 'allow', ...ops]);
  const reply = await held;
  await postHook(adapterUrl, 'PostToolUse', { ...turn, tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_response: { stdout: 'ok', stderr: '' }, tool_use_id: 'toolu_3' });
  await postHook(adapterUrl, 'Stop', { ...turn, stop_hook_active: false });
  await until(async () => types(await s.history(S)).includes('run.finished'), 5000, 'run.finished');
  s.beat('an attention request answered over control', judgeAttention(answered.code, reply.body, types(await s.history(S))));
  s.check();
}

/** Beat 5, second half: the consumer comes back and receives exactly the tail. */
async function reattach(s: Stage, state: string, first: { firstRun: number[]; lastSeq: number }): Promise<void> {
  s.io.progress('reattaching the consumer with the same state file');
  const consumer = s.procs.start('tail', ['tail', '--json', '--state', state, ...s.ops]);
  const all = seqsOf(await s.history(s.S), s.S);
  await until(() => seqsOf(consumed(consumer), s.S).includes(Math.max(...all)), 10_000, 'the reattached consumer to catch up');
  await sleep(300);
  s.beat('a consumer killed and reattached receives exactly the tail', judgeTail(first.firstRun, seqsOf(consumed(consumer), s.S), all, first.lastSeq));
  s.check();
}

/** Beat 4: a cancel, its ack and its outcome (the demo agent: a vendor hook cannot be cancelled); then beat 1 closes. */
async function playCancelAndEnd(s: Stage): Promise<void> {
  const D = `demo-agent-${randomBytes(3).toString('hex')}`;
  s.io.progress(`starting aep demo-agent (session ${D}, run demo-run) and cancelling its run`);
  s.procs.start('demo-agent', ['demo-agent', '--session', D, '--run', 'demo-run', ...s.ops]);
  await until(async () => types(await s.history(D)).includes('attention.requested'), 10_000, 'the demo agent');
  const cancel = await s.procs.run(['cancel', D, '--run', 'demo-run', '--reason', 'demo: wrong branch', '--json', ...s.ops]);
  const cmdId = cancel.code === 0 ? (JSON.parse(cancel.out) as Json).command : undefined;
  await until(async () => types(await s.history(D)).includes('run.cancelled'), 5000, 'run.cancelled').catch(() => undefined);
  s.beat('a cancel with its ack and outcome', judgeCancel(cancel.code, await s.history(D), cmdId));

  await postHook(s.adapterUrl, 'SessionEnd', { ...s.base, reason: 'logout' });
  await until(async () => types(await s.history(s.S)).includes('session.ended'), 5000, 'session.ended');
  s.beat(BEATS[0]!, judgeLifecycle(types(await s.history(s.S))));
}

/** The session's causal tree; with the console, one request left open for its inbox and the cast kept up until the stop signal. */
async function showAndLinger(s: Stage, order: InOrder, interrupted: () => string | undefined, linger: () => void): Promise<void> {
  s.io.out('');
  s.io.out(`aep timeline ${s.S} --dag`);
  const dag = await s.procs.run(['timeline', s.S, '--dag', ...s.ops]);
  for (const l of dag.out.split('\n')) if (l !== '') s.io.out(`  ${l}`);
  if (s.consolePort === undefined || interrupted()) return;
  for (const l of order.rest()) s.io.out(l);
  // One request left open for the console's inbox: the demo agent's, answered from the page.
  const I = `demo-inbox-${randomBytes(3).toString('hex')}`;
  s.procs.start('demo-agent', ['demo-agent', '--session', I, '--run', 'inbox-run', ...s.ops]);
  await until(async () => types(await s.history(I)).includes('attention.requested'), 10_000, 'the inbox demo agent').catch(() => undefined);
  s.io.out('');
  s.io.out(`a permission request waits in the console's inbox (session ${I}): answer it there`);
  s.io.out(`everything stays up for the console (${s.at ?? `http://127.0.0.1:${s.consolePort}/`}); Ctrl-C stops it`);
  linger();
  await s.io.stop;
}

/**
 * With `opts.console`, the demo's relay lets the console's origin read it, `aep console` watches
 * it (its URL is printed before the beats), and after the beats everything stays up until the
 * stop signal, so the lanes, the answered request and the cancelled run can be looked at.
 */
export async function runDemo(io: DemoIo, opts: { keepWork?: boolean; console?: DemoConsole } = {}): Promise<{ beats: Beat[]; interrupted?: string; lingered?: boolean }> {
  const work = mkdtempSync(join(tmpdir(), 'aep-demo-'));
  const token = `demo-${randomBytes(8).toString('hex')}`;
  const procs = new Procs({ ...process.env, AEP_TOKEN: token, AEP_HOME: join(work, 'home'), AEP_CLAUDE_CODE_HOLD_MS: '30000' });
  const beats: Beat[] = [];
  let interrupted: string | undefined;
  let lingering = false;
  let lingered = false;
  void io.stop.then((s) => {
    if (lingering) lingered = true;
    else interrupted = s;
    io.progress(`${s}: tearing everything down`);
    void procs.stopAll();
  });
  abortWaits = () => interrupted;
  const check = (): void => {
    if (interrupted) throw new Interrupted(interrupted);
  };
  const order = new InOrder();
  const beat = (name: string, { ok, detail }: Verdict): void => {
    beats.push({ name, ok, detail });
    const n = BEATS.indexOf(name) + 1;
    const line = `${ok ? '✔' : '✘'} ${n > 0 ? `beat ${n}` : 'demo'}: ${name}: ${detail}`;
    if (n === 0) {
      for (const l of order.rest()) io.out(l); // the held beats first, then what stopped the demo
      io.out(line);
    } else for (const l of order.add(n - 1, line)) io.out(l);
  };
  try {
    const cast = await startCast(io, procs, token, opts, check);
    const ops = ['--relay', cast.url];
    const state = join(work, 'tail-state.json');
    io.progress('starting a consumer: aep tail --json --all --state FILE');
    const consumer: Proc = procs.start('tail', ['tail', '--json', '--all', '--state', state, ...ops]);
    await consumer.line(/connected to/);
    const S = `demo-cc-${randomBytes(3).toString('hex')}`;
    const P = `prompt-${randomBytes(3).toString('hex')}`;
    const base = { session_id: S, cwd: work, transcript_path: join(work, `${S}.jsonl`) };
    const history = async (session: string): Promise<Json[]> => {
      const r = await fetchReplay(cast.t, { session });
      if (!r.ok) throw new Error(r.error);
      return r.events;
    };
    const stage: Stage = { io, procs, work, url: cast.url, ops, adapterUrl: cast.adapterUrl, S, base, turn: { ...base, prompt_id: P, permission_mode: 'default' }, history, beat, check };
    if (cast.consolePort !== undefined) stage.consolePort = cast.consolePort;
    if (cast.at !== undefined) stage.at = cast.at;
    await playTools(stage);
    const first = await killConsumer(stage, consumer, state);
    await playAttention(stage);
    await reattach(stage, state, first);
    await playCancelAndEnd(stage);
    await showAndLinger(stage, order, () => interrupted, () => void (lingering = true));
  } catch (err) {
    if (!(err instanceof Interrupted) && !interrupted) beat('the demo ran to the end', { ok: false, detail: (err as Error).message });
  } finally {
    for (const l of order.rest()) io.out(l);
    await procs.stopAll();
    if (!opts.keepWork) rmSync(work, { recursive: true, force: true });
  }
  beats.sort((a, b) => rank(a.name) - rank(b.name));
  return { beats, ...(interrupted ? { interrupted } : {}), ...(lingered ? { lingered } : {}) };
}

let abortWaits: () => string | undefined = () => undefined;

async function until(pred: () => Promise<boolean> | boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const stop = abortWaits();
    if (stop) throw new Interrupted(stop);
    if (await pred()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(100);
  }
}
