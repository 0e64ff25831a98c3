/** `aep replay <capture.jsonl> [--speed N] [--max-gap MS] [--dry-run]`: a capture re-emitted as new sessions. */
import { createWriteStream } from 'node:fs';
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { MAX_LINE_BYTES } from '../core/stream.js';
import { EXIT, UsageError, type CliIo } from './io.js';
import { jsonlLines } from './jsonl-lines.js';
import { LineAt } from './line-at.js';
import { openInput } from './open-input.js';
import { readChunks } from './read-chunks.js';
import { count } from '../operator/plural.js';
import type { Verb } from './verb.js';
import { fsReason } from '../operator/fs-errors.js';
import { monotonicUlid } from '../core/ulid.js';
import { ReplayIndex, type GroupSummary, type LeanStep, type ReplayOptions } from '../operator/replay-plan.js';
import { RELAY_FLAGS, RELAY_HELP, authHeaders, describeNetError, refused, unreachable, target } from '../operator/relay-opts.js';

const HELP = `usage: aep replay <capture.jsonl> [--speed N] [--max-gap MS] [--dry-run] [flags]

Re-emits a capture ('aep sink' files, an adapter log; '-' reads standard input) onto the relay
(POST /events) as NEW sessions, never a resume: each recorded (source, session) becomes
replay-<ulid> with fresh ids, one fresh epoch, contiguous seq from 0 and restamped time, in the
recorded (epoch, seq) order, duplicates coalesced on (source, id) first. cause and subject
references are rewritten through the id map, so 'aep timeline --dag' still resolves. Provenance
rides the extension attributes aepreplayof (recorded session), aepreplayid (recorded id) and
aepreplaytime (recorded time); source is aep://<host>/aep-replay. Commands (control.* other than
the two acks) are skipped: a replay never drives a live target. Sessions interleave by recorded
time; the pacing follows the recorded gaps.

The capture is read line by line, twice, never whole (standard input is first copied to a
temporary file): memory holds about 200 bytes per event (its place in the file, its recorded
order keys, its recorded and new id) and one event at a time, whatever the events' size. A line
over 1 MiB counts as unusable.

flags:
  --speed N      divide the recorded gaps by N (default 1; e.g. 10 = ten times faster)
  --max-gap MS   cap each recorded gap at MS before --speed (default: no cap; 0 = no waiting)
  --dry-run      print the plan (per session: recorded → replay id, event count) and send nothing
${RELAY_HELP}
                 (--json: the plan as JSON on stdout, with --dry-run also every planned event)

exit codes: 0 emitted (or planned, with --dry-run) · 1 aborted (the relay refused an event or
cannot be reached; what was sent stays sent) · 2 usage, or the capture cannot be read
`;

export const verb: Verb = {
  name: 'replay',
  summary: 'replay a capture as new sessions (fresh identity, cause links rewritten, commands skipped)',
  help: HELP,
  allowPositionals: true,
  options: { ...RELAY_FLAGS, speed: { type: 'string' }, 'max-gap': { type: 'string' }, 'dry-run': { type: 'boolean' } },
  async run({ values, positionals }, io) {
    if (positionals.length !== 1) throw new UsageError(`expected one capture file, got ${positionals.length}`);
    const speed = values.speed === undefined ? 1 : Number(values.speed);
    if (!Number.isFinite(speed) || speed <= 0) throw new UsageError(`--speed must be a positive number, got '${String(values.speed)}'`);
    const maxGap = values['max-gap'] === undefined ? undefined : Number(values['max-gap']);
    if (maxGap !== undefined && (!Number.isInteger(maxGap) || maxGap < 0)) throw new UsageError(`--max-gap must be an integer number of ms >= 0, got '${String(values['max-gap'])}'`);
    const file = positionals[0]!;
    const ulid = monotonicUlid();
    const now = Date.now();
    const o: ReplayOptions = { newId: () => ulid(), now, epoch: Math.floor(now / 1000), source: `aep://${hostname()}/aep-replay`, speed, ...(maxGap === undefined ? {} : { maxGapMs: maxGap }) };
    const input = await openCapture(file, io);
    if (!input.ok) {
      io.stderr(`aep replay: cannot read ${file}: ${fsReason(input.error)}\n`);
      return EXIT.usage;
    }
    try {
      return await replayFrom(input.handle, file, o, values, io);
    } catch (err) {
      // A read that fails half-way (the disk, a file cut short under us): the same refusal as an unreadable file.
      io.stderr(`aep replay: cannot read ${file}: ${fsReason(err)}\n`);
      return EXIT.usage;
    } finally {
      await input.close();
    }
  },
};

