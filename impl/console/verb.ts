/** `aep console`: the operator's web console (Mission Control) on 127.0.0.1. */
import { UsageError, type CliIo, type Verb } from '../contract/cli.js';
import { MissingAssetsError, loadAssets } from './assets.js';
import { ConsoleConfigError, DEFAULT_CONSOLE_PORT, DEFAULT_RELAY_URL, parseConsoleConfig } from './config.js';
import { CONSOLE_PORT_ENV } from '../integrations.js';
import { startConsole } from './server.js';

const HELP = `usage: aep console [--relay URL[=TOKEN]]... [--port N] [--capture LEVEL]

Serves Mission Control, a single-page web console, on http://127.0.0.1:N/ (loopback only) and
prints its URL. The page watches every given relay at once: sessions as lanes (live over SSE,
resumed from their last position after a reconnect, gaps shown), the attention inbox (answer
permission requests and forms), cancel, the causal timeline, and filters sent to the relay.

The tokens stay on this machine: the page reads them from the console over a same-origin
endpoint and keeps them in memory only (never in a URL or browser storage); its WebSocket goes
through the console, which adds the token. Each relay must allow the console's origin in CORS:
start it with AEP_CORS_ORIGINS=http://127.0.0.1:N ('aep doctor' checks it).

flags:
  --relay URL[=TOKEN]  a relay to watch, repeatable (default $AEP_RELAY or ${DEFAULT_RELAY_URL});
                       TOKEN is its bearer token (default AEP_TOKEN)
  --port N             port (default ${CONSOLE_PORT_ENV} or ${DEFAULT_CONSOLE_PORT}; 0 picks a free one)
  --capture LEVEL      the capture ceiling the page subscribes at: none, metadata, redacted or
                       full (default: what each relay holds)

environment:
  ${CONSOLE_PORT_ENV}  the port when --port is not given
  AEP_RELAY         the relay when no --relay is given
  AEP_TOKEN         the token of a relay given without =TOKEN

exit codes: 0 stopped on SIGINT/SIGTERM · 1 failed to start · 2 usage error
`;

export const verb: Verb = {
  name: 'console',
  summary: 'serve Mission Control, the web console (lanes, attention inbox, control) on 127.0.0.1',
  help: HELP,
  allowPositionals: false,
  options: {
    relay: { type: 'string', multiple: true },
    port: { type: 'string' },
    capture: { type: 'string' },
  },
  async run({ values }, io: CliIo): Promise<number> {
    let config;
    try {
      config = parseConsoleConfig({ relay: values.relay as string[] | undefined, port: values.port as string | undefined, capture: values.capture as string | undefined }, io.env);
    } catch (err) {
      if (err instanceof ConsoleConfigError) throw new UsageError(err.message);
      throw err;
    }
    const log = (line: string): void => io.stderr(`aep console: ${line}\n`);
    let assets;
    try {
      assets = loadAssets();
    } catch (err) {
      if (err instanceof MissingAssetsError) return (log(err.message), 1);
      throw err;
    }
    let running;
    try {
      running = await startConsole({ config, assets, log });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const why = code === 'EADDRINUSE' ? `port ${config.port} is already in use; pick another with --port N (or ${CONSOLE_PORT_ENV}), 0 for a free one` : (err as Error).message;
      log(`cannot listen on 127.0.0.1:${config.port}: ${why}`);
      return 1;
    }
    io.stdout(`aep console listening on ${running.url}\n`);
    log(`watching ${config.relays.map((r) => `${r.url}${r.token === undefined ? ' (no token: watch-only)' : ''}`).join(', ')}`);
    const signal = await io.stopSignal;
    log(`${signal}: stopping`);
    await running.close();
    return 0;
  },
};
