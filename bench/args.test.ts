import { describe, expect, it } from 'vitest';
import { DEFAULT_ROUNDS, parseArgs } from './args.js';

const KNOWN = ['validate', 'stream', 'redact'];

describe('parseArgs', () => {
  it('defaults: 7 rounds, table, every benchmark', () => {
    expect(parseArgs([], KNOWN)).toEqual({ ok: true, args: { rounds: DEFAULT_ROUNDS, json: false, only: [], help: false, quick: false } });
    expect(DEFAULT_ROUNDS).toBe(7);
  });

  it('reads --rounds as a separate or an inline value, --json and --help', () => {
    expect(parseArgs(['--rounds', '3', '--json'], KNOWN)).toEqual({ ok: true, args: { rounds: 3, json: true, only: [], help: false, quick: false } });
    expect(parseArgs(['--rounds=11', '-h'], KNOWN)).toEqual({ ok: true, args: { rounds: 11, json: false, only: [], help: true, quick: false } });
  });

  it('collects --only names, repeated or comma-separated, without duplicates', () => {
    const parsed = parseArgs(['--only', 'redact,validate', '--only=redact'], KNOWN);
    expect(parsed).toEqual({ ok: true, args: { rounds: 7, json: false, only: ['redact', 'validate'], help: false, quick: false } });
  });

  it.each([
    [['--rounds', '0'], '--rounds needs an integer from 1 to 99, got "0"'],
    [['--rounds', '100'], '--rounds needs an integer from 1 to 99, got "100"'],
    [['--rounds', '2.5'], '--rounds needs an integer from 1 to 99, got "2.5"'],
    [['--rounds'], '--rounds needs an integer from 1 to 99, got nothing'],
    [['--only', 'nope'], '--only "nope" is not a benchmark: use one of validate, stream, redact'],
    [['--only'], '--only needs a benchmark name: one of validate, stream, redact'],
    [['--json='], '--json= needs a file name, or use --json alone for JSON on stdout'],
    [['fast'], 'unknown argument "fast"; see --help'],
  ])('refuses %j with a message saying what to do', (argv, error) => {
    expect(parseArgs(argv, KNOWN)).toEqual({ ok: false, error });
  });

  it('reads --json FILE (separate or inline) and --quick (one round)', () => {
    expect(parseArgs(['--json', 'out.json', '--quick'], KNOWN)).toEqual({ ok: true, args: { rounds: 1, json: false, only: [], help: false, quick: true, jsonFile: 'out.json' } });
    expect(parseArgs(['--json=r.json', '--rounds', '3'], KNOWN)).toEqual({ ok: true, args: { rounds: 3, json: false, only: [], help: false, quick: false, jsonFile: 'r.json' } });
    expect(parseArgs(['--json', '--quick'], KNOWN)).toEqual({ ok: true, args: { rounds: 1, json: true, only: [], help: false, quick: true } });
  });
});
