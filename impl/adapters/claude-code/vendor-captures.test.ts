/**
 * The real hook payloads Claude Code 2.1.197 sent in scripted sessions (../shared/vendor-captures,
 * read at test time, never copied; skipped when absent), replayed in firing order through the
 * adapter's engine. A held PermissionRequest is answered the way the session's folder name says
 * (remote allow or deny) or left to time out (record-only). Every session must yield a valid
 * stream with one session.started, runs named by the payloads' prompt_id, every request closed,
 * and every tool call that Claude Code reported either requested-and-terminal or, after a remote
 * deny, closed by the adapter. `AEP_VENDOR_CAPTURES` names the captures folder when it is not
 * ../shared/vendor-captures.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { describeWhenPresent } from '../../test-utils/suites.js';
import { validateStream } from '../../core/stream.js';
import { DEFAULT_POSTURE } from '../../adapter-kit/capture.js';
import { createEngine } from '../../adapter-kit/engine.js';
import { adapter } from './adapter.js';
import { vendorCapturesDir } from '../../test-utils/standard.js';

const CC = vendorCapturesDir('claude-code-2.1.197');

function replay(folder: string): Promise<{ events: Record<string, any>[]; replies: Record<string, string>; inputs: Record<string, any>[] }> {
  const files = readdirSync(folder).filter((f) => f.endsWith('.json')).sort();
  const inputs = files.map((f) => JSON.parse(readFileSync(join(folder, f), 'utf8')) as Record<string, any>);
  const lines: string[] = [];
  const timers: (() => void)[] = [];
  const engine = createEngine(adapter, {
    posture: DEFAULT_POSTURE, timeoutMs: 1000, instruct: false, host: 'capture', epoch: 0, send: (l) => lines.push(l), log: () => {},
    timers: { set: (fn) => timers.push(fn), clear: () => {} },
  });
  const events = () => lines.map((l) => JSON.parse(l) as Record<string, any>);
  const option = answer(folder);
  return (async () => {
    const replies: Record<string, string> = {};
    for (const [i, input] of inputs.entries()) {
      const pending = engine.handleHook(input.hook_event_name, input);
      if (input.hook_event_name === 'PermissionRequest') {
        const request = events().filter((e) => e.type === 'attention.requested').at(-1)!;
        if (option) engine.onCommand('', { aep: '0.1', id: `c${i}`, type: 'control.attention.respond', source: 'aep://t/agent/op', agent: 'op', session: input.session_id, subject: request.id, data: { answer: { option } } });
        else timers.shift()!(); // the hold window elapses: record-only
      }
      replies[files[i]!] = await pending;
    }
    return { events: events(), replies, inputs };
  })();
}

describeWhenPresent(CC, 'Claude Code 2.1.197 captured sessions through the adapter', () => {
  for (const name of readdirSync(CC).sort()) {
    it(name, async () => {
      const { events, replies, inputs } = await replay(join(CC, name));
      expect(validateStream(events)).toEqual([]);
      expect(events.filter((e) => e.type === 'session.started')).toHaveLength(1);
      expect(events.at(-1)!.type).toBe('session.ended');
      // runs are named by the turn's prompt_id
      const prompts = new Set(inputs.filter((i) => i.hook_event_name === 'UserPromptSubmit').map((i) => i.prompt_id));
      expect(new Set(events.filter((e) => e.type === 'run.started').map((e) => e.run))).toEqual(prompts);
      // every request closed, every requested call terminal
      const opened = events.filter((e) => e.type === 'attention.requested').map((e) => e.id);
      const closed = events.filter((e) => e.type === 'attention.resolved' || e.type === 'attention.timeout').map((e) => e.subject);
      expect(closed).toEqual(opened);
      const calls = events.filter((e) => e.type === 'tool.requested').map((e) => e.data.tool.call_id);
      const terminal = events.filter((e) => ['tool.completed', 'tool.failed', 'tool.denied'].includes(e.type)).map((e) => e.data.tool.call_id);
      if (name.startsWith('print-mode')) expect(terminal).toEqual([]); // plain -p denies silently: no hook says so
      else expect(terminal).toEqual(calls);
      if (name.includes('remote-deny')) expect(events.find((e) => e.type === 'tool.denied')!.data.by).toBe('runtime');
      const model = inputs[0]!.model;
      expect(events[0]!.data['gen_ai.request.model']).toBe(model); // present in the TUI, absent in SDK/-p mode
      for (const [file, reply] of Object.entries(replies)) {
        if (file.includes('PermissionRequest') && answer(name)) expect(reply).toContain(`"behavior":"${answer(name)}"`);
        else expect([file, reply]).toEqual([file, '{}']);
      }
    });
  }
});

function answer(name: string): string | null {
  return name.includes('remote-allow') ? 'allow' : name.includes('remote-deny') ? 'deny' : null;
}

