import { afterEach, describe, expect, it } from 'vitest';
import { runDemoAgent } from '../demo-agent/agent.js';
import { CHECKS, selectChecks } from './checks/index.js';
import { DEFAULT_OPTIONS, type LiveOptions } from './context.js';
import type { ConformanceReport } from './report.js';
import { runChecks } from './runner.js';
import { startStubRelay, type StubOptions } from './test-utils/stub-relay.js';
import { startBrokenTarget, type BrokenTargetMode } from './test-utils/stub-target.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function stub(opts: StubOptions = {}): Promise<string> {
  const relay = await startStubRelay(opts);
  cleanups.push(() => relay.close());
  return relay.url;
}

function options(target: string, extra: Partial<LiveOptions> = {}): LiveOptions {
  return { target, ...DEFAULT_OPTIONS, ...extra };
}

const statuses = (r: ConformanceReport): Record<string, string> => Object.fromEntries(r.checks.map((c) => [c.name, c.status]));
const detail = (r: ConformanceReport, name: string): string => r.checks.find((c) => c.name === name)?.detail ?? '';
const only = (names: string): ReturnType<typeof selectChecks>['checks'] => selectChecks(names).checks;

/** Starts the demo agent against `relay` and resolves once it printed its ready line. */
async function demo(relay: string, token: string, session: string, run: string): Promise<void> {
  let stop!: () => void;
  const stopped = new Promise<void>((r) => (stop = r));
  let ready!: () => void;
  const isReady = new Promise<void>((r) => (ready = r));
  const done = runDemoAgent({ relay, token, session, run, backoffMs: { min: 50, max: 200 } }, stopped, {
    stdout: (t) => t.startsWith('demo-agent ready') && ready(),
    stderr: () => {},
  });
  cleanups.push(async () => {
    stop();
    await done;
  });
  await isReady;
}

async function broken(relay: string, token: string, session: string, mode: BrokenTargetMode): Promise<void> {
  const t = await startBrokenTarget(relay, token, session, mode);
  cleanups.push(() => t.close());
}

