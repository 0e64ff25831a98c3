/**
 * `aep hook <name> <HookEvent>`: the fail-open shim a vendor's hook configuration runs, once per
 * hook. This module is the lean entry: bin/aep.js dispatches `hook` here before it loads the
 * CLI, and it imports node built-ins and the shim only (no daemon, zod or ajv), so a hook costs
 * about one bare `node` start (the `hook-shim` benchmark).
 *
 * What it needs of each adapter is in {@link SHIM_ADAPTERS}, a tiny table generated from the
 * registry (impl/integrations/registry.ts) into shim-table.cts; adding an adapter needs nothing here.
 */
import { MAX_HOOK_BYTES, REPLY_GRACE_MS, SHIM_CONNECT_TIMEOUT_MS, STDIN_TIMEOUT_MS, forwardHook, readHookInput } from '../adapter-kit/shim.cjs';
import type { Verb } from './verb.js';
import { SHIM_ADAPTERS, type ShimAdapter } from './shim-table.cjs';

export type { ShimAdapter };

/** The neutral stdout of one hook of one adapter. */
export function neutralOf(adapter: ShimAdapter, hookEvent: string | undefined): string {
  return hookEvent !== undefined && adapter.neutralBy !== undefined && Object.hasOwn(adapter.neutralBy, hookEvent) ? adapter.neutralBy[hookEvent]! : adapter.neutral;
}

/** Per adapter, generated from the registry (impl/integrations/registry.ts) into shim-table.cts, held current by impl/integrations/registry.test.ts. */
export { SHIM_ADAPTERS };

/** The I/O the shim touches. */
export interface HookIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Record<string, string | undefined>;
  /** Standard input, read with a bound in bytes and time. */
  stdin: AsyncIterable<Buffer | string>;
}

const names = (): string => Object.keys(SHIM_ADAPTERS).join(', ');

/** `<port> <name>, ...`, wrapped for the help text. */
function portList(): string {
  const items = Object.entries(SHIM_ADAPTERS).map(([n, a]) => `${a.port} ${n}`);
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    if (line && line.length + item.length + 2 > 78) (lines.push(`${line},`), (line = ''));
    line = line ? `${line}, ${item}` : `             ${item}`;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

/** An adapter's port variable: the registry's variable, else the rule of config.ts's portEnvName (tested). */
export function shimPortEnv(agent: string): string {
  const known = Object.hasOwn(SHIM_ADAPTERS, agent) ? SHIM_ADAPTERS[agent] : undefined;
  return known?.portEnv ?? `AEP_${agent.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_PORT`;
}

function parsePort(value: string, what: string): number | string {
  if (!/^[0-9]+$/.test(value) || Number(value) > 65535) return `${what} must be a port number 0-65535, got '${value}'`;
  return Number(value);
}

/** The daemon port: --port, then AEP_<NAME>_PORT, then AEP_ADAPTER_PORT, then the default (as config.ts's resolvePort; tested). */
export function shimPort(agent: string, defaultPort: number, flag: string | undefined, env: HookIo['env']): number | string {
  if (flag !== undefined) return parsePort(flag, '--port');
  const specific = env[shimPortEnv(agent)];
  if (specific) return parsePort(specific, shimPortEnv(agent));
  if (env.AEP_ADAPTER_PORT) return parsePort(env.AEP_ADAPTER_PORT, 'AEP_ADAPTER_PORT');
  return defaultPort;
}

/** The reply bound when the daemon does not announce its hold: AEP_ATTENTION_TIMEOUT_MS (default 55 000) + 5 s. */
function replyBound(env: HookIo['env']): number {
  const raw = env.AEP_ATTENTION_TIMEOUT_MS;
  const hold = raw !== undefined && /^[0-9]+$/.test(raw) && Number(raw) >= 1 ? Number(raw) : 55_000;
  return hold + REPLY_GRACE_MS;
}

/** The arguments: positionals and `--port N`/`--port=N`; any other flag is tolerated (a hook must not fail on one). */
function parseHookArgs(argv: readonly string[]): { positionals: string[]; port?: string; help: boolean; ignored: string[] } {
  const positionals: string[] = [];
  const ignored: string[] = [];
  let port: string | undefined;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--help' || a === '-h') help = true;
    else if (a === '--port') port = argv[++i] ?? '';
    else if (a.startsWith('--port=')) port = a.slice('--port='.length);
    else if (a === '--') positionals.push(...argv.slice(i + 1)), (i = argv.length);
    else if (a.startsWith('-') && a !== '-') ignored.push(a);
    else positionals.push(a);
  }
  return { positionals, ...(port !== undefined ? { port } : {}), help, ignored };
}

