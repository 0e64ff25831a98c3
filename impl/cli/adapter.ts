/** `aep adapter <name>`: run a vendor adapter daemon until SIGINT/SIGTERM. */
import type { AdapterDef } from '../adapter-kit/types.js';
import { daemonOptions, portEnvName } from '../adapter-kit/config.js';
import { startAdapter } from '../adapter-kit/daemon.js';
import { configureDef } from '../adapter-kit/configure.js';
import { aepHome } from '../adapter-kit/store.js';
import { prepareDir } from '../adapter-kit/ensure-dir.js';
import { EXIT, UsageError } from './io.js';
import { named } from './lookup.js';
import type { Verb } from './verb.js';

/** Every adapter the CLI can run, loaded lazily. Adding a vendor is one line here. */
export const ADAPTERS: Record<string, () => Promise<AdapterDef>> = {
  'claude-code': async () => (await import('../adapter-claude-code/adapter.js')).adapter,
  codex: async () => (await import('../adapter-codex/adapter.js')).adapter,
  cline: async () => (await import('../adapter-cline/adapter.js')).adapter,
  hermes: async () => (await import('../adapter-hermes/adapter.js')).adapter,
  antigravity: async () => (await import('../adapter-antigravity/adapter.js')).adapter,
  'gemini-cli': async () => (await import('../adapter-gemini-cli/adapter.js')).adapter,
  'kimi-code': async () => (await import('../adapter-kimi-code/adapter.js')).adapter,
  'vscode': async () => (await import('../adapter-vscode/adapter.js')).adapter,
  'qwen-code': async () => (await import('../adapter-qwen-code/adapter.js')).adapter,
  opencode: async () => (await import('../adapter-opencode/adapter.js')).adapter,
  kilocode: async () => (await import('../adapter-kilocode/adapter.js')).adapter,
  pi: async () => (await import('../adapter-pi/adapter.js')).adapter,
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
  --port N       listen port (default: AEP_<NAME>_PORT, then AEP_ADAPTER_PORT, then the adapter's:
                 8377 claude-code, 8378 codex, 8379 gemini-cli, 8380 qwen-code, 8381 vscode,
                 8390 opencode, 8391 kilocode, 8392 cline, 8393 hermes, 8395 antigravity, 8396 pi,
                 8398 kimi-code; 0 picks a free port)
  --relay URL    relay base URL (default: AEP_RELAY_URL, then http://127.0.0.1:8787; 'none' disables)
  --token T      relay bearer token (default: AEP_TOKEN; required for the relay to route commands)

environment:
  AEP_HOME                   state file and logs (default ~/.aep)
  AEP_CAPTURE                capture ceiling: none|metadata|redacted|full (default metadata)
  AEP_CAPTURE_ATTENTION      ceiling for attention.* (default redacted, or AEP_CAPTURE when higher)
  AEP_ATTENTION_TIMEOUT_MS   how long a held hook waits for an answer (default: the adapter's,
                             20000 for codex, 55000 otherwise)
  AEP_<NAME>_HOLD_MS         the same for one adapter, e.g. AEP_CODEX_HOLD_MS (wins over the above)
  AEP_INSTRUCT               1 accepts x.<name>.control.instruct steering; 0 or unset refuses it
                             (default; never for cline, antigravity, gemini-cli); any other value
                             is a usage error
  AEP_HERMES_CONTROL=1       hermes: hold pre_tool_call as an allow/deny gate (AEP_HERMES_GATE_TOOLS: regex)
  AEP_CLINE_HUB=1            cline: tap the hub's approval loop (AEP_CLINE_HUB_URL + AEP_CLINE_HUB_TOKEN,
                             or AEP_CLINE_HUB_DISCOVERY); AEP_CLINE_HUB_CONTROL=1 also answers through it
  AEP_VSCODE_CONTROL=1       vscode: hold PreToolUse as an allow/deny/ask gate (default off: read-only)
  AEP_VSCODE_GATE_TOOLS      vscode: regex over whole tool names the gate holds (default every tool)
  AEP_KIMI_CONTROL=1         kimi-code: hold PreToolUse as an allow/deny gate (default off: read-only)
  AEP_KIMI_GATE_TOOLS        kimi-code: regex over whole tool names the gate holds (default every tool)
                             (gate holds: 25 s vscode, 50 s kimi-code, capped 5 s inside the vendor timeout)
  AEP_PI_CONTROL=1           pi: declare control.attention.respond and hold forwarded tool_call gates

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
      const hold = def.holdMs === undefined ? {} : { attentionTimeoutMs: def.holdMs };
      running = await startAdapter(def, { ...options, ...hold, log: (line) => io.stderr(`aep adapter ${name}: ${line}\n`) });
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
