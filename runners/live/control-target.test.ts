/**
 * Each adapter daemon, attached to a tokened relay, is a control-capable target for the live
 * checker: `aep check-live URL --token T --control-session S` passes its control checks, where S is
 * a session the daemon owns (it emitted that session's SessionStart over its relay link).
 */
import { describe, expect, it } from 'vitest';
import { adapter as claudeCode } from '../../impl/adapters/claude-code/adapter.js';
import { adapter as codex } from '../../impl/adapters/codex/adapter.js';
import { selectChecks } from '../../impl/check-live/checks/index.js';
import { DEFAULT_OPTIONS } from '../../impl/check-live/context.js';
import { runChecks } from '../../impl/check-live/runner.js';
import { poll, postHook } from './live-target.js';
import { withStack } from './stack.js';

describe.each([claudeCode, codex])('the $agent daemon as a control-capable target', (def) => {
  it('passes check-live --control-session', async () => {
    const report = await withStack(async (stack) => {
      const daemon = await stack.adapter(def);
      const session = `${def.agent}-control-target`;
      expect((await postHook(daemon.url, 'SessionStart', { hook_event_name: 'SessionStart', session_id: session, source: 'startup' })).status).toBe(200);
      await poll(() => stack.client.events().some((f) => f.json!.session === session), 5000);
      const { checks } = selectChecks('control-behalf-refusal,control-ack,control-nack-unsupported,control-dedupe');
      return runChecks({ ...DEFAULT_OPTIONS, target: stack.relayUrl, token: stack.token, controlSession: session }, checks);
    });
    expect(report.checks.map((c) => [c.name, c.status, c.status === 'pass' ? '' : c.detail])).toEqual([
      ['control-behalf-refusal', 'pass', ''],
      ['control-ack', 'pass', ''],
      ['control-nack-unsupported', 'pass', ''],
      ['control-dedupe', 'pass', ''],
    ]);
  }, 60_000);
});
