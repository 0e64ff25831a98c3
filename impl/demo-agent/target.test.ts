import { describe, expect, it } from 'vitest';
import { DemoTarget, isCommandType, type TargetConfig } from './target.js';

const CFG: TargetConfig = {
  agent: 'aep-demo-agent',
  source: 'aep://box/agent/aep-demo-agent/session/ds',
  session: 'ds',
  run: 'dr',
  epoch: 7,
  ackWindowMs: 10000,
  instance: 'box/1',
};
const T = '2026-01-02T03:04:05.000Z';
const SRC = '"source":"aep://box/agent/aep-demo-agent/session/ds","agent":"aep-demo-agent","session":"ds"';

/** A target with a frozen clock and ids id-1, id-2, ... (id-1..id-3 are the opening events). */
function target(): DemoTarget {
  let n = 0;
  return new DemoTarget(CFG, () => new Date(T), () => `id-${++n}`);
}

function cmd(type: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ aep: '0.1', id: 'c-1', type, time: T, source: 'aep://x/agent/sender', agent: 'sender', session: 'ds', ...extra });
}

describe('DemoTarget', () => {
  it('says hello declaring attention.respond and cancel, not pause', () => {
    expect(target().hello()).toBe(
      '{"type":"hello","versions":["0.1"],"role":"emitter","identity":{"agent":"aep-demo-agent","instance":"box/1"},' +
        '"capabilities":{"emits":["session","run","attention","control"],"capture":["none","metadata","redacted"],' +
        '"control":{"accepts":["control.attention.respond","control.cancel"],"ack_window_ms":10000}}}',
    );
  });

  it('opens the session with session.started, run.started and one permission request', () => {
    const t = target();
    expect(t.opening()).toEqual([
      `{"aep":"0.1","id":"id-1","type":"session.started","time":"${T}",${SRC},"seq":0,"epoch":7,"capture":"metadata","data":{"client":{"name":"aep-demo-agent"}}}`,
      `{"aep":"0.1","id":"id-2","type":"run.started","time":"${T}",${SRC},"run":"dr","seq":1,"epoch":7,"cause":"id-1","capture":"metadata","data":{"trigger":"user"}}`,
      `{"aep":"0.1","id":"id-3","type":"attention.requested","subject":"demo-permission","time":"${T}",${SRC},"run":"dr","seq":2,"epoch":7,"cause":"id-2","severity":"notice","capture":"metadata","data":{"kind":"permission","prompt":"aep-demo-agent requests permission: demo-permission","options":[{"id":"allow","label":"Allow"},{"id":"deny","label":"Deny"}],"respond_via":["control"]}}`,
    ]);
    expect(t.opening()).toEqual(t.opening()); // a reconnect re-sends the same bytes
  });

  it('honors a run cancel: ack, the open request dismissed, then run.cancelled cause-linked to the command', () => {
    const t = target();
    expect(t.onFrame(cmd('control.cancel', { run: 'dr', capture: 'redacted', data: { scope: 'run', reason: 'stop' } }))).toEqual([
      `{"aep":"0.1","id":"id-4","type":"control.accepted","time":"${T}",${SRC},"seq":3,"epoch":7,"cause":"c-1","capture":"metadata"}`,
      `{"aep":"0.1","id":"id-5","type":"attention.resolved","subject":"id-3","time":"${T}",${SRC},"run":"dr","seq":4,"epoch":7,"cause":"c-1","capture":"metadata","data":{"resolution":"dismissed","latency_ms":0}}`,
      `{"aep":"0.1","id":"id-6","type":"run.cancelled","time":"${T}",${SRC},"run":"dr","seq":5,"epoch":7,"cause":"c-1","severity":"notice","capture":"metadata","data":{"by":"control"}}`,
    ]);
    expect(t.isRunOpen).toBe(false);
  });

  it('re-sends the recorded ack byte-identically for a retransmitted command, and never re-executes', () => {
    const t = target();
    const c = cmd('control.cancel', { run: 'dr', data: { scope: 'run' } });
    const [ack] = t.onFrame(c);
    expect(t.onFrame(c)).toEqual([ack]);
    expect(t.onFrame(c)).toEqual([ack]);
  });

  it('refuses a cancel of an already-terminal run', () => {
    const t = target();
    t.onFrame(cmd('control.cancel', { run: 'dr', data: { scope: 'run' } }));
    expect(t.onFrame(cmd('control.cancel', { id: 'c-2', run: 'dr', data: { scope: 'run' } }))).toEqual([
      `{"aep":"0.1","id":"id-7","type":"control.rejected","time":"${T}",${SRC},"seq":6,"epoch":7,"cause":"c-2","capture":"redacted","data":{"reason":"refused","detail":"run dr already ended"}}`,
    ]);
  });

  it('nacks an undeclared type unsupported, an unknown run, scope or request invalid', () => {
    const t = target();
    const reasons = [
      cmd('control.pause', { id: 'p', data: {} }),
      cmd('control.cancel', { id: 'u', run: 'other', data: { scope: 'run' } }),
      cmd('control.cancel', { id: 's', run: 'dr', data: { scope: 'everything' } }),
      cmd('control.attention.respond', { id: 'r', subject: 'nope', data: { answer: { option: 'allow' } } }),
      cmd('control.attention.respond', { id: 'q', subject: 'id-3', data: { answer: { option: 'maybe' } } }),
    ].map((c) => (JSON.parse(t.onFrame(c)[0]!) as { data: { reason: string } }).data.reason);
    expect(reasons).toEqual(['unsupported', 'invalid', 'invalid', 'invalid', 'invalid']);
  });

  it('treats a session-scoped cancel, a run-scoped one without run, or one without scope, as a cancel of its one run', () => {
    for (const extra of [{ data: { scope: 'session' } }, { data: { scope: 'run' } }, {}, { run: 'dr' }, { run: 'dr', data: {} }]) {
      const t = target();
      const out = t.onFrame(cmd('control.cancel', extra)).map((f) => JSON.parse(f) as { type: string; cause: string });
      expect(out.map((e) => [e.type, e.cause])).toEqual([
        ['control.accepted', 'c-1'],
        ['attention.resolved', 'c-1'],
        ['run.cancelled', 'c-1'],
      ]);
    }
  });

  it('answers its permission request over control: ack, attention.answered, attention.resolved', () => {
    const t = target();
    const out = t.onFrame(cmd('control.attention.respond', { subject: 'id-3', cause: 'id-3', data: { answer: { text: ' ALLOW ' } } }));
    expect(out).toEqual([
      `{"aep":"0.1","id":"id-4","type":"control.accepted","time":"${T}",${SRC},"seq":3,"epoch":7,"cause":"c-1","capture":"metadata"}`,
      `{"aep":"0.1","id":"id-5","type":"attention.answered","subject":"id-3","time":"${T}",${SRC},"run":"dr","seq":4,"epoch":7,"cause":"c-1","capture":"metadata","data":{"answer":{"option":"allow"},"by":"sender","via":"control"}}`,
      `{"aep":"0.1","id":"id-6","type":"attention.resolved","subject":"id-3","time":"${T}",${SRC},"run":"dr","seq":5,"epoch":7,"cause":"id-5","capture":"metadata","data":{"resolution":"answered","latency_ms":0}}`,
    ]);
    expect(t.pendingRequest).toBeUndefined();
  });

  it('applies the AEP-0008 receiver rule to free text: words naming no option deny, with the words as the reason', () => {
    const t = target();
    const out = t.onFrame(cmd('control.attention.respond', { subject: 'id-3', cause: 'id-3', data: { answer: { text: 'not on a Friday' } } })).map((f) => JSON.parse(f) as { type: string; capture: string; data?: { answer?: unknown } });
    expect(out.map((e) => e.type)).toEqual(['control.accepted', 'attention.answered', 'attention.resolved']);
    expect(out[1]!.data!.answer).toEqual({ option: 'deny', text: 'not on a Friday' });
    expect(out[1]!.capture).toBe('redacted');
    // a reconnect sends the whole history, the answer included, so a restarted relay never shows the request open
    expect(t.opening().map((f) => (JSON.parse(f) as { type: string }).type)).toEqual(['session.started', 'run.started', 'attention.requested', 'control.accepted', 'attention.answered', 'attention.resolved']);
  });

  it('answers ping with pong and ignores frames, acks, foreign sessions and garbage', () => {
    const t = target();
    expect(t.onFrame('{"type":"ping","t":5}')).toEqual(['{"type":"pong","t":5}']);
    expect(t.onFrame('{"type":"subscribed","id":"x"}')).toEqual([]);
    expect(t.onFrame(cmd('control.accepted', { cause: 'z' }))).toEqual([]);
    expect(t.onFrame(cmd('control.cancel', { session: 'elsewhere', data: { scope: 'run' } }))).toEqual([]);
    expect(t.onFrame('not json')).toEqual([]);
    expect(t.onFrame('[1]')).toEqual([]);
  });

  it('forgets the oldest command past its dedupe capacity, then treats a redelivery as new', () => {
    let n = 0;
    const t = new DemoTarget({ ...CFG, dedupeCapacity: 1 }, () => new Date(T), () => `id-${++n}`);
    const a = cmd('control.pause', { id: 'a', data: {} });
    const first = t.onFrame(a);
    t.onFrame(cmd('control.pause', { id: 'b', data: {} }));
    expect(t.onFrame(a)).not.toEqual(first);
  });

  it('recognizes command types', () => {
    expect(['control.cancel', 'control.attention.respond', 'control.pause', 'control.resume', 'x.acme.control.nudge'].every(isCommandType)).toBe(true);
    expect(['control.accepted', 'control.rejected', 'run.cancelled'].some(isCommandType)).toBe(false);
  });
});
