import { closest, parseFlags } from './flags.js';
import { EXIT, UsageError, processIo, type CliIo } from './io.js';
import { own } from './lookup.js';
import { PathError } from '../adapter-kit/ensure-dir.js';
import { fsReason } from '../operator/fs-errors.js';
import { VERBS } from './verbs.js';
import { relayUrlFromEnv } from '../integrations/registry.js';

const PROGRAM = 'aep';

function topHelp(): string {
  const width = Math.max(...Object.keys(VERBS).map((v) => v.length), 4);
  const lines = Object.entries(VERBS).map(([name, v]) => `  ${name.padEnd(width)}  ${v.summary}`);
  return [
    `usage: ${PROGRAM} <verb> [flags]`,
    '',
    'Agent Event Protocol (AEP 0.1) reference implementation and conformance suite.',
    '',
    'verbs:',
    ...lines,
    '',
    `Run '${PROGRAM} <verb> --help' for a verb's flags, environment variables and exit codes.`,
    '',
  ].join('\n');
}

/** Entry point: returns the exit code. Never throws; unexpected errors become one line on stderr. */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  if (argv[0] === 'help' && argv.length > 1) return main([argv[1]!, '--help'], io); // `aep help tail` = `aep tail --help`
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.stderr : io.stdout)(topHelp());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version') {
    io.stdout('aep 0.1 (reference implementation 0.1.0)\n');
    return EXIT.ok;
  }
  const entry = own(VERBS, name);
  if (!entry) {
    const guess = closest(name, Object.keys(VERBS));
    io.stderr(`${PROGRAM}: unknown verb '${name}'${guess ? ` (did you mean '${guess}'?)` : ''}. Run '${PROGRAM} --help' for the list.\n`);
    return EXIT.usage;
  }
  if (name === 'hook') {
    // The fail-open shim parses its own arguments and never fails its caller (bin/aep.js calls it directly).
    const { hookMain } = await import('./hook.cjs');
    const stdin = io.stdin ?? (async function* () { yield await io.readStdin(); })();
    return hookMain(rest, { stdout: io.stdout, stderr: io.stderr, env: io.env, stdin });
  }
  try {
    const verb = await entry.load();
    // One name per variable: the deprecated relay URL alias still works for a verb that takes a relay, said once.
    const relayNotice = verb.options && Object.hasOwn(verb.options, 'relay') ? relayUrlFromEnv(io.env).notice : undefined;
    if (relayNotice) io.stderr(`${PROGRAM} ${name}: ${relayNotice}\n`);
    const parsed = parseFlags(rest, verb.options, { allowPositionals: verb.allowPositionals || verb.strict === false, strict: verb.strict !== false });
    if (parsed.values.help) {
      io.stdout(verb.help.endsWith('\n') ? verb.help : `${verb.help}\n`);
      return EXIT.ok;
    }
    return await verb.run({ values: parsed.values as Record<string, unknown>, positionals: parsed.positionals }, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`${PROGRAM} ${name}: ${err.message}\nRun '${PROGRAM} ${name} --help' for usage.\n`);
      return EXIT.usage;
    }
    if (err instanceof PathError) {
      io.stderr(`${PROGRAM} ${name}: ${err.path}: ${err.reason}\n`);
      return EXIT.failed;
    }
    const code = (err as NodeJS.ErrnoException)?.code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
      // A file-system refusal nobody caught: say it in words, with the path, never as a raw code.
      const path = (err as NodeJS.ErrnoException).path;
      io.stderr(`${PROGRAM} ${name}: ${path ? `${path}: ` : ''}${fsReason(err)}\n`);
      if (io.env.AEP_DEBUG) io.stderr(`${(err as Error)?.stack ?? ''}\n`);
      return EXIT.failed;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.stderr(`${PROGRAM} ${name}: internal error: ${message}\n`);
    if (io.env.AEP_DEBUG) io.stderr(`${(err as Error)?.stack ?? ''}\n`);
    return EXIT.failed;
  }
}
