import { describe, expect, it } from 'vitest';
import { judge, missingInOrder, replyDecision, type Expectation, type Observation } from './judge.js';
import type { HookRecord } from './recorder.js';

const hook = (event: string, reply = '{}', code = 0): HookRecord => ({ event, via: 'command', at: '2026-01-01T00:00:00Z', payload: '{}', reply, code });
const allowReply = '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}';

const good: Observation = {
  hooks: [hook('SessionStart'), hook('PermissionRequest', allowReply), hook('Stop')],
  events: [{ type: 'session.started' }, { type: 'attention.requested' }, { type: 'control.accepted' }, { type: 'tool.completed' }],
  logProblems: [],
  logEvents: 3,
  proofExists: true,
  laterModelRequests: ['{"content":"tool said Blue"}'],
  localPrompt: false,
};
const exp: Expectation = {
  hooks: ['SessionStart', 'PermissionRequest', 'Stop'],
  events: ['session.started', 'attention.requested', 'tool.completed'],
  noEvents: ['tool.denied'],
  permissionReply: 'allow',
  effect: 'proof-exists',
  modelSees: 'Blue',
  localPrompt: false,
};

describe('missingInOrder and replyDecision', () => {
  it('finds the first element missing as an ordered subsequence', () => {
    expect(missingInOrder(['a', 'c'], ['a', 'b', 'c'])).toBe(null);
    expect(missingInOrder(['c', 'a'], ['a', 'b', 'c'])).toEqual({ index: 1, item: 'a' });
    expect(missingInOrder(['a', 'a'], ['a'])).toEqual({ index: 1, item: 'a' });
  });

  it('reads allow, deny and neutral from reply bytes of both vendors', () => {
    expect(replyDecision(allowReply)).toBe('allow');
    expect(replyDecision('{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"no"}}}')).toBe('deny');
    expect(replyDecision('{"decision":"deny","reason":"x"}')).toBe('deny');
    expect(replyDecision('{}')).toBe('neutral');
    expect(replyDecision('')).toBe('neutral');
    expect(replyDecision('nope')).toBe('unparsable');
    expect(replyDecision(undefined)).toBe('unparsable');
  });
});

describe('judge', () => {
  it('passes an observation that meets every expectation', () => {
    expect(judge(exp, good)).toEqual([]);
  });

  it('names every shortfall', () => {
    const bad: Observation = {
      hooks: [hook('Stop'), hook('PermissionRequest', '{}', 1), { ...hook('SessionEnd'), reply: undefined }],
      events: [{ type: 'tool.denied' }],
      logProblems: ['x.jsonl: line 2: stream.attention.open'],
      logEvents: 0,
      proofExists: false,
      laterModelRequests: [],
      localPrompt: true,
    };
    expect(judge(exp, bad)).toEqual([
      'hook SessionStart (expected #1 of SessionStart, PermissionRequest, Stop) did not fire in order; fired: Stop, PermissionRequest, SessionEnd',
      'the PermissionRequest hook command exited 1 (the shim must always exit 0)',
      'the SessionEnd hook never completed (no reply recorded)',
      'the PermissionRequest reply decided neutral, expected allow: "{}"',
      'event session.started (expected #1 of session.started, attention.requested, tool.completed) did not reach the relay in order; got: tool.denied',
      'event tool.denied reached the relay, and must not',
      "the adapter's log is empty",
      'adapter log: x.jsonl: line 2: stream.attention.open',
      'the tool did not run: the proof file is absent',
      'the model never got "Blue" back (in 0 later request(s))',
      "the vendor's own permission prompt was still waiting after the hook decided",
    ]);
  });

  it('lets a hook the scenario allows to be cut go without a reply, and skips relay checks on record-only runs', () => {
    const obs: Observation = { ...good, hooks: [...good.hooks, { ...hook('SessionEnd'), reply: undefined }], events: null, logProblems: null };
    expect(judge({ ...exp, cutHooks: ['SessionEnd'] }, obs)).toEqual([]);
    expect(judge({ ...exp, effect: 'proof-absent' }, good)).toEqual(['the tool ran: the proof file exists']);
  });
});

describe('the plugin-shaped hosts', () => {
  it('hostExitsClean fails a host that did not end with 0, or whose end is unknown', () => {
    const e: Expectation = { hooks: [], events: [], hostExitsClean: true };
    const o: Observation = { ...good, hooks: [], events: [] };
    expect(judge(e, { ...o, hostExit: 0 })).toEqual([]);
    expect(judge(e, { ...o, hostExit: 1 })).toEqual(['the host did not end cleanly: exit 1 (the plugin must never break the host)']);
    expect(judge(e, o)).toEqual(['the host did not end cleanly: exit undefined (the plugin must never break the host)']);
  });

  it('hooksMayFail excuses moments the stopped daemon never answered, and nothing else', () => {
    const cut: HookRecord = { event: 'bus', via: 'http', at: '2026-01-01T00:00:00Z', payload: '{}', code: 502 };
    const o: Observation = { ...good, hooks: [cut], events: [] };
    expect(judge({ hooks: ['bus'], events: [] }, o)).toEqual(['the bus hook never completed (no reply recorded)']);
    expect(judge({ hooks: ['bus'], events: [], hooksMayFail: true }, o)).toEqual([]);
    expect(judge({ hooks: ['bus', 'tool.after'], events: [], hooksMayFail: true }, o)).toEqual(['hook tool.after (expected #2 of bus, tool.after) did not fire in order; fired: bus']);
  });
});

describe('the terminals judge in the vendor lane', () => {
  const S = { source: 'aep://h/agent/gemini-cli/session/s', session: 's' };
  const req = { ...S, id: 'r1', type: 'tool.requested', run: 'run1', data: { tool: { name: 'run_shell_command', call_id: 'c1' } } };
  const started = { ...S, id: 's1', type: 'run.started', run: 'run1', data: {} };
  const done = { ...S, id: 'd1', type: 'tool.completed', run: 'run1', cause: 'r1', data: { tool: { name: 'run_shell_command', call_id: 'c1' } } };
  const finished = { ...S, id: 'f1', type: 'run.finished', run: 'run1', cause: 's1', data: {} };
  const lane: Expectation = { hooks: ['AfterTool'], events: [] };
  const obs = (events: Record<string, unknown>[], integration = 'gemini-cli'): Observation => ({ ...good, hooks: [hook('BeforeTool'), hook('AfterTool')], events, integration });

  it('passes paired terminals, and flags a call the vendor ended without a paired terminal', () => {
    expect(judge(lane, obs([started, req, done, finished]))).toEqual([]);
    const unpaired = { ...done, cause: undefined, data: { tool: { name: 'run_shell_command' } } };
    const problems = judge(lane, obs([started, req, unpaired, finished]));
    expect(problems.map((p) => p.split(' (')[0])).toEqual(['terminals judge: terminals/tool-terminal-missing', 'terminals judge: terminals/tool-terminal-unpaired']);
  });

  it('judges nothing without an integration name, and excuses an integration\'s known findings', () => {
    const noId = { ...req, data: { tool: { name: 'run_command' } } };
    expect(judge(lane, { ...obs([noId]), integration: undefined } as Observation)).toEqual([]);
    expect(judge(lane, obs([{ ...noId, source: 'aep://h/agent/antigravity/session/s' }], 'antigravity'))).toEqual([]);
  });
});
