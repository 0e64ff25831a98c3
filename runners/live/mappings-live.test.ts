import { describe, expect, it } from 'vitest';
import { withoutMintedCallId } from './mappings-live.js';

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
