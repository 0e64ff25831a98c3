import { describe, expect, it } from 'vitest';
import { defaultCorpusDir } from '../conformance/corpus.js';
import { checkFrom } from './scenario-check.js';
import { readScenarioFile } from './scenario-format.js';
import { replyDiff, runProblems } from './scenario-run.js';
import { declaredBy, pinBasis, undeclaredNeeds } from './target-profile.js';

const file = readScenarioFile(defaultCorpusDir(), 'control-loop/claude-code.json');
const named = (prefix: string) => file.scenarios.find((s) => s.name.startsWith(prefix))!;
const hello = (control: unknown, experimental?: unknown) => ({ type: 'hello', capabilities: { control, ...(experimental ? { experimental } : {}) } });

describe('what a target declares and what a scenario needs', () => {
  it('steering, forms and command types come from the hello; a scenario lacking one is "not declared"', () => {
    const plain = declaredBy(hello({ accepts: ['control.attention.respond'] }), 'claude-code');
    expect(plain).toMatchObject({ steering: false, forms: false, accepts: ['control.attention.respond'] });
    expect(undeclaredNeeds(named('permission: allow'), 'claude-code', plain)).toEqual([]);
    expect(undeclaredNeeds(named('steering: delivered'), 'claude-code', plain)[0]).toMatch(/^steering/);
    expect(undeclaredNeeds(named('form: a valid answer'), 'claude-code', plain)).toEqual(['forms (ask_user_question in capabilities.experimental.forms)']);
    expect(undeclaredNeeds(named('elicitation: accept'), 'claude-code', plain)).toEqual(['elicitation (elicitation in capabilities.experimental.forms)']);
    // a refused command needs nothing declared: refusing it is the point
    expect(undeclaredNeeds(named('undeclared command type'), 'claude-code', plain)).toEqual([]);
    const rich = declaredBy(hello({ accepts: ['control.attention.respond', 'x.claude-code.control.instruct'] }, { forms: true }), 'claude-code');
    expect(undeclaredNeeds(named('form: a valid answer'), 'claude-code', rich)).toEqual([]);
    expect(undeclaredNeeds(named('steering: delivered'), 'claude-code', rich)).toEqual([]);
    expect(undeclaredNeeds(named('permission: allow'), 'claude-code', declaredBy(hello(undefined), 'claude-code'))).toEqual(['the command control.attention.respond (capabilities.control.accepts)']);
  });
  it("a foreign corpus's pins are the standard's; ours are, only in the form sections", () => {
    expect(pinBasis(false, 'hooks')).toBe('pin');
    expect(pinBasis(true, 'hooks')).toBe('reference');
    expect(pinBasis(true, 'elicitation')).toBe('pin');
  });
});

describe('meaning, not bytes', () => {
  it('replies the vendor parses compare as JSON, free text by presence; bytes compare exactly', () => {
    expect(replyDiff('{"a":1}', '{"a": 1}', 'json')).toBeNull();
    expect(replyDiff('{"a":1}', '{"a": 1}', 'bytes')).toBe('"{\\"a\\": 1}", expected "{\\"a\\":1}"');
    expect(replyDiff('{"d":{"behavior":"deny","message":"Denied"}}', '{"d": {"message": "No.", "behavior": "deny"}}', 'json')).toBeNull();
    expect(replyDiff('{"d":{"behavior":"deny"}}', '{"d":{"behavior":"allow"}}', 'json')).toBe('$.d.behavior: expected "deny", got "allow"');
    expect(replyDiff('', '', 'json')).toBeNull();
  });
  it('run ids: one per turn, every event on a run a turn announced', () => {
    const e = (type: string, run?: string) => ({ type, ...(run ? { run } : {}) });
    expect(runProblems([e('session.started'), e('run.started', 'a'), e('tool.requested', 'a'), e('run.finished', 'a'), e('run.started', 'b')])).toEqual([]);
    expect(runProblems([e('run.started', 'a'), e('run.started', 'a')])).toEqual(['events[1] run.started reuses run "a": each turn needs its own run id']);
    expect(runProblems([e('run.started', 'a'), e('tool.requested', 'z')])).toEqual(['events[1] tool.requested carries run "z", which no earlier run.started of this session announced']);
    expect(runProblems([e('run.started')])).toEqual(['events[0] run.started carries no run id']);
  });
});

describe('a check from problems', () => {
  const rule = { id: 'r', section: 'S' };
  it('takes the strictest basis; a declared pin member is a documented deviation; an undeclared one fails', () => {
    expect(checkFrom('x', [], { passBasis: 'must', passRule: rule })).toEqual({ name: 'x', status: 'pass', basis: 'must', rule });
    const problems = [{ basis: 'pin' as const, rule, message: 'reply differs', member: 'cc/Stop#reply' }, { basis: 'must' as const, rule: { id: 'm', section: 'M' }, message: 'no ack' }];
    expect(checkFrom('x', problems, { passBasis: 'must', passRule: rule })).toMatchObject({ status: 'fail', basis: 'must', rule: { id: 'm' }, detail: 'reply differs\nno ack' });
    const declared = new Map([['cc/Stop', 'we word it ourselves']]);
    expect(checkFrom('x', problems.slice(0, 1), { passBasis: 'must', passRule: rule, deviations: declared, deviationsFile: 'd.json' })).toMatchObject({ status: 'skip', basis: 'pin', excusedBy: 'd.json', detail: 'deviation (documented): cc/Stop#reply (declared as cc/Stop: we word it ourselves): reply differs' });
    expect(checkFrom('x', problems.slice(0, 1), { passBasis: 'must', passRule: rule, deviations: new Map([['cc/Start', 'n']]) })).toMatchObject({ status: 'fail', detail: 'reply differs (pin member cc/Stop#reply: not declared in the deviations file)' });
  });
});
