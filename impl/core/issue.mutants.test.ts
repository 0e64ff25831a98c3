/** Issues as data and their one-line rendering. */
import { describe, expect, it } from 'vitest';
import { atLine, childPath, issue, renderIssue } from './issue.js';

describe('issues', () => {
  it('carry a line only when given one, and cannot be rewritten', () => {
    const i = issue('r.x', 'AEP-0001 §5', '$.a', 'fix it');
    expect(i).toEqual({ rule: 'r.x', section: 'AEP-0001 §5', path: '$.a', message: 'fix it' });
    expect('line' in i).toBe(false);
    expect(Object.isFrozen(i)).toBe(true);
    expect(issue('r', 's', '$', 'm', 0)).toEqual({ rule: 'r', section: 's', path: '$', message: 'm', line: 0 });
    const lined = atLine([i], 7);
    expect(lined).toEqual([{ ...i, line: 7 }]);
    expect(Object.isFrozen(lined[0])).toBe(true);
  });

  it('render as one line, with the line number first when known', () => {
    expect(renderIssue(issue('envelope.session.required', 'AEP-0001 §5.2', '$.session', 'add a session'))).toBe(
      '$.session [envelope.session.required, AEP-0001 §5.2] add a session',
    );
    expect(renderIssue(issue('r', 's', '$', 'm', 3))).toBe('line 3: $ [r, s] m');
  });

  it('paths: identifiers dotted, indexes bracketed, other keys quoted', () => {
    expect(childPath('$', 'data')).toBe('$.data');
    expect(childPath('$', '_a$1')).toBe('$._a$1');
    expect(childPath('$.a', 0)).toBe('$.a[0]');
    expect(childPath('$', '1a')).toBe('$["1a"]');
    expect(childPath('$', 'a-b')).toBe('$["a-b"]');
    expect(childPath('$', 'a b')).toBe('$["a b"]');
    expect(childPath('$', 'x\n')).toBe('$["x\\n"]');
    expect(childPath('$', '')).toBe('$[""]');
    expect(childPath('$', 'Z9')).toBe('$.Z9');
  });
});
