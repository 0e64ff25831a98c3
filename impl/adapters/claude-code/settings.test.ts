/**
 * The two example wirings: `settings.example.json` (http hooks to the daemon, recommended) and
 * `settings.command.example.json` (the `aep hook` shim). Both wire exactly the hooks of wiring.ts,
 * every hook the adapter maps is either wired or left out with a stated reason, and the held
 * hooks get more time than the daemon's hold window.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { adapter } from './adapter.js';
import { COMMAND_ONLY, HELD, HELD_TIMEOUT_S, TIMEOUT_S, UNWIRED, WIRED } from './wiring.js';

const read = (name: string) => JSON.parse(readFileSync(new URL(`./${name}`, import.meta.url), 'utf8'));
const http = read('settings.example.json');
const command = read('settings.command.example.json');
const fixture = JSON.parse(readFileSync(new URL('../../../conformance/fixtures/mappings/claude-code.json', import.meta.url), 'utf8'));
const TOOL_EVENTS = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest', 'PermissionDenied']);
const timeout = (event: string) => (HELD.includes(event) ? HELD_TIMEOUT_S : TIMEOUT_S);

describe('the example wirings', () => {
  it('every hook the adapter maps (our Annex A pins) is wired, or left out with a reason', () => {
    const pinned = new Set(Object.values<any>(fixture.hooks).map((h) => h.input.hook_event_name as string));
    expect([...pinned].filter((h) => !WIRED.includes(h) && UNWIRED[h] === undefined)).toEqual([]);
    expect(WIRED.filter((h) => UNWIRED[h] !== undefined)).toEqual([]);
    expect(WIRED.filter((h) => !pinned.has(h))).toEqual([]);
    for (const reason of Object.values(UNWIRED)) expect(reason.length).toBeGreaterThan(20);
  });

  it('never wires WorktreeCreate, whose reply Claude Code reads as the worktree path', () => {
    expect(http.hooks.WorktreeCreate).toBeUndefined();
    expect(command.hooks.WorktreeCreate).toBeUndefined();
  });

  it('settings.example.json: one http hook per event, POSTing to the daemon on its default port; the command-only hooks through the shim', () => {
    expect(Object.keys(http)).toEqual(['hooks']);
    expect(Object.keys(http.hooks)).toEqual([...WIRED]);
    expect(Object.keys(COMMAND_ONLY)).toEqual(['SessionStart']);
    for (const event of WIRED) {
      const hook = COMMAND_ONLY[event] !== undefined
        ? { type: 'command', command: `aep hook claude-code ${event}`, timeout: timeout(event) }
        : { type: 'http', url: `http://127.0.0.1:${adapter.defaultPort}/hook/${event}`, timeout: timeout(event) };
      const group = { ...(TOOL_EVENTS.has(event) ? { matcher: '*' } : {}), hooks: [hook] };
      expect(http.hooks[event]).toEqual([group]);
    }
  });

  it('settings.command.example.json: the same hooks through `aep hook claude-code <Event>`', () => {
    expect(Object.keys(command)).toEqual(['hooks']);
    expect(Object.keys(command.hooks)).toEqual([...WIRED]);
    for (const event of WIRED) {
      const group = { ...(TOOL_EVENTS.has(event) ? { matcher: '*' } : {}), hooks: [{ type: 'command', command: `aep hook claude-code ${event}`, timeout: timeout(event) }] };
      expect(command.hooks[event]).toEqual([group]);
    }
  });

  it('gives held hooks more time than the default hold window (55 s) plus the shim margin (5 s)', () => {
    expect(HELD_TIMEOUT_S).toBeGreaterThan(60);
    for (const event of HELD) expect(http.hooks[event][0].hooks[0].timeout).toBe(HELD_TIMEOUT_S);
  });
});