export const HOOK_HELP = `usage: aep hook <name> <HookEvent> [--port N]

Reads the vendor's hook JSON on stdin, POSTs it to the adapter daemon at
http://127.0.0.1:<port>/hook/<HookEvent>, and writes the daemon's reply to stdout.

Fail-open: it ALWAYS exits 0 and prints the vendor's neutral reply (most vendors: {}, Codex:
nothing) when it cannot forward, so the vendor behaves as if unhooked. A misconfiguration is
said in one stderr line ('aep hook: ...', shown in the vendor's transcript): an unknown adapter
name, stdin that is not one JSON object (over ${MAX_HOOK_BYTES} bytes, or not closed or
complete within ${STDIN_TIMEOUT_MS} ms), a port answering 404/400 (a relay, another server), a
daemon of another adapter on the port, a daemon that does not answer within
${SHIM_CONNECT_TIMEOUT_MS} ms. A daemon that is simply not running is the normal fail-open case and
stays quiet unless AEP_DEBUG=1. A held hook (a permission prompt waiting for a human) may take
the daemon's hold window + ${REPLY_GRACE_MS / 1000} s; the daemon itself frees it at the window.

adapters: ${names()}

flags:
  --port N   daemon port (default: AEP_<NAME>_PORT, then AEP_ADAPTER_PORT, then the adapter's:
${portList()});
             unknown flags are ignored, with a warning

environment:
  AEP_ATTENTION_TIMEOUT_MS   reply bound when the daemon does not announce its hold
                             (default 55000; the bound is this + 5000)
  AEP_DEBUG=1                also say when no daemon is running

exit codes: always 0 (a hook must never break the vendor)
`;

/**
 * Run the shim; resolves to the exit code (always 0). Never throws: an unexpected error still
 * prints the neutral reply and one stderr line.
 */
export async function hookMain(argv: readonly string[], io: HookIo): Promise<number> {
  const warn = (why: string): void => io.stderr(`aep hook: ${why}\n`);
  let neutral = '';
  try {
    const args = parseHookArgs(argv);
    if (args.help) {
      io.stdout(HOOK_HELP);
      return 0;
    }
    const [name, hookEvent, ...extra] = args.positionals;
    const known = name !== undefined && Object.hasOwn(SHIM_ADAPTERS, name) ? SHIM_ADAPTERS[name] : undefined;
    if (name === undefined || !hookEvent) {
      warn(`usage: aep hook <adapter> <HookEvent> (adapters: ${names()}), e.g. 'aep hook claude-code PreToolUse'; nothing forwarded (fail-open)`);
      if (known) io.stdout(neutralOf(known, hookEvent));
      return 0;
    }
    if (!known) {
      warn(`unknown adapter '${name}' (known: ${names()}); fix the hook command to 'aep hook <adapter> ${hookEvent}'; nothing forwarded (fail-open)`);
      return 0;
    }
    neutral = neutralOf(known, hookEvent);
    if (extra.length > 0 || args.ignored.length > 0) warn(`ignoring ${[...extra, ...args.ignored].map((a) => `'${a}'`).join(', ')} (usage: aep hook <name> <HookEvent> [--port N])`);
    const port = shimPort(name, known.port, args.port, io.env);
    if (typeof port === 'string') {
      warn(`${port}; answered neutrally`);
      io.stdout(neutral);
      return 0;
    }
    const input = await readHookInput(io.stdin);
    if (!input.ok) {
      warn(`${input.why}; answered neutrally`);
      io.stdout(neutral);
      return 0;
    }
    const result = await forwardHook({ port, hookEvent, body: input.body, neutral, adapter: name, replyTimeoutMs: replyBound(io.env) });
    if (result.fellBack !== null && (result.severity !== 'quiet' || io.env.AEP_DEBUG)) {
      const fix = result.severity === 'quiet' ? `start 'aep adapter ${name}'` : `start 'aep adapter ${name}' there, or point --port / ${shimPortEnv(name)} at its port`;
      warn(`${result.fellBack}; ${fix}; answered neutrally`);
    }
    io.stdout(result.stdout);
    return 0;
  } catch (err) {
    warn(`internal error (${(err as Error)?.message ?? String(err)}); answered neutrally`);
    io.stdout(neutral);
    return 0;
  }
}

/** For `aep --help` and `aep hook --help` through main(); main.ts dispatches `hook` to {@link hookMain} before flag parsing. */
export const verb: Verb = {
  name: 'hook',
  summary: "fail-open hook shim: vendor hook JSON on stdin -> adapter daemon -> the vendor's reply on stdout",
  help: HOOK_HELP,
  options: { port: { type: 'string' } },
  allowPositionals: true,
  strict: false,
  run: async ({ positionals, values }, io) =>
    hookMain([...positionals, ...(typeof values.port === 'string' ? ['--port', values.port] : [])], {
      stdout: io.stdout,
      stderr: io.stderr,
      env: io.env,
      stdin: (async function* () {
        yield await io.readStdin();
      })(),
    }),
};
