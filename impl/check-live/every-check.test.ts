/**
 * Every check in check-live can fail (issue 14, defect 14): for each check, a target broken in
 * exactly the way that check guards, and the check failing against it with its own detail. The
 * table must name every check in CHECKS, so a new check without a breaking target fails here.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CHECKS, selectChecks } from './checks/index.js';
import { DEFAULT_OPTIONS, type LiveOptions } from './context.js';
import { runChecks } from './runner.js';
import { startStubRelay, type StubOptions } from './test-utils/stub-relay.js';
import { startBrokenTarget, type BrokenTargetMode } from './test-utils/stub-target.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Row {
  readonly check: string;
  readonly breakage: string;
  readonly stub: StubOptions;
  readonly target?: BrokenTargetMode;
  readonly detail: RegExp;
}

const CONTROL = { token: 'k' } as const;
const TABLE: readonly Row[] = [
  { check: 'discovery', breakage: 'a discovery document without aep', stub: { broken: { badDiscovery: true } }, detail: /`aep` must be a non-empty array/ },
  { check: 'version-gate', breakage: 'no version gate', stub: { broken: { noVersionGate: true } }, detail: /answered 202, not 426/ },
  { check: 'reject-invalid', breakage: 'an accepted invalid envelope', stub: { broken: { acceptInvalid: true } }, detail: /answered 202, not 400/ },
  { check: 'ingest-fanout', breakage: 'a filter that leaks other sessions', stub: { broken: { leakFilter: true } }, detail: /let an event of another session through/ },
  { check: 'ingest-fanout', breakage: 'an event altered in flight', stub: { broken: { alterInFlight: true } }, detail: /event seq 0 was altered in flight: `time` changed/ },
  { check: 'ingest-fanout', breakage: 'an event over several data: lines', stub: { broken: { multiLineData: true } }, detail: /event seq 0 spans \d+ data: lines/ },
  { check: 'ingest-fanout', breakage: 'an event: field other than the type', stub: { broken: { wrongEventField: true } }, detail: /SSE event: field is 'message', not the AEP type 'session.started'/ },
  { check: 'ingest-fanout', breakage: 'an id: field without the epoch', stub: { broken: { wrongSseId: true } }, detail: /SSE id: field is '.*:0', not '.*:0:0'/ },
  { check: 'resume', breakage: 'a resume gap', stub: { broken: { resume: 'gap' } }, detail: /got \[2, 3\]/ },
  { check: 'capture-downlevel', breakage: 'an ignored capture ceiling', stub: { broken: { ignoreCeiling: true } }, detail: /reached a `metadata`-ceiling subscriber/ },
  { check: 'hello-ws', breakage: 'no hello-required', stub: { broken: { noHelloRequired: true } }, detail: /waiting for an answer to a subscribe sent before hello/ },
  { check: 'subscribe-limits', breakage: 'a dropped connection on a bad subscribe', stub: { broken: { dropOnBadSubscribe: true } }, detail: /dropped the connection/ },
  { check: 'ignore-unknown', breakage: 'an answered unknown frame', stub: { broken: { answerUnknown: true } }, detail: /must be ignored, but it was answered/ },
  { check: 'replay-all', breakage: 'replay-all announcing exhaustion', stub: { replayAll: true, broken: { replayAllMarker: true } }, detail: /produced a replay-exhausted frame/ },
  { check: 'roster', breakage: 'a merged roster', stub: { roster: true, broken: { mergedRoster: true } }, detail: /lists 1 entries for it/ },
  { check: 'control-auth-gate', breakage: 'control over an unauthenticated binding', stub: { broken: { controlWithoutAuth: true } }, detail: /reached the target/ },
  { check: 'evict-replay-exhausted', breakage: 'no replay-exhausted marker', stub: { buffer: 8, broken: { noExhaustedMarker: true } }, detail: /produced no replay-exhausted marker/ },
  { check: 'evict-byte-identity', breakage: 'an event rewritten on replay', stub: { buffer: 8, broken: { rewriteOnReplay: true } }, detail: /SSE altered event seq \d+: `data` changed/ },
  { check: 'control-behalf-refusal', breakage: 'a refusal published into the session', stub: { ...CONTROL, broken: { behalfEvent: true } }, detail: /a refusal entered the session's history/ },
  { check: 'control-ack', breakage: 'a target that acks twice', stub: CONTROL, target: 'double-ack', detail: /2 distinct ack decisions/ },
  { check: 'control-nack-unsupported', breakage: 'a target that accepts what it did not declare', stub: CONTROL, target: 'accept-undeclared', detail: /was accepted; commands outside control.accepts MUST be nacked/ },
  { check: 'control-dedupe', breakage: 'a target that re-decides a retransmission', stub: CONTROL, target: 're-decide', detail: /re-decided: a second DISTINCT ack/ },
  { check: 'control-dedupe', breakage: 'a target that re-acks and then decides again', stub: CONTROL, target: 'extra-decision', detail: /the command got more than one ack decision: .*control\.rejected/ },
  { check: 'control-cancel', breakage: 'a target that never emits the outcome', stub: CONTROL, target: 'no-outcome', detail: /no run.cancelled cause-linked to the command/ },
];

function options(target: string, row: Row): LiveOptions {
  const control = row.target ? { controlSession: 'bt-session', controlCancel: 'bt-run', ackWindowMs: 500 } : {};
  return { target, ...DEFAULT_OPTIONS, evict: true, ...(row.stub.token ? { token: row.stub.token } : {}), ...control };
}

describe('every check in check-live fails against a target that breaks exactly it', () => {
  it('the table names every check', () => {
    expect([...new Set(TABLE.map((r) => r.check))].sort()).toEqual(CHECKS.map((c) => c.name).sort());
  });
  it.each(TABLE.map((r) => [r.check, r.breakage, r] as const))('%s fails on %s', async (_check, _breakage, row) => {
    const relay = await startStubRelay(row.stub);
    cleanups.push(() => relay.close());
    if (row.target) {
      const t = await startBrokenTarget(relay.url, row.stub.token!, 'bt-session', row.target);
      cleanups.push(() => t.close());
    }
    const report = await runChecks(options(relay.url, row), selectChecks(row.check).checks);
    expect(report.checks).toEqual([{ name: row.check, status: 'fail', detail: expect.stringMatching(row.detail) }]);
    expect(report.ok).toBe(false);
  });
});
