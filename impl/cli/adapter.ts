/** `aep adapter <name>`: run a vendor adapter daemon until SIGINT/SIGTERM. */
import type { AdapterDef } from '../adapter-kit/types.js';
import { daemonOptions, portEnvName } from '../adapter-kit/config.js';
import { startAdapter } from '../adapter-kit/daemon.js';
import { configureDef } from '../adapter-kit/configure.js';
import { aepHome } from '../adapter-kit/store.js';
import { prepareDir } from '../adapter-kit/ensure-dir.js';
import { ADAPTER_INTEGRATIONS, DEFAULT_RELAY_URL, RELAY_URL_ENV } from '../integrations/registry.js';
import { EXIT, UsageError } from './io.js';
import { named } from './lookup.js';
import type { Verb } from './verb.js';

/** Every adapter the CLI can run, loaded lazily, from the registry (impl/integrations/registry.ts). */
export const ADAPTERS: Readonly<Record<string, () => Promise<AdapterDef>>> = Object.fromEntries(
  ADAPTER_INTEGRATIONS.map((i) => [i.command, async () => (await i.load()) as AdapterDef]),
);

/** `<port> <name>, ...` wrapped at `width`, each line indented by `indent`. */
function wrapList(items: readonly string[], indent: string, width = 96): string {
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    if (line && indent.length + line.length + item.length + 2 > width) (lines.push(`${indent}${line},`), (line = ''));
    line = line ? `${line}, ${item}` : item;
  }
  if (line) lines.push(`${indent}${line}`);
  return lines.join('\n');
}

const byPort = [...ADAPTER_INTEGRATIONS].sort((a, b) => a.port - b.port);
const optIn = ADAPTER_INTEGRATIONS.flatMap((i) => i.descriptor.env.map((v) => `  ${v.name.padEnd(26)} ${i.command}: ${v.summary}`));

export const verb: Verb = {
  name: 'adapter',
  summary: 'run a vendor adapter daemon (hooks in, AEP events to the JSONL log and the relay)',
  help: `usage: aep adapter <name> [--port N] [--relay URL] [--token T]

Runs the adapter daemon for one vendor on 127.0.0.1 until SIGINT/SIGTERM. The vendor's hooks
reach it through 'aep hook <name> <HookEvent>'. Every event is appended to
$AEP_HOME/logs/<name>/<session>.jsonl and sent to the relay's /socket after the hello.

adapters: ${Object.keys(ADAPTERS).join(', ')}

flags:
  --port N       listen port (default: AEP_<NAME>_PORT, then AEP_ADAPTER_PORT, then the adapter's:
${wrapList(byPort.map((i) => `${i.port} ${i.command}`), '                 ')};
                 0 picks a free port)
  --relay URL    relay base URL (default: ${RELAY_URL_ENV}, then ${DEFAULT_RELAY_URL}; 'none' disables)
  --token T      relay bearer token (default: AEP_TOKEN; required for the relay to route commands)

environment:
  AEP_HOME                   state file and logs (default ~/.aep)
  AEP_CAPTURE                capture ceiling: none|metadata|redacted|full (default metadata)
  AEP_CAPTURE_ATTENTION      ceiling for attention.* (default redacted, or AEP_CAPTURE when higher)
  AEP_ATTENTION_TIMEOUT_MS   how long a held hook waits for an answer (default: the adapter's,
                             ${ADAPTER_INTEGRATIONS.filter((i) => i.descriptor.holdMs !== undefined).map((i) => `${i.descriptor.holdMs} for ${i.command}`).join(', ') || 'none'}, 55000 otherwise)
  AEP_<NAME>_HOLD_MS         the same for one adapter, e.g. AEP_CODEX_HOLD_MS (wins over the above)
  AEP_LINK_GRACE_MS          how long a hook held while the relay link is down waits for the link
                             (a relay restart) before the vendor's neutral reply (default 10000,
                             never past the hold window; 0 answers at once)
  AEP_INSTRUCT               1 accepts x.<name>.control.instruct steering; 0 or unset refuses it
                             (default; never for cline, antigravity, gemini-cli); any other value
                             is a usage error
${optIn.join('\n')}
                             (gate holds: 25 s vscode, 50 s kimi-code, capped 5 s inside the vendor timeout)

exit codes: 0 stopped cleanly, 1 could not start, 2 usage error
`,
  options: {
    port: { type: 'string' },
    relay: { type: 'string' },
    token: { type: 'string' },
  },
  allowPositionals: true,
  async run({ values, positionals }, io) {
    const [name, ...extra] = positionals;
    if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
    const load = named(ADAPTERS, name, 'an', 'adapter');
    // Adapters with opt-in legs read their own variables (e.g. AEP_VSCODE_CONTROL) into a fresh instance.
    const def = configureDef(await load(), io.env);
    if (typeof def === 'string') throw new UsageError(def);
    const flags = {
      ...(typeof values.port === 'string' ? { port: values.port } : {}),
      ...(typeof values.relay === 'string' ? { relay: values.relay } : {}),
      ...(typeof values.token === 'string' ? { token: values.token } : {}),
    };
    const options = daemonOptions(def.agent, def.defaultPort, flags, io.env, def.holdMs);
    if (typeof options === 'string') throw new UsageError(options);
    const home = prepareDir(options.home ?? aepHome(io.env), io.env.AEP_HOME ? 'AEP_HOME' : 'the AEP home (~/.aep; set AEP_HOME to move it)');
    if (typeof home === 'string') throw new UsageError(home);
    let running;
    try {
      // options.attentionTimeoutMs already is AEP_<NAME>_HOLD_MS, else AEP_ATTENTION_TIMEOUT_MS, else def.holdMs.
      running = await startAdapter(def, { ...options, log: (line) => io.stderr(`aep adapter ${name}: ${line}\n`) });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const why = code === 'EADDRINUSE' ? `port ${options.port} on 127.0.0.1 is already in use (another daemon?); pick another with --port N or ${portEnvName(def.agent)}` : (err as Error).message;
      io.stderr(`aep adapter ${name}: cannot start: ${why}\n`);
      return EXIT.failed;
    }
    io.stderr(
      `aep adapter ${name}: listening on ${running.url} (epoch ${running.epoch}); ` +
        `relay ${options.relay ?? 'disabled'}${options.token ? ' (token set)' : ''}; ` +
        `capture ${options.posture?.ceiling}/attention ${options.posture?.attention}; steering ${options.instruct ? 'on' : 'off'}\n`,
    );
    const signal = await io.stopSignal;
    io.stderr(`aep adapter ${name}: ${signal}, freeing held hooks and stopping\n`);
    await running.close();
    return EXIT.ok;
  },
};
