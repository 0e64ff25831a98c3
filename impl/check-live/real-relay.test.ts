import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runDemoAgent } from '../demo-agent/agent.js';
import { CHECKS } from './checks/index.js';
import { DEFAULT_OPTIONS } from './context.js';
import type { ConformanceReport } from './report.js';
import { runChecks } from './runner.js';
import { skipped as skipNote, WHY } from '../test-utils/skip.js';

/**
 * The checker against the project's own relay, in the two CI postures. The relay is another
 * module's; it is imported by path so this file still compiles and skips cleanly without it.
 */
const relayModule = fileURLToPath(new URL('../relay/server.ts', import.meta.url));
const hasRelay = existsSync(relayModule);

interface Running {
  url: string;
  close(): Promise<void>;
}
type Start = (o: Record<string, unknown>) => Promise<Running>;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function relay(opts: Record<string, unknown>): Promise<string> {
  const path = '../relay/server.js';
  const { startRelay } = (await import(/* @vite-ignore */ path)) as { startRelay: Start };
  const r = await startRelay({ host: '127.0.0.1', port: 0, drainMs: 500, ...opts });
  cleanups.push(() => r.close());
  return r.url;
}

const failures = (r: ConformanceReport) => r.checks.filter((c) => c.status === 'fail');
const skipped = (r: ConformanceReport) => r.checks.filter((c) => c.status === 'skip').map((c) => c.name);

describe.skipIf(!hasRelay)(`check-live against impl/relay (startRelay)${skipNote(!hasRelay, WHY.source)}`, () => {
  it('open posture, AEP_BUFFER=8, --evict: no check fails', async () => {
    const url = await relay({ buffer: 8 });
    const report = await runChecks({ target: url, ...DEFAULT_OPTIONS, evict: true }, CHECKS);
    expect(failures(report)).toEqual([]);
    expect(skipped(report)).toEqual(['control-behalf-refusal', 'control-ack', 'control-nack-unsupported', 'control-dedupe', 'control-cancel']);
  });

  it('tokened posture with the demo agent: no check fails', async () => {
    const url = await relay({ token: 'ci-token' });
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    let ready!: () => void;
    const isReady = new Promise<void>((r) => (ready = r));
    const done = runDemoAgent({ relay: url, token: 'ci-token', session: 'demo-session', run: 'demo-run' }, stopped, {
      stdout: () => ready(),
      stderr: () => {},
    });
    cleanups.push(async () => {
      stop();
      await done;
    });
    await isReady;
    const report = await runChecks(
      { target: url, ...DEFAULT_OPTIONS, token: 'ci-token', controlSession: 'demo-session', controlCancel: 'demo-run', ackWindowMs: 3000 },
      CHECKS,
    );
    expect(failures(report)).toEqual([]);
    expect(skipped(report)).toEqual(['control-auth-gate', 'evict-replay-exhausted', 'evict-byte-identity']);
  });
});
