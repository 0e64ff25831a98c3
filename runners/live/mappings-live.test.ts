import { describe, expect, it } from 'vitest';
import { joinPrimes, synthesizedTypes, withoutMintedCallId } from './mappings-live.js';

describe('withoutMintedCallId', () => {
  const delivered = { type: 'tool.requested', data: { tool: { name: 'read_file', call_id: 'call_01X' } } };
  it('sets aside a call id the pin does not hold (minted by the adapter)', () => {
    expect(withoutMintedCallId({ type: 'tool.requested', data: { tool: { name: 'read_file' } } }, delivered)).toEqual({ type: 'tool.requested', data: { tool: { name: 'read_file' } } });
  });
  it('keeps it when the pin holds one (the vendor named the call), and leaves other events alone', () => {
    expect(withoutMintedCallId({ type: 'tool.requested', data: { tool: { name: 'read_file', call_id: 'v1' } } }, delivered)).toBe(delivered);
    expect(withoutMintedCallId({ type: 'run.started', data: {} }, delivered)).toBe(delivered);
    const empty = { type: 'tool.requested', data: { tool: { name: 'read_file', call_id: '' } } };
    expect(withoutMintedCallId({ type: 'tool.requested', data: { tool: { name: 'read_file' } } }, empty)).toBe(empty);
  });
});

describe('joinPrimes: how an entry\'s join is rebuilt in a daemon', () => {
  const input = { conversationId: 'conv-q', stepIdx: 12, error: '' };
  it('a join result {name} primes one PreToolUse at the entry\'s own stepIdx', () => {
    expect(joinPrimes({ name: 'list_dir' }, input, 'conversationId')).toEqual([{ stepIdx: 12, name: 'list_dir' }]);
  });
  it('a table primes one per row of the entry\'s conversation; nothing else primes', () => {
    const table = [{ conversationId: 'conv-q', stepIdx: 3, name: 'a' }, { conversationId: 'other', stepIdx: 12, name: 'b' }];
    expect(joinPrimes(table, input, 'conversationId')).toEqual([{ stepIdx: 3, name: 'a' }]);
    for (const none of [undefined, null, {}, { name: 4 }, 'x']) expect(joinPrimes(none, input, 'conversationId')).toEqual([]);
  });
});

describe('synthesizedTypes', () => {
  const file = (source: string, identity: Record<string, unknown>) => ({ source, identity, hooks: [], forms: [], moments: [], todos: [], events: [], unread: [] }) as Parameters<typeof synthesizedTypes>[0];
  it('a file\'s own identity.synthesized wins; else what the daemon is known to add, by source', () => {
    expect([...synthesizedTypes(file('antigravity', { synthesized: ['session.started'] }))]).toEqual(['session.started']);
    expect([...synthesizedTypes(file('antigravity', {}))]).toEqual(['session.started', 'run.started']);
    expect([...synthesizedTypes(file('codex', {}))]).toEqual([]);
  });
});
