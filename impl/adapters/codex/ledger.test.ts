import { describe, expect, it } from 'vitest';
import { CodexLedger, requestCovers } from './ledger.js';

describe('requestCovers: is a permission request about this call?', () => {
  it('every member of the call input must be equal in the request input, which may add more', () => {
    expect(requestCovers({ command: 'cargo publish' }, { command: 'cargo publish', description: 'release' })).toBe(true);
    expect(requestCovers({ command: ['git', 'push'] }, { command: ['git', 'push'], justification: 'ship' })).toBe(true);
    expect(requestCovers({ command: 'cargo publish' }, { command: 'cargo publish --dry-run' })).toBe(false);
    expect(requestCovers({ command: 'ls', workdir: '/w' }, { command: 'ls' })).toBe(false);
    expect(requestCovers({ b: { y: 1, x: 2 } }, { b: { x: 2, y: 1 } })).toBe(true);
    expect(requestCovers('raw', 'raw')).toBe(true);
    expect(requestCovers(undefined, undefined)).toBe(false);
  });
});

describe('CodexLedger', () => {
  it('one terminal per turn, per session', () => {
    const l = new CodexLedger();
    expect(l.runClosed('s', 't1')).toBe(false);
    expect(l.closeRun('s', 't1')).toBe(true);
    expect(l.closeRun('s', 't1')).toBe(false);
    expect(l.runClosed('s', 't1')).toBe(true);
    expect(l.runClosed('other', 't1')).toBe(false);
  });

  it('finds the call a request is about: the latest covered one, else the only one of that tool', () => {
    const l = new CodexLedger();
    l.openCall('s', { id: 'c1', tool: 'Bash', input: { command: 'make' }, run: 't' });
    l.openCall('s', { id: 'c2', tool: 'Bash', input: { command: 'make install' }, run: 't' });
    l.openCall('s', { id: 'c3', tool: 'Bash', input: { command: 'make' }, run: 't' });
    l.openCall('s', { id: 'p1', tool: 'apply_patch', input: { command: '*** Begin Patch' }, run: 't' });
    expect(l.callFor('s', 'Bash', { command: 'make', description: 'build' })?.id).toBe('c3');
    expect(l.callFor('s', 'Bash', { command: 'make install' })?.id).toBe('c2');
    expect(l.callFor('s', 'Bash', { command: 'rm -rf /' })).toBeUndefined();
    expect(l.callFor('s', 'apply_patch', { patch: 'differently shaped' })?.id).toBe('p1');
    expect(l.callFor('other', 'Bash', { command: 'make' })).toBeUndefined();
  });

  it('a request naming another tool than any open call of its turn pairs with the turn\'s open call', () => {
    const l = new CodexLedger();
    l.openCall('s', { id: 'old', tool: 'Bash', input: { command: 'ls' }, run: 't0' });
    l.openCall('s', { id: 'b1', tool: 'Bash', input: { command: "apply_patch <<'EOF'\n*** Begin Patch" }, run: 't1' });
    expect(l.callFor('s', 'apply_patch', { patch: '*** Begin Patch' }, 't1')?.id).toBe('b1');
    // two open calls in the turn: the one whose input names the tool, else the latest
    l.openCall('s', { id: 'b0', tool: 'Read', input: { path: 'a' }, run: 't1' });
    expect(l.callFor('s', 'apply_patch', { patch: 'x' }, 't1')?.id).toBe('b1');
    l.openCall('s', { id: 'b2', tool: 'Read', input: { path: 'b' }, run: 't2' });
    l.openCall('s', { id: 'b3', tool: 'Grep', input: { q: 'b' }, run: 't2' });
    expect(l.callFor('s', 'write_file', { x: 1 }, 't2')?.id).toBe('b3');
    // a turn with no open call, or a tool with open calls none of which the request covers: no guess
    expect(l.callFor('s', 'apply_patch', { patch: 'x' }, 't9')).toBeUndefined();
    expect(l.callFor('s', 'Read', { path: 'z' }, 't2')).toBeUndefined();
  });

  it('a closed call is closed once, never reopened, and no longer found', () => {
    const l = new CodexLedger();
    l.openCall('s', { id: 'c1', tool: 'Bash', input: { command: 'make' } });
    expect(l.closeCall('s', 'c1')).toBe(true);
    expect(l.closeCall('s', 'c1')).toBe(false);
    l.openCall('s', { id: 'c1', tool: 'Bash', input: { command: 'make' } });
    expect(l.callFor('s', 'Bash', { command: 'make' })).toBeUndefined();
  });

  it('forgets a session\'s open calls at its end, and stays bounded', () => {
    const l = new CodexLedger(3);
    l.openCall('s', { id: 'c1', tool: 'Bash', input: { command: 'a' } });
    l.endSession('s');
    expect(l.callFor('s', 'Bash', { command: 'a' })).toBeUndefined();
    for (const id of ['a', 'b', 'c', 'd']) l.openCall('s', { id, tool: 'T', input: { id } });
    expect(l.callFor('s', 'T', { id: 'a' })).toBeUndefined();
    expect(l.callFor('s', 'T', { id: 'd' })?.id).toBe('d');
    for (const t of ['1', '2', '3', '4']) l.closeRun('s', t);
    expect(l.runClosed('s', '1')).toBe(false);
    expect(l.runClosed('s', '4')).toBe(true);
  });
});
