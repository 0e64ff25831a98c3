import { describe, expect, it } from 'vitest';
import { CommandLedger } from './ledger.js';

describe('CommandLedger: one decision per (source, id), its ack bytes kept', () => {
  it('answers a recorded command with the exact first bytes, and never re-records it', () => {
    const l = new CommandLedger();
    const ack = '{"aep":"0.1","id":"01A","type":"control.accepted","cause":"c1"}';
    expect(l.recorded('aep://a/agent/op', 'c1')).toBeUndefined();
    l.record('aep://a/agent/op', 'c1', ack);
    l.record('aep://a/agent/op', 'c1', '{"type":"control.rejected"}');
    expect(l.recorded('aep://a/agent/op', 'c1')).toBe(ack);
  });

  it('keys on source AND id: the same id from another source, or another id, is not recorded', () => {
    const l = new CommandLedger();
    l.record('aep://a/agent/op', 'c1', 'ack-a');
    expect(l.recorded('aep://b/agent/op', 'c1')).toBeUndefined();
    expect(l.recorded('aep://a/agent/op', 'c2')).toBeUndefined();
  });
});
