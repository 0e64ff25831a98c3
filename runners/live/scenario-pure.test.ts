/** The scenario runner's pure steps: a command's bytes, and the judgement of what a target emitted. */
import { describe, expect, it } from 'vitest';
import { buildCommand, judgeEmitted, OPERATOR_SOURCE } from './scenario-run.js';
import type { CommandStep, Scenario } from './scenario-format.js';

describe('buildCommand', () => {
  it('the operator envelope, subject and run only when given, data last', () => {
    const step = { kind: 'command', type: 'control.cancel', data: { reason: 'x' } } as unknown as CommandStep;
    const cmd = buildCommand(step, { id: 'c1', time: 't' }, undefined, 'r1', 's1');
    expect(cmd).toEqual({ id: 'c1', raw: `{"aep":"0.1","id":"c1","type":"control.cancel","time":"t","source":"${OPERATOR_SOURCE}","agent":"operator","session":"s1","run":"r1","data":{"reason":"x"}}` });
  });
});

describe('judgeEmitted', () => {
  const scenario = { events: [], steps: [], env: {} } as unknown as Scenario;
  it('finds invalid events, a bad stream and unannounced runs; none for a clean stream', () => {
    const events = [{ type: 'run.started', run: 'r1' }, { type: 'tool.requested', run: 'r2' }];
    const problems = judgeEmitted(scenario, events, { validate: (e) => ((e as { type: string }).type === 'tool.requested' ? 'bad' : null), validateStream: () => 'broken' });
    expect(problems.map((p) => p.rule.id)).toEqual(['event.valid', 'stream.valid', 'run.identity']);
    expect(judgeEmitted(scenario, [{ type: 'run.started', run: 'r1' }], {})).toEqual([]);
    // above the daemon's ceiling (metadata by default)
    expect(judgeEmitted(scenario, [{ type: 'session.started', capture: 'full' }], {}).map((p) => p.rule.id)).toEqual(['capture.ceiling']);
  });
});
