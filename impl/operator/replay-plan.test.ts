import { describe, expect, it } from 'vitest';
import { validateJsonl } from '../cli/validate.js';
import { isCommand, planReplay } from './replay-plan.js';
import { flowEvent } from './test-utils/stack.js';

let n = 0;
const opts = { newId: () => `ID${String(++n).padStart(3, '0')}`, now: Date.UTC(2026, 5, 1), epoch: 42, source: 'aep://host/aep-replay' };

describe('replay plan', () => {
  it('fresh identity per group, cause/subject rewritten, provenance attributes, commands skipped, duplicates coalesced first', () => {
    n = 0;
    const a = [flowEvent('s', 0), flowEvent('s', 1), flowEvent('s', 2)];
    const req: Record<string, any> = { ...flowEvent('s', 3), type: 'attention.requested', cause: a[2]!.id, data: { kind: 'permission', prompt: 'p' } };
    const cmd = { aep: '0.1', id: 'cmd1', type: 'control.attention.respond', source: 'op', session: 's', subject: req.id, time: req.time, data: {} };
    const ans: Record<string, any> = { ...flowEvent('s', 4), type: 'attention.answered', subject: req.id, cause: 'cmd1', data: { answer: { option: 'allow' } } };
    const plan = planReplay([a[2], a[0], a[1], a[0], req, cmd, ans, 'junk'], opts);
    expect(plan).toMatchObject({ skippedCommands: 1, duplicates: 1, unusable: 1 });
    expect(plan.groups).toEqual([{ source: 'aep://test/agent/s', session: 's', replay: 'replay-ID001', events: 5 }]);
    const out = plan.events.map((p) => p.event);
    expect(out.map((e) => [e.seq, e.epoch, e.session, e.aepreplayid])).toEqual([
      [0, 42, 'replay-ID001', a[0]!.id], [1, 42, 'replay-ID001', a[1]!.id], [2, 42, 'replay-ID001', a[2]!.id], [3, 42, 'replay-ID001', req.id], [4, 42, 'replay-ID001', ans.id],
    ]);
    expect(out[3]!.cause).toBe(out[2]!.id);
    expect(out[4]!.subject).toBe(out[3]!.id);
    expect(out[4]!.cause).toBe('cmd1'); // the command was not replayed: the link stays as recorded
    expect(out.every((e) => e.source === 'aep://host/aep-replay' && e.aepreplayof === 's')).toBe(true);
    expect(new Set(out.map((e) => e.id)).size).toBe(5);
    expect(validateJsonl(Buffer.from(out.map((e) => JSON.stringify(e)).join('\n') + '\n')).issues).toEqual([]);
  });
  it('paces by recorded gaps, capped by --max-gap, divided by --speed; groups interleave by recorded time', () => {
    const x = [flowEvent('x', 0), { ...flowEvent('x', 1), time: '2026-01-01T00:01:00.000Z' }];
    const y = [{ ...flowEvent('y', 0), time: '2026-01-01T00:00:10.000Z' }];
    const plan = planReplay([...x, ...y], { ...opts, speed: 2, maxGapMs: 20_000 });
    expect(plan.events.map((p) => [p.event.aepreplayof, p.delayMs])).toEqual([['x', 0], ['y', 5000], ['x', 10000]]);
    expect(plan.events.map((p) => p.event.time)).toEqual(['2026-06-01T00:00:00.000Z', '2026-06-01T00:00:05.000Z', '2026-06-01T00:00:15.000Z']);
  });
  it('knows a command from an ack', () => {
    expect(['control.cancel', 'control.pause', 'control.whatever', 'x.acme.control.instruct'].map(isCommand)).toEqual([true, true, true, true]);
    expect(['control.accepted', 'control.rejected', 'tool.requested'].map(isCommand)).toEqual([false, false, false]);
  });
});
