/**
 * A whole Codex session end to end through the recommended wiring: every hook command of
 * `hooks.example.json` (the file a user pastes) run as `aep hook codex <Event>` in process,
 * with payloads in the field set Codex 0.171.0 sends plus fields no mapping reads, into a live
 * daemon and a stub relay answering the held prompts. The adapter's session log must pass
 * `aep validate`, and the event sequence is pinned.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseJsonl, validateStream } from '../../core/stream.js';
import { sessionFileName } from '../../adapter-kit/store.js';
import { command, daemonHarness } from '../../adapter-kit/test-utils/daemon-harness.js';
import { main } from '../../cli/main.js';
import { fakeIo } from '../../test-utils/cli-io.js';
import { adapter } from './adapter.js';

interface HookEntry { matcher?: string; hooks: { type: string; command: string; timeout: number }[] }
const EXAMPLE = JSON.parse(readFileSync(new URL('./hooks.example.json', import.meta.url), 'utf8')) as { hooks: Record<string, HookEntry[]> };

const S = '01a3f0c2-7b41-7c22-9e10-5d2f6a1b9c33';
const BASE = {
  session_id: S,
  transcript_path: `/home/ren/.codex/sessions/2026/12/01/rollout-${S}.jsonl`,
  cwd: '/home/ren/src/kestrel',
  model: 'gpt-5.3-codex',
  permission_mode: 'default',
  // fields no mapping reads: a future Codex may send any of these
  prompt_id: 'pr_0042',
  effort: { level: 'medium' },
  client_build: { channel: 'stable', n: 171 },
};

const daemon = daemonHarness();
afterEach(() => daemon.close());

describe('a realistic Codex session through hooks.example.json', () => {
  it('wires all twelve Codex 0.171.0 hooks as `aep hook codex <Event>`, with timeouts Codex accepts', () => {
    expect(Object.keys(EXAMPLE.hooks).sort()).toEqual(['Interrupt', 'PermissionRequest', 'PostCompact', 'PostToolUse', 'PreCompact', 'PreToolUse', 'SessionEnd', 'SessionStart', 'Stop', 'SubagentStart', 'SubagentStop', 'UserPromptSubmit']);
    for (const [event, entries] of Object.entries(EXAMPLE.hooks)) {
      expect(entries).toHaveLength(1);
      const [handler] = entries[0]!.hooks;
      expect(handler).toMatchObject({ type: 'command', command: `aep hook codex ${event}` });
      // Codex cuts SessionEnd and Interrupt to at most 3 s
      if (event === 'SessionEnd' || event === 'Interrupt') expect(handler!.timeout).toBe(3);
    }
    // the held hook outlives the hold window plus the shim's 5 s slack, so Codex never kills it first
    const permission = EXAMPLE.hooks.PermissionRequest![0]!.hooks[0]!;
    expect(permission.timeout * 1000).toBeGreaterThanOrEqual(adapter.holdMs! + 5000);
  });

  it("every hook, extra fields included: the adapter's log passes aep validate", async () => {
    const { a: running, r, home } = await daemon.start(adapter, { hostname: 'kestrel-box', attentionTimeoutMs: adapter.holdMs! });
    const port = String(running.port);

    /** Run the example file's exact command for `event` with this payload on stdin; resolves to its stdout. */
    const run = async (event: string, payload: Record<string, unknown>): Promise<string> => {
      const argv = EXAMPLE.hooks[event]![0]!.hooks[0]!.command.split(' ');
      expect(argv.slice(0, 3)).toEqual(['aep', 'hook', 'codex']);
      const io = fakeIo({ stdin: JSON.stringify({ ...BASE, hook_event_name: event, ...payload }), env: { AEP_CODEX_PORT: port, AEP_HOME: home } });
      expect(await main(argv.slice(1), io)).toBe(0);
      expect(io.err).toBe('');
      return io.out;
    };
    const requests = () => r.events().filter((e) => e.type === 'attention.requested');
    const answer = async (reply: Promise<string>, n: number, data: Record<string, unknown>): Promise<string> => {
      await r.waitFor(() => requests().length === n);
      r.send(command('control.attention.respond', S, data, { subject: requests()[n - 1]!.id }));
      return reply;
    };
    const bash = (turn: string, call: string, cmd: string) => ({ turn_id: turn, tool_name: 'Bash', tool_use_id: call, tool_input: { command: cmd } });

    expect(await run('SessionStart', { source: 'startup' })).toBe('');
    // turn 1: a plain command, a held one allowed remotely, a subagent, a compaction
    expect(await run('UserPromptSubmit', { turn_id: 'turn_1', prompt: 'Publish the crate' })).toBe('');
    expect(await run('PreToolUse', bash('turn_1', 'call_1', 'cargo test'))).toBe('');
    expect(await run('PostToolUse', { ...bash('turn_1', 'call_1', 'cargo test'), tool_response: 'test result: ok. 41 passed' })).toBe('');
    expect(await run('PreToolUse', bash('turn_1', 'call_2', 'cargo publish'))).toBe('');
    const allow = run('PermissionRequest', { turn_id: 'turn_1', tool_name: 'Bash', tool_input: { command: 'cargo publish', description: 'Publish to crates.io' } });
    expect(await answer(allow, 1, { answer: { option: 'allow' } })).toBe('{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}');
    expect(await run('PostToolUse', { ...bash('turn_1', 'call_2', 'cargo publish'), tool_response: '' })).toBe('');
    expect(await run('SubagentStart', { turn_id: 'turn_1', agent_id: 'agent_7', agent_type: 'explorer' })).toBe('');
    expect(await run('UserPromptSubmit', { turn_id: 'turn_7', prompt: 'Find the changelog', agent_id: 'agent_7', agent_type: 'explorer' })).toBe('');
    expect(await run('PreToolUse', { ...bash('turn_7', 'call_3', 'ls docs'), agent_id: 'agent_7', agent_type: 'explorer' })).toBe('');
    expect(await run('PostToolUse', { ...bash('turn_7', 'call_3', 'ls docs'), tool_response: 'CHANGELOG.md', agent_id: 'agent_7', agent_type: 'explorer' })).toBe('');
    expect(await run('SubagentStop', { turn_id: 'turn_1', agent_id: 'agent_7', agent_type: 'explorer', agent_transcript_path: '/home/ren/.codex/sessions/sub.jsonl', stop_hook_active: false, last_assistant_message: 'docs/CHANGELOG.md' })).toBe('');
    expect(await run('PreCompact', { turn_id: 'turn_1', trigger: 'auto' })).toBe('');
    expect(await run('PostCompact', { turn_id: 'turn_1', trigger: 'auto' })).toBe('');
    expect(await run('Stop', { turn_id: 'turn_1', stop_hook_active: false, last_assistant_message: 'Published 0.4.0.' })).toBe('');
    // turn 2: a remote deny with guidance; Codex fires no PostToolUse after it
    expect(await run('UserPromptSubmit', { turn_id: 'turn_2', prompt: 'Clean the target dir' })).toBe('');
    expect(await run('PreToolUse', bash('turn_2', 'call_4', 'rm -rf target'))).toBe('');
    const deny = run('PermissionRequest', { turn_id: 'turn_2', tool_name: 'Bash', tool_input: { command: 'rm -rf target', description: 'Remove build output' } });
    expect(await answer(deny, 2, { answer: { text: 'use cargo clean' } })).toBe('{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"use cargo clean"}}}');
    expect(await run('Stop', { turn_id: 'turn_2', stop_hook_active: false, last_assistant_message: 'Not removed.' })).toBe('');
    // turn 3: the user interrupts while a prompt is held
    expect(await run('UserPromptSubmit', { turn_id: 'turn_3', prompt: 'Bump the version' })).toBe('');
    const interrupted = run('PermissionRequest', { turn_id: 'turn_3', tool_name: 'Bash', tool_input: { command: 'cargo set-version 0.5.0' } });
    await r.waitFor(() => requests().length === 3);
    expect(await run('Interrupt', { turn_id: 'turn_3' })).toBe('');
    expect(await interrupted).toBe('');
    // turn 4 ends with no hook at all (as a Codex turn does on a model error): drained at the next prompt;
    // turn 5 is still open when the session ends: drained before session.ended
    expect(await run('UserPromptSubmit', { turn_id: 'turn_4', prompt: 'Try again' })).toBe('');
    expect(await run('UserPromptSubmit', { turn_id: 'turn_5', prompt: 'And now?' })).toBe('');
    expect(await run('SessionEnd', { reason: 'other', model: undefined, permission_mode: undefined })).toBe('');

    const events = await r.waitFor((es) => es.some((e) => e.type === 'session.ended'));
    expect(events.map((e) => [e.type, e.run ?? null])).toEqual([
      ['session.started', null],
      ['run.started', 'turn_1'],
      ['tool.requested', 'turn_1'],
      ['tool.completed', 'turn_1'],
      ['tool.requested', 'turn_1'],
      ['attention.requested', 'turn_1'],
      ['control.accepted', null],
      ['attention.answered', 'turn_1'],
      ['attention.resolved', 'turn_1'],
      ['tool.completed', 'turn_1'],
      ['delegation.subagent.started', 'turn_1'],
      ['tool.requested', 'turn_7'],
      ['tool.completed', 'turn_7'],
      ['delegation.subagent.stopped', 'turn_1'],
      ['session.compacted', null],
      ['run.finished', 'turn_1'],
      ['run.started', 'turn_2'],
      ['tool.requested', 'turn_2'],
      ['attention.requested', 'turn_2'],
      ['control.accepted', null],
      ['attention.answered', 'turn_2'],
      ['attention.resolved', 'turn_2'],
      ['tool.denied', 'turn_2'],
      ['run.finished', 'turn_2'],
      ['run.started', 'turn_3'],
      ['attention.requested', 'turn_3'],
      ['attention.resolved', 'turn_3'],
      ['run.cancelled', 'turn_3'],
      ['run.started', 'turn_4'],
      ['run.cancelled', 'turn_4'],
      ['run.started', 'turn_5'],
      ['run.cancelled', 'turn_5'],
      ['session.ended', null],
    ]);
    expect(events.find((e) => e.type === 'tool.denied')).toMatchObject({ data: { tool: { name: 'Bash', call_id: 'call_4' }, by: 'runtime' } });
    expect(events.filter((e) => e.type === 'run.cancelled').map((e) => e.data)).toEqual([{ by: 'user' }, {}, {}]);

    // the durable log, exactly as `aep validate` reads it
    await running.flushLog!(); // written off the reply path
    const log = join(home, 'logs', 'codex', sessionFileName(S));
    const parsed = parseJsonl(readFileSync(log));
    expect(parsed.issues).toEqual([]);
    expect(parsed.events.map((entry) => (entry.value as { id: string }).id)).toEqual(events.map((e) => e.id));
    expect(validateStream(parsed.events)).toEqual([]);
    const io = fakeIo();
    expect(await main(['validate', log], io)).toBe(0);
    expect(io.out).toBe(`${log}: ${events.length} events, valid\n`);
  });
});
