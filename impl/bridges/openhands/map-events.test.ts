import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { digest } from '../../core/digest.js';
import { mapEvent } from './map-events.js';

/** An ActionEvent of our own: a grep over a source tree, risk MEDIUM. */
const action = {
  kind: 'ActionEvent',
  id: 'oh_ev_9',
  timestamp: '2026-03-02T08:00:01.5',
  action: { kind: 'GrepAction', pattern: 'TODO', path: 'src', include: '*.ts' },
  tool_name: 'grep',
  tool_call_id: 'tc_9',
  tool_call: { id: 'tc_9', type: 'function', function: { name: 'grep', arguments: '{"pattern":"TODO","path":"src","include":"*.ts"}' } },
  llm_response_id: 'r_9',
  security_risk: 'MEDIUM',
};

/** Independent computation: sorted compact JSON text of the action, then SHA-256 of that text quoted. */
const expectedDigest = (a: Record<string, unknown>): string => {
  const text = JSON.stringify(Object.fromEntries(Object.keys(a).sort().map((k) => [k, a[k]])));
  return createHash('sha256').update(JSON.stringify(text), 'utf8').digest('hex').slice(0, 32);
};

describe('OpenHands ActionEvent args_digest (AEP-0003 §9.3 over the action text)', () => {
  it('digests the canonical text of the whole action object, kind included', () => {
    const m = mapEvent(action);
    expect(m?.data.args_digest).toBe(expectedDigest(action.action));
    expect(m?.data.args_digest).not.toBe(digest(JSON.parse(action.tool_call.function.arguments)));
    expect(m?.data.args).toBeUndefined();
  });

  it('is insensitive to the member order of the action', () => {
    const reordered = { ...action, action: { include: '*.ts', path: 'src', pattern: 'TODO', kind: 'GrepAction' } };
    expect(mapEvent(reordered)?.data.args_digest).toBe(mapEvent(action)?.data.args_digest);
  });

  it('at full capture carries the digested text as args, so digest(args) joins', () => {
    const m = mapEvent(action, { ceiling: 'full' });
    expect(m?.data.args).toBe('{"include":"*.ts","kind":"GrepAction","path":"src","pattern":"TODO"}');
    expect(digest(m?.data.args)).toBe(m?.data.args_digest);
  });

  it('falls back to the raw arguments string when the event has no action object', () => {
    const { action: _a, ...bare } = action;
    expect(mapEvent(bare)?.data.args_digest).toBe(digest(action.tool_call.function.arguments));
    const { tool_call: _t, ...none } = bare;
    expect(mapEvent(none)?.data).not.toHaveProperty('args_digest');
  });
});

describe('the record\'s redaction-gated members (bridge-openhands design record, field maps)', () => {
  const ev = (kind: string, extra: Record<string, unknown>) => ({ kind, id: 'ev_1', timestamp: 't', source: 'environment', ...extra });
  const base = { vendor_ts: 't', vendor_event_id: 'ev_1' };
  it('Condensation carries its summary, ConversationErrorEvent its detail, at redacted+ only', () => {
    const cond = ev('Condensation', { forgotten_event_ids: ['a'], summary: 'earlier work' });
    expect(mapEvent(cond)).toEqual({ type: 'session.compacted', data: { ...base, forgotten: 1 } });
    expect(mapEvent(cond, { ceiling: 'redacted' })!.data).toEqual({ ...base, forgotten: 1, summary: 'earlier work' });
    const err = ev('ConversationErrorEvent', { code: 'E', detail: 'key refused' });
    expect(mapEvent(err)!.data).toEqual({ ...base, code: 'E' });
    expect(mapEvent(err, { ceiling: 'full' })!.data).toEqual({ ...base, code: 'E', detail: 'key refused' });
  });
  it('a state update\'s value rides at redacted+: `state` on the snapshot (the schema member), `value` on a delta', () => {
    const full = ev('ConversationStateUpdateEvent', { key: 'full_state', value: { execution_status: 'running' } });
    expect(mapEvent(full)!.data).toEqual(base);
    expect(mapEvent(full, { ceiling: 'redacted' })!.data).toEqual({ ...base, state: { execution_status: 'running' } });
    const key = ev('ConversationStateUpdateEvent', { key: 'execution_status', value: 'idle' });
    expect(mapEvent(key, { ceiling: 'metadata' })!.data).toEqual({ ...base, key: 'execution_status' });
    expect(mapEvent(key, { ceiling: 'full' })!.data).toEqual({ ...base, key: 'execution_status', value: 'idle' });
  });
  it('a MessageEvent names its sender at metadata', () => {
    expect(mapEvent(ev('MessageEvent', { source: 'agent', sender: 'planner', llm_message: { role: 'assistant', content: [] } }))!.data).toEqual({ ...base, role: 'assistant', sender: 'planner' });
  });
});
