/**
 * The terminals judge, pure: over one relay stream (events in arrival order, any number of
 * sources and sessions), does every tool call and every run reach its terminal, once, paired?
 *
 * What it holds (AEP-0002 §2 rules 1, 2 and 5, §4.1):
 * - a `tool.requested` names its call (`data.tool.call_id`), and at most one request per call;
 * - a tool terminal (`tool.completed` / `tool.failed` / `tool.denied`) names the call of an
 *   earlier `tool.requested` in the same session, carries a `cause`, and that cause is the
 *   request's id or the decision that ended the call (an `attention.answered` /
 *   `attention.resolved` / `control.*` event of the stream: AEP-0004 §6's outcome link);
 * - a call reaches at most one terminal, a run at most one (`run.finished` / `run.failed` /
 *   `run.cancelled`), and a run terminal names a run a `run.started` opened;
 * - completeness, where the vendor delivered an end (zero terminals stay legal in AEP, so the
 *   end must be known): a run of a session whose `session.ended` is in the stream (the vendor
 *   ended everything) reaches a terminal; with `complete`, the caller says the vendor ended every
 *   call and run but the `expectOpen` ones; with `endedCalls`, at least that many calls (the
 *   vendor's post-tool moments) reach a terminal;
 * - a run's terminal is of the expected type, when the caller names the types
 *   (`expectRunTerminals`, in the order the runs started).
 *
 * Identity: an event is `(source, id)` (AEP-0001 §7.4, redelivery is not a second terminal); a
 * call is `(source, session, call_id)`, a run `(source, session, run)`.
 * Findings are data (rule id, spec section, path, message saying what, where and how to fix).
 */

export type TerminalRule =
  | 'terminals/tool-call-id'
  | 'terminals/tool-request-repeated'
  | 'terminals/tool-terminal-unpaired'
  | 'terminals/tool-terminal-cause'
  | 'terminals/tool-terminal-repeated'
  | 'terminals/tool-terminal-missing'
  | 'terminals/run-terminal-unstarted'
  | 'terminals/run-terminal-repeated'
  | 'terminals/run-terminal-missing'
  | 'terminals/run-terminal-type';

export interface TerminalFinding {
  rule: TerminalRule;
  /** The spec section the rule comes from. */
  section: string;
  /** Where: `events[i]` (the index in the judged stream) and the event's type. */
  path: string;
  /** What is wrong and how to fix it. */
  message: string;
}

/** The rules as data: their spec section and how to fix what they find. */
export const TERMINAL_RULES: Readonly<Record<TerminalRule, { section: string; fix: string }>> = {
  'terminals/tool-call-id': { section: 'AEP-0002 §2 rule 1', fix: 'put the vendor call id in data.tool.call_id, or mint one at the request and carry it on the terminal' },
  'terminals/tool-request-repeated': { section: 'AEP-0002 §2 rule 1', fix: 'emit one tool.requested per call; a second call needs its own call_id' },
  'terminals/tool-terminal-unpaired': { section: 'AEP-0002 §2 rule 1', fix: 'carry the call_id of the tool.requested this terminal ends (pair the vendor end with its request)' },
  'terminals/tool-terminal-cause': { section: 'AEP-0002 §2 rule 1, AEP-0004 §6', fix: "set cause to the tool.requested id (or to the answer or command that ended the call)" },
  'terminals/tool-terminal-repeated': { section: 'AEP-0002 §2 rule 5', fix: 'emit one terminal per call; remember which calls are closed' },
  'terminals/tool-terminal-missing': { section: 'AEP-0002 §2 rule 1', fix: "emit the call's terminal when the vendor ends it (completed, failed or denied)" },
  'terminals/run-terminal-unstarted': { section: 'AEP-0002 §2 rule 1', fix: 'emit run.started for the run before its terminal, or put the terminal on the run that started' },
  'terminals/run-terminal-repeated': { section: 'AEP-0002 §2 rule 5', fix: 'emit one terminal per run; remember which runs are closed' },
  'terminals/run-terminal-missing': { section: 'AEP-0002 §2 rule 2', fix: "close the run when the vendor ends it: run.finished, run.failed or run.cancelled" },
  'terminals/run-terminal-type': { section: 'AEP-0002 §2 rule 2', fix: 'type the terminal by how the run ended: success run.finished, failure run.failed, a stop run.cancelled' },
};

export const TOOL_TERMINALS: ReadonlySet<string> = new Set(['tool.completed', 'tool.failed', 'tool.denied']);
export const RUN_TERMINALS: ReadonlySet<string> = new Set(['run.finished', 'run.failed', 'run.cancelled']);
/** Types a tool terminal may be caused by besides its request: the decision that ended the call. */
const DECISIONS = (type: string): boolean => type === 'attention.answered' || type === 'attention.resolved' || type.startsWith('control.');

