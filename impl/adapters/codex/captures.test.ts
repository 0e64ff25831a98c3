/**
 * The real payloads: every session Codex 0.171.0 recorded in ../shared/vendor-captures (read at
 * test time, never copied; the suite is skipped on a clone without them) is replayed hook by hook
 * through a live daemon, a held PermissionRequest answered the way the session's folder name says
 * (remote-allow / remote-deny). Every hook must land on a core type (never the x.codex fallback),
 * and the adapter's session log must pass stream validation.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { parseJsonl, validateStream } from '../../core/stream.js';
import { sessionFileName } from '../../adapter-kit/store.js';
import { command, daemonHarness, postHook } from '../../adapter-kit/test-utils/daemon-harness.js';
import { describeWhenPresent } from '../../test-utils/suites.js';
import { adapter } from './adapter.js';
import { vendorCapturesDir } from '../../test-utils/standard.js';

const DIR = vendorCapturesDir('codex-0.171.0');

/** What each recorded session must become, by folder name (folders not listed: checked generically). */
const EXPECTED: Record<string, string[]> = {
  'tui-remote-allow': ['session.started', 'run.started', 'tool.requested', 'attention.requested', 'control.accepted', 'attention.answered', 'attention.resolved', 'tool.completed', 'run.finished', 'session.ended'],
  'tui-remote-deny': ['session.started', 'run.started', 'tool.requested', 'attention.requested', 'control.accepted', 'attention.answered', 'attention.resolved', 'tool.denied', 'run.finished', 'session.ended'],
  // Codex refused the escalation itself (approval policy never): no hook says so, the call stays open
  'exec-escalation-rejected': ['session.started', 'run.started', 'tool.requested', 'run.finished', 'session.ended'],
  'exec-no-escalation': ['session.started', 'run.started', 'tool.requested', 'tool.completed', 'run.finished', 'session.ended'],
};

const daemon = daemonHarness();
afterEach(() => daemon.close());

describeWhenPresent(DIR, 'the recorded Codex 0.171.0 sessions, replayed', () => {
  const sessions = readdirSync(DIR).filter((f) => !f.startsWith('.')).sort();

  it('are there to replay', () => {
    expect(sessions.length).toBeGreaterThan(0);
  });

  it.each(sessions)('%s', async (folder) => {
    const { a: running, r, home } = await daemon.start(adapter, { hostname: 'capture-box', attentionTimeoutMs: 5000 });
    const files = readdirSync(join(DIR, folder)).filter((f) => /^\d+-[A-Za-z]+\.json$/.test(f)).sort();
    let session = '';
    for (const file of files) {
      const hook = file.replace(/^\d+-|\.json$/g, '');
      const input = JSON.parse(readFileSync(join(DIR, folder, file), 'utf8')) as Record<string, unknown>;
      session = String(input.session_id);
      const reply = postHook(running.url, hook, input);
      if (hook === 'PermissionRequest' && /remote-(allow|deny)/.test(folder)) {
        const [req] = (await r.waitFor((es) => es.some((e) => e.type === 'attention.requested'))).filter((e) => e.type === 'attention.requested');
        r.send(command('control.attention.respond', session, { answer: { option: folder.includes('deny') ? 'deny' : 'allow' } }, { subject: req!.id }));
      }
      expect((await reply).status, `${folder}/${file}`).toBe(200);
    }
    const events = await r.waitFor((es) => es.some((e) => e.type === 'session.ended'));
    expect(events.filter((e) => String(e.type).startsWith('x.'))).toEqual([]);
    if (EXPECTED[folder]) expect(events.map((e) => e.type)).toEqual(EXPECTED[folder]);
    if (folder.includes('remote-deny')) {
      const requested = events.find((e) => e.type === 'tool.requested')!;
      expect(events.find((e) => e.type === 'tool.denied')!.data.tool).toEqual(requested.data.tool);
    }
    await running.flushLog!(); // written off the reply path
    const parsed = parseJsonl(readFileSync(join(home, 'logs', 'codex', sessionFileName(session))));
    expect(parsed.issues).toEqual([]);
    expect(parsed.events).toHaveLength(events.length);
    expect(validateStream(parsed.events)).toEqual([]);
  });
});
