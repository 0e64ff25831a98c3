/** `aep adapter <name>`: run a vendor adapter daemon until SIGINT/SIGTERM. */
import type { AdapterDef } from '../adapter-kit/types.js';
import { daemonOptions, portEnvName } from '../adapter-kit/config.js';
import { startAdapter } from '../adapter-kit/daemon.js';
import { aepHome } from '../adapter-kit/store.js';
import { prepareDir } from '../adapter-kit/ensure-dir.js';
import { EXIT, UsageError } from './io.js';
import { own } from './lookup.js';
import type { Verb } from './verb.js';

/** Every adapter the CLI can run, loaded lazily. Adding a vendor is one line here. */
export const ADAPTERS: Record<string, () => Promise<AdapterDef>> = {
  'claude-code': async () => (await import('../adapter-claude-code/adapter.js')).adapter,
  codex: async () => (await import('../adapter-codex/adapter.js')).adapter,
};

export const verb: Verb = {
  name: 'adapter',
  summary: 'run a vendor adapter daemon (hooks in, AEP events to the JSONL log and the relay)',
  help: `usage: aep adapter <name> [--port N] [--relay URL] [--token T]

Runs the adapter daemon for one vendor on 127.0.0.1 until SIGINT/SIGTERM. The vendor's hooks
reach it through 'aep hook <name> <HookEvent>'. Every event is appended to
$AEP_HOME/logs/<name>/<session>.jsonl and sent to the relay's /socket after the hello.

adapters: ${Object.keys(ADAPTERS).join(', ')}

flags:
  --port N       listen port (default: AEP_<NAME>_PORT, then AEP_ADAPTER_PORT, then 8377 for
                 claude-code, 8378 for codex; 0 picks a free port)
  --relay URL    relay base URL (default: AEP_RELAY_URL, then http://127.0.0.1:8787; 'none' disables)
  --token T      relay bearer token (default: AEP_TOKEN; required for the relay to route commands)

environment:
  AEP_HOME                   state file and logs (default ~/.aep)
  AEP_CAPTURE                capture ceiling: none|metadata|redacted|full (default metadata)
  AEP_CAPTURE_ATTENTION      ceiling for attention.* (default redacted, or AEP_CAPTURE when higher)
  AEP_ATTENTION_TIMEOUT_MS   how long a held hook waits for an answer (default 55000)
  AEP_INSTRUCT               1 accepts x.<name>.control.instruct steering; 0 or unset refuses it
                             (default); any other value is a usage error

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
    if (name === undefined) throw new UsageError(`name an adapter: ${Object.keys(ADAPTERS).join(', ')}`);
    if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
    const load = own(ADAPTERS, name);
    if (!load) throw new UsageError(`unknown adapter '${name}'; known: ${Object.keys(ADAPTERS).join(', ')}`);
    const def = await load();
    const flags = {
      ...(typeof values.port === 'string' ? { port: values.port } : {}),
      ...(typeof values.relay === 'string' ? { relay: values.relay } : {}),
      ...(typeof values.token === 'string' ? { token: values.token } : {}),
    };
    const options = daemonOptions(def.agent, def.defaultPort, flags, io.env);
    if (typeof options === 'string') throw new UsageError(options);
    const home = prepareDir(options.home ?? aepHome(io.env), io.env.AEP_HOME ? 'AEP_HOME' : 'the AEP home (~/.aep; set AEP_HOME to move it)');
    if (typeof home === 'string') throw new UsageError(home);
    let running;
    try {
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
