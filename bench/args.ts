/**
 * `npm run bench` options. Pure: argv in, options or an error message out.
 *
 *   --rounds N     timed rounds per benchmark, 1..99 (default 7)
 *   --json         print the results as JSON instead of the table (default: table)
 *   --json FILE    also write `{"benchmarks":[...]}` (value, baseline, ratio, target, ok) to FILE
 *   --quick        one short round per benchmark, no warm-up: proves they work (CI), measures nothing
 *   --only NAME    run only this benchmark; repeat or comma-separate for several (default: all)
 *   --help         print usage
 */

export interface BenchArgs {
  readonly rounds: number;
  readonly json: boolean;
  /** Selected benchmark names, in the order given; empty means all. */
  readonly only: readonly string[];
  readonly help: boolean;
  /** `--json FILE`: where to write the targets report. */
  readonly jsonFile?: string;
  readonly quick: boolean;
}

export const DEFAULT_ROUNDS = 7;

export const USAGE = `usage: npm run bench -- [--rounds N] [--json [FILE]] [--quick] [--only NAME[,NAME...]]

Runs each benchmark against its baseline in interleaved rounds and prints
ours/s, baseline/s and the median ratio ours/baseline (> 1: ours is faster).

  --rounds N    timed rounds per benchmark, 1 to 99 (default ${DEFAULT_ROUNDS})
  --json        print JSON (every round included) instead of the table
  --json FILE   print the table and write {"benchmarks":[...]} with each row's
                value, baseline, ratio, target and ok to FILE
  --quick       one short round per benchmark without warm-up (CI: proves
                every benchmark runs and its checks pass; the numbers mean little)
  --only NAME   run only the named benchmark(s); repeatable, or comma-separated
  --help        print this text
`;

export type ParsedArgs = { readonly ok: true; readonly args: BenchArgs } | { readonly ok: false; readonly error: string };

/** Parse argv (without `node` and the script). `known` lists the benchmark names `--only` accepts. */
export function parseArgs(argv: readonly string[], known: readonly string[]): ParsedArgs {
  let rounds = DEFAULT_ROUNDS;
  let json = false;
  let help = false;
  let quick = false;
  let jsonFile: string | undefined;
  const only: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const inline = arg.startsWith('--') && eq > 0 ? arg.slice(eq + 1) : undefined;
    const value = (): string | undefined => inline ?? argv[++i];
    if (flag === '--json') {
      const next = inline ?? (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--') ? argv[++i] : undefined);
      if (next === undefined) json = true;
      else if (next === '') return { ok: false, error: '--json= needs a file name, or use --json alone for JSON on stdout' };
      else jsonFile = next;
    } else if (flag === '--quick') quick = true;
    else if (flag === '--help' || flag === '-h') help = true;
    else if (flag === '--rounds') {
      const raw = value();
      if (raw === undefined || !/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 99) {
        return { ok: false, error: `--rounds needs an integer from 1 to 99, got ${raw === undefined ? 'nothing' : JSON.stringify(raw)}` };
      }
      rounds = Number(raw);
    } else if (flag === '--only') {
      const raw = value();
      if (raw === undefined || raw.trim() === '') return { ok: false, error: `--only needs a benchmark name: one of ${known.join(', ')}` };
      for (const name of raw.split(',').map((n) => n.trim()).filter((n) => n !== '')) {
        if (!known.includes(name)) return { ok: false, error: `--only ${JSON.stringify(name)} is not a benchmark: use one of ${known.join(', ')}` };
        if (!only.includes(name)) only.push(name);
      }
    } else {
      return { ok: false, error: `unknown argument ${JSON.stringify(arg)}; see --help` };
    }
  }
  return { ok: true, args: { rounds: quick ? 1 : rounds, json, only, help, quick, ...(jsonFile === undefined ? {} : { jsonFile }) } };
}
