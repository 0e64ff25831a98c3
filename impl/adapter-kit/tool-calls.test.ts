import { describe, expect, it } from 'vitest';
import { createEngine } from './engine.js';
import { DEFAULT_POSTURE } from './capture.js';
import { callKey, callMatch, dismissToolRequests, toolCallKey } from './tool-calls.js';
import type { AdapterDef, HookContext } from './types.js';

describe('tool call keys', () => {
  it('match on canonical input: key order never matters, other input never matches, ignored members are left out', () => {
    expect(callMatch({ b: 1, a: [true, null] })).toBe('{"a":[true,null],"b":1}');
    expect(callMatch(undefined)).toBe('null');
    expect(toolCallKey('s1', 'Bash', { command: 'ls', cwd: '/' })).toBe(toolCallKey('s1', 'Bash', { cwd: '/', command: 'ls' }));
    expect(toolCallKey('s1', 'Bash', { command: 'ls' })).not.toBe(toolCallKey('s1', 'Bash', { command: 'pwd' }));
    expect(toolCallKey('s1', 'Bash', { command: 'ls', description: 'list' }, ['description'])).toBe(toolCallKey('s1', 'Bash', { command: 'ls' }, ['description']));
    expect(callMatch(['description'], ['description'])).toBe('["description"]'); // only an object's members are left out
    expect(callKey('gate', 's1', 'Bash', { command: 'ls' })).toBe('gate:s1:Bash:{"command":"ls"}');
  });
});

/** Holds raised through a real engine's context; the lines it emitted. */
function harness(): { ctx: HookContext; lines: Record<string, any>[] } {
  const lines: Record<string, any>[] = [];
  const def: AdapterDef = { agent: 'probe', defaultPort: 0, emits: ['attention'], accepts: [], neutralReply: () => '', steerable: () => false, steeringReply: () => '', handle: async () => '' };
  let now = Date.UTC(2026, 0, 1);
  const engine = createEngine(def, { posture: DEFAULT_POSTURE, timeoutMs: 60_000, instruct: false, host: 'h', epoch: 0, clock: () => (now += 10), send: (l) => lines.push(JSON.parse(l)), log: () => {} });
  return { ctx: engine.context, lines };
}

describe('dismissToolRequests', () => {
  const held = (ctx: HookContext, command: string, extra: Record<string, unknown> = {}) =>
    ctx.hold({ session: 's', mapped: { type: 'attention.requested', data: { kind: 'permission', prompt: command, options: [{ id: 'allow', label: 'Allow' }], respond_via: ['control'] } }, options: [{ id: 'allow', label: 'Allow' }], refusing: 'deny', key: toolCallKey('s', 'Bash', { command, ...extra }, ['description']) });

  it('a post-tool hook of one call dismisses only that call, never a parallel call of the same tool', async () => {
    const { ctx, lines } = harness();
    const a = held(ctx, 'npm test', { description: 'run the tests' });
    const b = held(ctx, 'npm run lint', { description: 'lint' });
    dismissToolRequests({ tool_name: 'Bash', tool_input: { command: 'npm run lint' } }, 's', ctx, ['description']);
    expect((await b).settlement).toEqual({ kind: 'dismissed' });
    expect(ctx.pending('s').map((p) => p.id)).toEqual([(lines[0] as { id: string }).id]);
    dismissToolRequests({ tool_name: 'Read', tool_input: { command: 'npm test' } }, 's', ctx, ['description']);
    dismissToolRequests({ tool_name: 'Bash', tool_input: { command: 'npm test', cwd: '/x' } }, 's', ctx, ['description']);
    expect(ctx.pending('s')).toHaveLength(1);
    dismissToolRequests({ tool_name: 'Bash', tool_input: { command: 'npm test' } }, 's', ctx, ['description']);
    expect((await a).settlement).toEqual({ kind: 'dismissed' });
    expect(lines.filter((l) => l.type === 'attention.resolved').map((l) => l.subject)).toEqual([lines[1]!.id, lines[0]!.id]);
  });

  it('two held requests of identical calls: one post-tool hook dismisses the oldest only; a hook with no tool_input dismisses every request of its tool', async () => {
    const { ctx, lines } = harness();
    void held(ctx, 'make');
    void held(ctx, 'make');
    void held(ctx, 'make deploy');
    dismissToolRequests({ tool_name: 'Bash', tool_input: { command: 'make' } }, 's', ctx);
    expect(ctx.pending('s').map((p) => p.id)).toEqual([lines[1]!.id, lines[2]!.id]);
    dismissToolRequests({ tool_name: 'Bash' }, 's', ctx);
    expect(ctx.pending('s')).toEqual([]);
  });
});