type Values = Parameters<Verb['run']>[0]['values'];

/** The capture as a file handle: FILE itself, or standard input copied to a temporary file (removed by `close`). */
async function openCapture(file: string, io: CliIo): Promise<{ ok: true; handle: FileHandle; close: () => Promise<void> } | { ok: false; error: unknown }> {
  let path = resolve(io.cwd, file);
  let dir: string | undefined;
  try {
    if (file === '-') {
      const opened = await openInput('-', io);
      if (!opened.ok) return opened;
      dir = await mkdtemp(join(tmpdir(), 'aep-replay-'));
      path = join(dir, 'stdin.jsonl');
      await pipeline(opened.chunks, createWriteStream(path));
    }
    const handle = await open(path, 'r');
    if ((await handle.stat()).isDirectory()) {
      await handle.close();
      return { ok: false, error: Object.assign(new Error(`${file} is a directory`), { code: 'EISDIR' }) };
    }
    return { ok: true, handle, close: async () => {
      await handle.close();
      if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    } };
  } catch (error) {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    return { ok: false, error };
  }
}

/** The first pass: every line of the capture into the index (its place in the file and its order keys). */
async function indexCapture(handle: FileHandle): Promise<ReplayIndex> {
  const index = new ReplayIndex();
  // A freshly opened handle reads from its start; the second pass re-reads by offset (LineAt).
  for await (const raw of jsonlLines(readChunks(handle), MAX_LINE_BYTES)) {
    if (raw.bytes === null) {
      index.add(undefined, -1);
      continue;
    }
    const line = raw.bytes.toString('utf8');
    if (line.trim() === '') continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      v = undefined;
    }
    index.add(v, raw.offset);
  }
  return index;
}

/** The indexed capture's plan: its steps and groups, the summary the output carries, each step's event re-read and rewritten. */
class PlannedReplay {
  readonly steps: LeanStep[];
  readonly groups: GroupSummary[];
  /** The sum of the planned delays, in ms. */
  readonly total: number;
  readonly summary: { groups: GroupSummary[]; events: number; skippedCommands: number; duplicates: number; unusable: number; durationMs: number };
  private readonly reader: LineAt;

  constructor(readonly index: ReplayIndex, handle: FileHandle, private readonly o: ReplayOptions) {
    ({ steps: this.steps, groups: this.groups } = index.plan(o));
    this.reader = new LineAt(handle, MAX_LINE_BYTES);
    this.total = this.steps.reduce((s, p) => s + p.delayMs, 0);
    this.summary = { groups: this.groups, events: this.steps.length, skippedCommands: index.skippedCommands, duplicates: index.duplicates, unusable: index.unusable, durationMs: this.total };
  }

  /** The replayed copy of step `i`'s event (its line re-read: it parsed in the first pass). */
  async event(i: number): Promise<Record<string, unknown>> {
    const s = this.steps[i]!;
    return this.index.rewrite(s.kept, JSON.parse((await this.reader.line(s.ref)).toString('utf8')) as Record<string, unknown>, this.o);
  }

  /** Per session: recorded → replay id and event count, then the totals line. */
  describe(): string {
    const { groups, steps, summary } = this;
    return `${groups.map((g) => `  ${g.session || '(no session)'} → ${g.replay || '(no session)'}: ${count(g.events, 'event')}`).join('\n')}\n` +
      `${count(steps.length, 'event')} in ${count(groups.length, 'session')}, ${count(summary.skippedCommands, 'command')} skipped, ${count(summary.duplicates, 'duplicate')} coalesced, ${count(summary.unusable, 'unusable line')}; about ${(this.total / 1000).toFixed(1)} s\n`;
  }
}

