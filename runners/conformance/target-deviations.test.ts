import { describe, expect, it } from 'vitest';
import { declaredDeviation, parseTargetDeviations } from './target-deviations.js';

describe('--deviations', () => {
  it('reads both shapes; a declared entry or path excuses itself and what is under it, nothing else', () => {
    const map = parseTargetDeviations(JSON.stringify({ $comment: 'x', 'claude-code/StopFailure': 'no error token', 'claude-code/PreToolUse#$.data.tool': 'our tool shape' }), 'f.json');
    expect(parseTargetDeviations(JSON.stringify({ deviations: [{ member: 'claude-code/StopFailure', reason: 'no error token' }] }), 'f.json').get('claude-code/StopFailure')).toBe('no error token');
    expect(declaredDeviation(map, 'claude-code/StopFailure#$.data.error')).toEqual({ member: 'claude-code/StopFailure', reason: 'no error token' });
    expect(declaredDeviation(map, 'claude-code/PreToolUse#$.data.tool.call_id')?.member).toBe('claude-code/PreToolUse#$.data.tool');
    expect(declaredDeviation(map, 'claude-code/PreToolUse#$.data.tools')).toBeUndefined();
    expect(declaredDeviation(map, 'claude-code/PreToolUse#$.subject')).toBeUndefined();
    expect(declaredDeviation(undefined, 'claude-code/StopFailure')).toBeUndefined();
  });
  it('refuses a malformed file, a member that names no pin, and a deviation without its reason', () => {
    expect(() => parseTargetDeviations('{', 'f.json')).toThrow(/--deviations f\.json: malformed JSON/);
    expect(() => parseTargetDeviations('[]', 'f.json')).toThrow(/expected a JSON object/);
    expect(() => parseTargetDeviations(JSON.stringify({ StopFailure: 'x' }), 'f.json')).toThrow(/names no pin member/);
    expect(() => parseTargetDeviations(JSON.stringify({ 'claude-code/StopFailure': ' ' }), 'f.json')).toThrow(/needs its reason/);
  });
});
