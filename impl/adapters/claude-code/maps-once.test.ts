/** Issue 35's double work: a PermissionRequest is mapped once (by its held loop), not first by `handle` and thrown away. */
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_POSTURE } from '../../adapter-kit/capture.js';
import { createEngine } from '../../adapter-kit/engine.js';

const calls = vi.hoisted(() => ({ mapHook: [] as string[] }));
vi.mock('./map-hooks.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('./map-hooks.js')>();
  return {
    ...real,
    mapHook: (input: Record<string, unknown>, posture: Parameters<typeof real.mapHook>[1]) => {
      calls.mapHook.push(String(input.hook_event_name));
      return real.mapHook(input, posture);
    },
  };
});

const { adapter } = await import('./adapter.js');

describe('claude-code: each hook mapped once', () => {
  it('PermissionRequest is not run through mapHook before its held loop maps it; PreToolUse is', async () => {
    const lines: string[] = [];
    const engine = createEngine(adapter, { posture: DEFAULT_POSTURE, timeoutMs: 20, instruct: false, host: 'h', epoch: 0, send: (l) => lines.push(l), log: () => {} });
    const input = { session_id: 's1', tool_name: 'Bash', tool_input: { command: 'ls' } };
    await engine.handleHook('PreToolUse', { ...input, tool_use_id: 't1' });
    const reply = await engine.handleHook('PermissionRequest', input); // times out: dismissed, neutral
    expect(typeof reply).toBe('string');
    expect(calls.mapHook).toEqual(['PreToolUse']);
    expect(lines.map((l) => JSON.parse(l).type)).toContain('attention.requested');
    engine.dismissAll();
  });
});
