/** The positional arguments of aep respond / aep cancel: the count and emptiness, in the verbs' words. */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../contract/cli.js';
import { positionalArgs } from './control-verb.js';

const message = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error('no usage error');
};

describe('positionalArgs', () => {
  it('returns them when the count is right and none is empty', () => {
    expect(positionalArgs(['s1', 'r1'], ['<session>', '<request-id>'])).toEqual(['s1', 'r1']);
    expect(positionalArgs(['s1'], ['<session>'])).toEqual(['s1']);
  });

  it('a wrong count names what is expected and what was given (singular for one)', () => {
    expect(message(() => positionalArgs(['s1'], ['<session>', '<request-id>']))).toBe('expected <session> <request-id>, got 1 argument');
    expect(message(() => positionalArgs([], ['<session>', '<request-id>']))).toBe('expected <session> <request-id>, got 0 arguments');
    expect(message(() => positionalArgs(['a', 'b'], ['<session>']))).toBe('expected <session>, got 2 arguments');
  });

  it('an empty argument is refused, naming all of them', () => {
    expect(message(() => positionalArgs(['', 'r1'], ['<session>', '<request-id>']))).toBe('<session> and <request-id> must not be empty');
    expect(message(() => positionalArgs([''], ['<session>']))).toBe('<session> must not be empty');
  });
});

describe('renderOutcome: where it points the user', () => {
  it('no-route says the target is gone and does not send the user back to tail --attention', async () => {
    const { renderOutcome } = await import('./command.js');
    const line = renderOutcome({ kind: 'nacked', reason: 'no-route', by: 'relay', command: 'C1', attempts: 1, ms: 3 } as never, 'respond', 'sess-1');
    expect(line).toContain('session sess-1');
    expect(line).toContain('the agent that asked is gone');
    expect(line).not.toContain('tail --attention');
  });
  it('the silence message names the real session, shell-quoted when needed', async () => {
    const { renderOutcome } = await import('./command.js');
    const o = { kind: 'timeout', windowMs: 150, command: 'C2', attempts: 3 } as never;
    expect(renderOutcome(o, 'respond', 'sess-1')).toMatch(/'aep tail --session sess-1'$/);
    expect(renderOutcome(o, 'respond', "a b'c")).toContain(`aep tail --session 'a b'\\''c'`);
    expect(renderOutcome(o, 'respond', 'x')).not.toContain('--session ...');
  });
});