export interface TerminalOptions {
  /** The vendor delivered an end for every call and run but the `expectOpen` ones. Default false. */
  complete?: boolean;
  /** With `complete`: how many calls and runs the vendor delivered no end for. Default none. */
  expectOpen?: { calls?: number; runs?: number };
  /** At least this many calls were ended by the vendor (e.g. its post-tool hooks that fired). */
  endedCalls?: number;
  /** The expected terminal type of each run, in the order the runs started. */
  expectRunTerminals?: readonly string[];
}

type Ev = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const obj = (v: unknown): Ev | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Ev) : undefined);
const callIdOf = (e: Ev): string | undefined => str(obj(obj(e.data)?.tool)?.call_id);
const at = (i: number, e: Ev): string => `events[${i}] ${String(e.type)}`;

interface Open {
  index: number;
  id: string;
  terminals: number;
}

/** One pass over the stream: the open calls and runs, what ended them, and the findings so far. */
class TerminalsJudge {
  readonly out: TerminalFinding[] = [];
  private readonly seen = new Set<string>();
  private readonly byId = new Map<string, Ev>();
  private readonly calls = new Map<string, Open>();
  private readonly runs = new Map<string, Open>();
  private readonly runOrder: string[] = [];
  private readonly runTerminalType = new Map<string, string>();
  private readonly endedScopes = new Set<string>();

  constructor(private readonly stream: readonly unknown[]) {}

  private find(rule: TerminalRule, path: string, what: string): void {
    this.out.push({ rule, section: TERMINAL_RULES[rule].section, path, message: `${what}; fix: ${TERMINAL_RULES[rule].fix}` });
  }

  /** Event `i` of the stream (a redelivery of an `(source, id)` already seen is skipped). */
  see(i: number, e: Ev): void {
    const type = str(e.type) ?? '';
    const source = str(e.source) ?? '';
    const id = str(e.id);
    if (id !== undefined) {
      const key = `${source}\u0000${id}`;
      if (this.seen.has(key)) return; // redelivery of the same event
      this.seen.add(key);
      this.byId.set(id, e);
    }
    const session = str(e.session) ?? '';
    const scope = `${source}\u0000${session}`;
    if (type === 'tool.requested') this.toolRequested(i, e, id, session, scope);
    else if (TOOL_TERMINALS.has(type)) this.toolTerminal(i, e, type, id, session, scope);
    else if (type === 'session.ended') this.endedScopes.add(scope);
    else if (type === 'run.started') this.runStarted(i, e, id, scope);
    else if (RUN_TERMINALS.has(type)) this.runTerminal(i, e, type, session, scope);
  }

  private toolRequested(i: number, e: Ev, id: string | undefined, session: string, scope: string): void {
    const call = callIdOf(e);
    if (call === undefined) {
      this.find('terminals/tool-call-id', at(i, e), `tool.requested ${id ?? '(no id)'} (tool ${String(obj(obj(e.data)?.tool)?.name ?? '?')}, session ${session}) names no call: data.tool.call_id is absent`);
      return;
    }
    const key = `${scope}\u0000${call}`;
    if (this.calls.has(key)) this.find('terminals/tool-request-repeated', at(i, e), `call ${call} (session ${session}) was already requested at events[${this.calls.get(key)!.index}]`);
    else this.calls.set(key, { index: i, id: id ?? '', terminals: 0 });
  }

  private toolTerminal(i: number, e: Ev, type: string, id: string | undefined, session: string, scope: string): void {
    const call = callIdOf(e);
    const open = call === undefined ? undefined : this.calls.get(`${scope}\u0000${call}`);
    if (!open) {
      // Unpairable while a call of its session is open: it should have ended that call. A
      // terminal of a call whose request the vendor never delivered has nothing to pair with.
      const waiting = [...this.calls.entries()].filter(([k, c]) => k.startsWith(`${scope}\u0000`) && c.terminals === 0).map(([k]) => k.split('\u0000')[2]);
      if (waiting.length > 0) {
        this.find('terminals/tool-terminal-unpaired', at(i, e), call === undefined
          ? `${type} ${id ?? ''} (tool ${String(obj(obj(e.data)?.tool)?.name ?? '?')}, session ${session}) carries no data.tool.call_id while call(s) ${waiting.join(', ')} are open: it ends none of them`
          : `${type} ${id ?? ''} names call ${call}, which no tool.requested of session ${session} opened, while call(s) ${waiting.join(', ')} are open`);
      }
      return;
    }
    open.terminals++;
    if (open.terminals > 1) this.find('terminals/tool-terminal-repeated', at(i, e), `call ${call} (requested at events[${open.index}]) already reached a terminal; this is terminal #${open.terminals}`);
    const cause = str(e.cause);
    const causing = cause === undefined ? undefined : this.byId.get(cause);
    if (cause === undefined) this.find('terminals/tool-terminal-cause', at(i, e), `${type} of call ${call} carries no cause; its request is ${open.id} (events[${open.index}])`);
    else if (cause !== open.id && !(causing && DECISIONS(str(causing.type) ?? ''))) {
      this.find('terminals/tool-terminal-cause', at(i, e), `${type} of call ${call} has cause ${cause}, which is neither its request ${open.id} (events[${open.index}]) nor an answer or command of the stream`);
    }
  }