describe('check-live against a compliant stub relay', () => {
  it('open posture with --evict: every check passes except the skips the posture explains', async () => {
    const url = await stub({ buffer: 8 });
    const report = await runChecks(options(url, { evict: true }), CHECKS);
    const s = statuses(report);
    for (const name of ['discovery', 'version-gate', 'reject-invalid', 'ingest-fanout', 'resume', 'capture-downlevel', 'hello-ws', 'subscribe-limits', 'ignore-unknown', 'replay-all', 'control-auth-gate', 'evict-replay-exhausted', 'evict-byte-identity']) {
      expect([name, s[name], detail(report, name)]).toEqual([name, 'pass', expect.any(String)]);
    }
    for (const name of ['control-ack', 'control-nack-unsupported', 'control-dedupe', 'control-cancel']) {
      expect(detail(report, name)).toMatch(/^skipped: no --control-session given .*\(AEP-0004/);
    }
    expect(detail(report, 'control-behalf-refusal')).toMatch(/^skipped: needs --token/);
    expect(detail(report, 'roster')).toMatch(/^skipped: no roster capability advertised/);
    expect(detail(report, 'replay-all')).toMatch(/refused deterministically \(invalid-filter\)/);
    expect(detail(report, 'evict-byte-identity')).toMatch(/^strict:/);
    expect(report.ok).toBe(true);
    expect(report.summary).toEqual({ pass: 13, fail: 0, skip: 6, total: 19 });
  });

  it('tokened posture with the demo agent: control checks pass, the auth gate skips', async () => {
    const url = await stub({ token: 't0k' });
    await demo(url, 't0k', 'demo-s', 'demo-r');
    const report = await runChecks(
      options(url, { token: 't0k', controlSession: 'demo-s', controlCancel: 'demo-r', ackWindowMs: 2000 }),
      CHECKS,
    );
    const s = statuses(report);
    expect(s['control-auth-gate']).toBe('skip');
    expect(detail(report, 'control-auth-gate')).toMatch(/authenticated run \(probe the dev posture without --token\)/);
    for (const name of ['control-ack', 'control-nack-unsupported', 'control-dedupe', 'control-cancel', 'control-behalf-refusal']) {
      expect([name, s[name], detail(report, name)]).toEqual([name, 'pass', expect.any(String)]);
    }
    expect(detail(report, 'control-dedupe')).toBe('the recorded ack was re-emitted byte-identically');
    expect(s['evict-replay-exhausted']).toBe('skip');
    expect(report.ok).toBe(true);
  });

  it('roster and replay-all pass against a stub that advertises and implements them', async () => {
    const url = await stub({ roster: true, replayAll: true });
    const report = await runChecks(options(url), only('roster,replay-all'));
    expect(report.checks).toEqual([{ name: 'roster', status: 'pass' }, { name: 'replay-all', status: 'pass' }]);
  });

  it('skips the eviction checks when the advertised buffer exceeds --evict-max', async () => {
    const url = await stub({ buffer: 100 });
    const report = await runChecks(options(url, { evict: true, evictMax: 50 }), only('evict-replay-exhausted,evict-byte-identity'));
    expect(report.checks.map((c) => c.status)).toEqual(['skip', 'skip']);
    expect(detail(report, 'evict-replay-exhausted')).toMatch(/advertised buffer \(100\) exceeds --evict-max 50/);
  });
});

describe('check-live catches every broken posture', () => {
  const cases: Array<[string, StubOptions, string, RegExp]> = [
    ['a resume gap', { broken: { resume: 'gap' } }, 'resume', /got \[2, 3\]/],
    ['a resume duplicate', { broken: { resume: 'duplicate' } }, 'resume', /got \[0, 1, 2, 3\]/],
    ['an accepted invalid envelope', { broken: { acceptInvalid: true } }, 'reject-invalid', /answered 202, not 400/],
    ['an ignored capture ceiling', { broken: { ignoreCeiling: true } }, 'capture-downlevel', /reached a `metadata`-ceiling subscriber/],
    ['a dropped connection on a bad subscribe', { broken: { dropOnBadSubscribe: true } }, 'subscribe-limits', /dropped the connection/],
    ['control over an unauthenticated binding', { broken: { controlWithoutAuth: true } }, 'control-auth-gate', /reached the target/],
    ['a discovery document without aep', { broken: { badDiscovery: true } }, 'discovery', /`aep` must be a non-empty array/],
    ['no version gate', { broken: { noVersionGate: true } }, 'version-gate', /answered 202, not 426/],
    ['a filter that leaks other sessions', { broken: { leakFilter: true } }, 'ingest-fanout', /let an event of another session through/],
    ['no hello-required', { broken: { noHelloRequired: true } }, 'hello-ws', /timed out after 5000 ms waiting for an answer to a subscribe sent before hello/],
    ['an answered unknown frame', { broken: { answerUnknown: true } }, 'ignore-unknown', /must be ignored, but it was answered/],
    ['a merged roster', { roster: true, broken: { mergedRoster: true } }, 'roster', /lists 1 entries for it/],
    ['replay-all announcing exhaustion', { replayAll: true, broken: { replayAllMarker: true } }, 'replay-all', /produced a replay-exhausted frame/],
    ['no replay-exhausted marker', { buffer: 8, broken: { noExhaustedMarker: true } }, 'evict-replay-exhausted', /SSE: resuming from seq 0 .* produced no replay-exhausted marker/],
    ['an event rewritten on replay', { buffer: 8, broken: { rewriteOnReplay: true } }, 'evict-byte-identity', /SSE altered event seq \d+: `data` changed/],
  ];
  it.each(cases)('%s', async (_label, stubOpts, check, message) => {
    const url = await stub(stubOpts);
    const report = await runChecks(options(url, { evict: true }), only(check));
    expect(report.checks).toEqual([{ name: check, status: 'fail', detail: expect.stringMatching(message) }]);
    expect(report.ok).toBe(false);
  });

  it('a refusal published into the session history fails control-behalf-refusal', async () => {
    const url = await stub({ token: 'k', broken: { behalfEvent: true } });
    const report = await runChecks(options(url, { token: 'k' }), only('control-behalf-refusal'));
    expect(report.checks).toEqual([{ name: 'control-behalf-refusal', status: 'fail', detail: expect.stringMatching(/a refusal entered the session's history/) }]);
  });

  const targets: Array<[BrokenTargetMode, string, RegExp]> = [
    ['double-ack', 'control-ack', /2 distinct ack decisions/],
    ['silent', 'control-ack', /no control.accepted\/control.rejected with cause .* within the 500 ms ack window/],
    ['re-decide', 'control-dedupe', /re-decided: a second DISTINCT ack/],
    ['accept-undeclared', 'control-nack-unsupported', /control.pause was accepted; commands outside control.accepts MUST be nacked 'unsupported'/],
    ['no-outcome', 'control-cancel', /no run.cancelled cause-linked to the command \(or its ack\) within 500 ms/],
  ];
  it.each(targets)('a %s target fails %s', async (mode, check, message) => {
    const url = await stub({ token: 'k' });
    await broken(url, 'k', 'bt-session', mode);
    const report = await runChecks(options(url, { token: 'k', controlSession: 'bt-session', controlCancel: 'bt-run', ackWindowMs: 500 }), only(check));
    expect(report.checks).toEqual([{ name: check, status: 'fail', detail: expect.stringMatching(message) }]);
  });

  it('an unreachable target fails every check with a clear detail', async () => {
    const url = await stub();
    cleanups.splice(0).forEach((c) => void c()); // close it right away: nothing listens any more
    await new Promise((r) => setTimeout(r, 50));
    const report = await runChecks(options(url), CHECKS);
    expect(report.summary.fail).toBe(CHECKS.length);
    expect(report.checks[0]!.detail).toMatch(/^target unreachable: .*ECONNREFUSED/);
  });
});
