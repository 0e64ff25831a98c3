import { describe, expect, it } from 'vitest';
import { judgeTerminals, renderTerminalFindings, TERMINAL_RULES, type TerminalRule } from './terminals.js';

const SRC = 'aep://h/agent/a/session/s';
let n = 0;
const ev = (type: string, extra: Record<string, unknown> = {}, data: Record<string, unknown> = {}) => ({ aep: '0.1', id: `e${++n}`, type, source: SRC, session: 's', data, ...extra });
const call = (id: string | undefined, name = 'Bash') => ({ tool: { name, ...(id ? { call_id: id } : {}) } });

/** A well-formed stream: one run, two calls ending out of order, one denied after an answer. */
function good() {
  n = 0;
  const started = ev('run.started', { run: 'r1' });
  const a = ev('tool.requested', { run: 'r1' }, call('a'));
  const b = ev('tool.requested', { run: 'r1' }, call('b'));
  const c = ev('tool.requested', { run: 'r1' }, call('c'));
  const doneB = ev('tool.completed', { run: 'r1', cause: b.id }, call('b'));
  const failA = ev('tool.failed', { run: 'r1', cause: a.id }, { ...call('a'), error: {} });
  const answered = ev('attention.answered', { run: 'r1' }, { answer: { option: 'deny' } });
  const deniedC = ev('tool.denied', { run: 'r1', cause: answered.id }, { ...call('c'), by: 'runtime' });
  const finished = ev('run.finished', { run: 'r1', cause: started.id });
  return [started, a, b, c, doneB, failA, answered, deniedC, finished];
}
const rules = (stream: unknown[], opts = {}) => judgeTerminals(stream, opts).map((f) => f.rule);

describe('judgeTerminals', () => {
  it('a well-formed stream holds every rule, redelivered events included', () => {
    const s = good();
    expect(judgeTerminals(s)).toEqual([]);
    expect(judgeTerminals([...s, s[4], s[8]])).toEqual([]); // same (source, id) again: not a second terminal
    expect(judgeTerminals(s, { expectRunTerminals: ['run.finished'] })).toEqual([]);
  });

  const broken: [TerminalRule, (s: Record<string, any>[]) => unknown[], object?][] = [
    ['terminals/tool-call-id', (s) => { s[1]!.data = call(undefined); return s; }],
    ['terminals/tool-request-repeated', (s) => [...s.slice(0, 2), { ...s[1], id: 'dup' }, ...s.slice(2)]],
    ['terminals/tool-terminal-unpaired', (s) => { s[4]!.data = call(undefined); return s; }],
    ['terminals/tool-terminal-unpaired', (s) => { s[4]!.data = call('zzz'); return s; }],
    ['terminals/tool-terminal-cause', (s) => { delete s[4]!.cause; return s; }],
    ['terminals/tool-terminal-cause', (s) => { s[4]!.cause = s[1]!.id; return s; }],
    ['terminals/tool-terminal-repeated', (s) => [...s, { ...s[4], id: 'again' }]],
    ['terminals/tool-terminal-missing', (s) => s.filter((_, i) => i !== 5), { complete: true }],
    ['terminals/tool-terminal-missing', (s) => s.filter((_, i) => i !== 5), { endedCalls: 3 }],
    ['terminals/run-terminal-unstarted', (s) => [...s, { ...s[8], id: 'x', run: 'r9' }]],
    ['terminals/run-terminal-repeated', (s) => [...s, { ...s[8], id: 'x', type: 'run.cancelled' }]],
    ['terminals/run-terminal-missing', (s) => s.slice(0, 8), { complete: true }],
    ['terminals/run-terminal-missing', (s) => [...s.slice(0, 8), { ...s[8], id: 'end', type: 'session.ended', run: undefined }]],
    ['terminals/run-terminal-type', (s) => { s[8]!.type = 'run.finished'; return s; }, { expectRunTerminals: ['run.cancelled'] }],
  ];
  for (const [rule, breakIt, opts] of broken) {
    it(`${rule} fails a stream broken for it`, () => {
      const found = judgeTerminals(breakIt(good() as Record<string, any>[]), opts);
      expect(found.map((f) => f.rule)).toContain(rule);
      const f = found.find((x) => x.rule === rule)!;
      expect(f.section).toBe(TERMINAL_RULES[rule].section);
      expect(f.path).toMatch(/^(events\[\d+\] [a-z.]+|runs\[\d+\])$/);
      expect(f.message).toContain('fix: ');
    });
  }

  it('every rule has a broken stream above', () => {
    expect(new Set(broken.map(([r]) => r))).toEqual(new Set(Object.keys(TERMINAL_RULES)));
  });

  it('calls and runs the vendor never ended pass, unless the caller says it ended them', () => {
    const s = good().filter((_, i) => i !== 5 && i !== 8);
    expect(rules(s)).toEqual([]); // zero terminals stay legal (AEP-0002 §2 rule 5)
    expect(rules(s, { endedCalls: 2 })).toEqual([]);
    expect(rules(s, { complete: true }).sort()).toEqual(['terminals/run-terminal-missing', 'terminals/tool-terminal-missing']);
    expect(rules(s, { complete: true, expectOpen: { calls: 1, runs: 1 } })).toEqual([]);
  });

  it('a terminal of a call never requested is unpaired only while a call of its session waits', () => {
    n = 0;
    const lone = ev('tool.denied', {}, { tool: { name: 'apply_patch' }, by: 'runtime' });
    expect(judgeTerminals([lone])).toEqual([]);
    const bash = ev('tool.requested', {}, call('bash_1'));
    expect(rules([bash, lone])).toEqual(['terminals/tool-terminal-unpaired']);
  });

  it('keys calls and runs per source and session: equal call ids of two sessions do not pair', () => {
    n = 0;
    const r1 = ev('tool.requested', {}, call('same'));
    const r2 = ev('tool.requested', { session: 't', source: 'aep://h/agent/a/session/t' }, call('same'));
    const t1 = ev('tool.completed', { cause: r1.id }, call('same'));
    const t2 = ev('tool.completed', { session: 't', source: 'aep://h/agent/a/session/t', cause: r2.id }, call('same'));
    expect(judgeTerminals([r1, r2, t1, t2])).toEqual([]);
    // t1 twice: session s's call is ended twice, session t's call stays open
    expect(rules([r1, r2, t1, { ...t1, id: 'x' }], { complete: true })).toEqual(['terminals/tool-terminal-missing', 'terminals/tool-terminal-repeated']);
  });

  it('renders one line per finding with rule, section, path and the fix', () => {
    const s = good();
    delete (s[4] as Record<string, unknown>).cause;
    expect(renderTerminalFindings(judgeTerminals(s))).toEqual([
      'terminals/tool-terminal-cause (AEP-0002 §2 rule 1, AEP-0004 §6) at events[4] tool.completed: tool.completed of call b carries no cause; its request is e3 (events[2]); fix: set cause to the tool.requested id (or to the answer or command that ended the call)',
    ]);
  });
});
