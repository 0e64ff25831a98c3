/** `aep replay <capture.jsonl> [--speed N] [--max-gap MS] [--dry-run]`: a capture re-emitted as new sessions. */
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { EXIT, UsageError } from './io.js';
import { count } from '../operator/plural.js';
import type { Verb } from './verb.js';
import { fsReason } from '../operator/fs-errors.js';
import { monotonicUlid } from '../core/ulid.js';
import { planReplay } from '../operator/replay-plan.js';
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
    let text: string;
    try {
      text = file === '-' ? (await io.readStdin()).toString('utf8') : await readFile(resolve(io.cwd, file), 'utf8');
    } catch (err) {
      io.stderr(`aep replay: cannot read ${file}: ${fsReason(err)}\n`);
      return EXIT.usage;
    }
    const parsed: unknown[] = [];
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        parsed.push(JSON.parse(line));
      } catch {
        parsed.push(undefined);
      }
    }
    const ulid = monotonicUlid();
    const now = Date.now();
    const plan = planReplay(parsed, { newId: () => ulid(), now, epoch: Math.floor(now / 1000), source: `aep://${hostname()}/aep-replay`, speed, ...(maxGap === undefined ? {} : { maxGapMs: maxGap }) });
    const total = plan.events.reduce((s, p) => s + p.delayMs, 0);
    const summary = { groups: plan.groups, events: plan.events.length, skippedCommands: plan.skippedCommands, duplicates: plan.duplicates, unusable: plan.unusable, durationMs: total };
    const describe = (): string =>
      `${plan.groups.map((g) => `  ${g.session || '(no session)'} → ${g.replay || '(no session)'}: ${count(g.events, 'event')}`).join('\n')}\n` +
      `${count(plan.events.length, 'event')} in ${count(plan.groups.length, 'session')}, ${count(plan.skippedCommands, 'command')} skipped, ${count(plan.duplicates, 'duplicate')} coalesced, ${count(plan.unusable, 'unusable line')}; about ${(total / 1000).toFixed(1)} s\n`;
    if (plan.events.length === 0) {
      // Nothing to send is a failure, dry run or not: a CI job must not think it replayed.
      const why = plan.unusable > 0 || plan.skippedCommands > 0 ? ` (${count(plan.unusable, 'unusable line')}, ${count(plan.skippedCommands, 'command')} skipped)` : parsed.length === 0 ? ' (the file is empty)' : '';
      if (values.json) io.stdout(`${JSON.stringify({ ...summary, error: 'no replayable events' })}\n`);
      io.stderr(`aep replay: ${file} holds no replayable events${why}; give it a capture of AEP events (one JSON event per line, e.g. written by 'aep sink'), and check it with 'aep validate ${file}'\n`);
      return EXIT.failed;
    }
    if (values['dry-run']) {
      io.stdout(values.json ? `${JSON.stringify({ ...summary, plan: plan.events })}\n` : `dry run, nothing sent:\n${describe()}`);
      return EXIT.ok;
    }
    const t = target(values, io.env);
    if (!values.json) io.stderr(`aep replay: sending to ${t.relay}:\n${describe()}`);
    let sent = 0;
    for (const p of plan.events) {
      if (p.delayMs > 0) {
        const stopped = await Promise.race([new Promise<false>((r) => setTimeout(() => r(false), p.delayMs)), io.stopSignal.then(() => true)]);
        if (stopped) {
          io.stderr(`aep replay: interrupted after ${sent} of ${count(plan.events.length, 'event')}\n`);
          return EXIT.failed;
        }
      }
      let res: Response;
      try {
        res = await fetch(`${t.relay}/events`, { method: 'POST', headers: { 'content-type': 'application/json', 'aep-version': '0.1', ...authHeaders(t) }, body: JSON.stringify(p.event) });
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
      if (!values.json && sent % 100 === 0) io.stderr(`aep replay: ${sent}/${plan.events.length}\n`);
    }
    if (values.json) io.stdout(`${JSON.stringify(summary)}\n`);
    else io.stdout(`replayed ${count(sent, 'event')} as ${plan.groups.map((g) => g.replay).filter(Boolean).join(', ')}\n`);
    return EXIT.ok;
  },
};