/** Both passes: the index (first read), then each planned event re-read by its offset, rewritten, printed or sent. */
async function replayFrom(handle: FileHandle, file: string, o: ReplayOptions, values: Values, io: CliIo): Promise<number> {
  const plan = new PlannedReplay(await indexCapture(handle), handle, o);
  if (plan.steps.length === 0) return noEvents(plan, file, values, io);
  if (values['dry-run']) return dryRun(plan, values, io);
  return send(plan, values, io);
}

/** Nothing to send is a failure, dry run or not: a CI job must not think it replayed. */
function noEvents(plan: PlannedReplay, file: string, values: Values, io: CliIo): number {
  const { summary } = plan;
  const why = summary.unusable > 0 || summary.skippedCommands > 0 ? ` (${count(summary.unusable, 'unusable line')}, ${count(summary.skippedCommands, 'command')} skipped)` : plan.index.lines === 0 ? ' (the file is empty)' : '';
  if (values.json) io.stdout(`${JSON.stringify({ ...plan.summary, error: 'no replayable events' })}\n`);
  io.stderr(`aep replay: ${file} holds no replayable events${why}; give it a capture of AEP events (one JSON event per line, e.g. written by 'aep sink'), and check it with 'aep validate ${file}'\n`);
  return EXIT.failed;
}

/** `--dry-run`: the plan printed (with --json, every planned event too); nothing sent. */
async function dryRun(plan: PlannedReplay, values: Values, io: CliIo): Promise<number> {
  if (!values.json) {
    io.stdout(`dry run, nothing sent:\n${plan.describe()}`);
    return EXIT.ok;
  }
  // {...summary, plan: [{delayMs, event}, ...]} written an event at a time, in ~64 KiB writes.
  let out = `${JSON.stringify({ ...plan.summary, plan: [] }).slice(0, -2)}`;
  for (let i = 0; i < plan.steps.length; i++) {
    out += `${i === 0 ? '' : ','}${JSON.stringify({ delayMs: plan.steps[i]!.delayMs, event: await plan.event(i) })}`;
    if (out.length >= 64 * 1024) {
      io.stdout(out);
      out = '';
      await io.drained?.();
    }
  }
  io.stdout(`${out}]}\n`);
  return EXIT.ok;
}

/** Every planned event POSTed to the relay at its recorded pace; the first refusal, failure or stop aborts. */
async function send(plan: PlannedReplay, values: Values, io: CliIo): Promise<number> {
  const { steps } = plan;
  const t = target(values, io.env);
  if (!values.json) io.stderr(`aep replay: sending to ${t.relay}:\n${plan.describe()}`);
  let sent = 0;
  for (let i = 0; i < steps.length; i++) {
    const p = steps[i]!;
    if (p.delayMs > 0) {
      const stopped = await Promise.race([new Promise<false>((r) => setTimeout(() => r(false), p.delayMs)), io.stopSignal.then(() => true)]);
      if (stopped) {
        io.stderr(`aep replay: interrupted after ${sent} of ${count(steps.length, 'event')}\n`);
        return EXIT.failed;
      }
    }
    let res: Response;
    try {
      res = await fetch(`${t.relay}/events`, { method: 'POST', headers: { 'content-type': 'application/json', 'aep-version': '0.1', ...authHeaders(t) }, body: JSON.stringify(await plan.event(i)) });
    } catch (err) {
      io.stderr(`aep replay: ${unreachable(t, describeNetError(err))} (after ${count(sent, 'event')})\n`);
      return EXIT.failed;
    }
    if (res.status !== 202) {
      const body = (await res.text()).slice(0, 300);
      io.stderr(`aep replay: ${refused(t, res.status, 'POST /events')}${res.status === 400 ? `: ${body}` : ''} (after ${count(sent, 'event')})\n`);
      return EXIT.failed;
    }
    sent++;
    if (!values.json && sent % 100 === 0) io.stderr(`aep replay: ${sent}/${steps.length}\n`);
  }
  if (values.json) io.stdout(`${JSON.stringify(plan.summary)}\n`);
  else io.stdout(`replayed ${count(sent, 'event')} as ${plan.groups.map((g) => g.replay).filter(Boolean).join(', ')}\n`);
  return EXIT.ok;
}