  private runStarted(i: number, e: Ev, id: string | undefined, scope: string): void {
    const run = str(e.run);
    if (run === undefined) return;
    const key = `${scope}\u0000${run}`;
    if (!this.runs.has(key)) {
      this.runs.set(key, { index: i, id: id ?? '', terminals: 0 });
      this.runOrder.push(key);
    }
  }

  private runTerminal(i: number, e: Ev, type: string, session: string, scope: string): void {
    const run = str(e.run);
    if (run === undefined) return; // a run-less terminal: nothing to pair (the adapter knew no run)
    const open = this.runs.get(`${scope}\u0000${run}`);
    if (!open) {
      this.find('terminals/run-terminal-unstarted', at(i, e), `${type} closes run ${run} of session ${session}, which no run.started in the stream opened`);
      return;
    }
    open.terminals++;
    if (open.terminals > 1) this.find('terminals/run-terminal-repeated', at(i, e), `run ${run} (started at events[${open.index}]) already reached a terminal; this ${type} is terminal #${open.terminals}`);
    else this.runTerminalType.set(`${scope}\u0000${run}`, type);
  }

  /** After the stream: the calls the vendor ended (`complete` / `endedCalls`) that reached no terminal. */
  missingCalls(opts: TerminalOptions): void {
    const openCalls = [...this.calls.values()].filter((c) => c.terminals === 0);
    const closedCalls = this.calls.size - openCalls.length;
    const callsShort = opts.complete ? openCalls.length > (opts.expectOpen?.calls ?? 0) : closedCalls < Math.min(opts.endedCalls ?? 0, this.calls.size);
    if (!callsShort) return;
    const why = opts.complete ? `${openCalls.length} open call(s), ${opts.expectOpen?.calls ?? 0} expected open` : `the vendor ended ${opts.endedCalls} call(s), ${closedCalls} reached a terminal`;
    for (const c of openCalls) this.find('terminals/tool-terminal-missing', at(c.index, obj(this.stream[c.index])!), `tool.requested ${c.id} never reached a terminal (${why})`);
  }

  /** After the stream: the runs the vendor ended (their session ended, or `complete`) that reached no terminal. */
  missingRuns(opts: TerminalOptions): void {
    const openRuns = this.runOrder.map((k) => [k, this.runs.get(k)!] as const).filter(([, r]) => r.terminals === 0);
    const tooMany = opts.complete === true && openRuns.length > (opts.expectOpen?.runs ?? 0);
    for (const [k, r] of openRuns) {
      const sessionEnded = this.endedScopes.has(k.split('\u0000').slice(0, 2).join('\u0000'));
      if (!tooMany && !sessionEnded) continue;
      this.find('terminals/run-terminal-missing', at(r.index, obj(this.stream[r.index])!), `run.started ${r.id} never reached a terminal (${sessionEnded ? 'its session ended' : `${openRuns.length} open run(s), ${opts.expectOpen?.runs ?? 0} expected open`})`);
    }
  }

  /** After the stream: each run's terminal type against `expected`, in the order the runs started. */
  runTerminalTypes(expected: readonly string[]): void {
    for (const [n, want] of expected.entries()) {
      const key = this.runOrder[n];
      const got = key === undefined ? undefined : this.runTerminalType.get(key);
      if (got !== want) {
        const r = key === undefined ? undefined : this.runs.get(key);
        this.find('terminals/run-terminal-type', r ? at(r.index, obj(this.stream[r.index])!) : `runs[${n}]`, `run #${n + 1} ${r ? `(started at events[${r.index}]) ` : ''}should end ${want}, ended ${got ?? (r ? 'without a terminal' : 'never started')}`);
      }
    }
  }
}

/** Every finding over the stream, in stream order (empty: the stream holds the rules). */
export function judgeTerminals(stream: readonly unknown[], opts: TerminalOptions = {}): TerminalFinding[] {
  const judge = new TerminalsJudge(stream);
  for (const [i, raw] of stream.entries()) {
    const e = obj(raw);
    if (e) judge.see(i, e);
  }
  judge.missingCalls(opts);
  judge.missingRuns(opts);
  if (opts.expectRunTerminals) judge.runTerminalTypes(opts.expectRunTerminals);
  return judge.out.sort((a, b) => indexOf(a.path) - indexOf(b.path));
}

const indexOf = (path: string): number => Number(/^events\[(\d+)\]/.exec(path)?.[1] ?? Number.MAX_SAFE_INTEGER);

/** One line per finding: `rule (section) at path: message`. */
export function renderTerminalFindings(findings: readonly TerminalFinding[]): string[] {
  return findings.map((f) => `${f.rule} (${f.section}) at ${f.path}: ${f.message}`);
}
