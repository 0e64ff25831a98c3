/** `aep console`: the operator's web console (Mission Control) on 127.0.0.1. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError, type CliIo, type Verb } from '../contract/cli.js';
import { MissingAssetsError, loadAssets } from './assets.js';
import { ConsoleConfigError, DEFAULT_CONSOLE_PORT, DEFAULT_RELAY_URL, parseConsoleConfig } from './config.js';
import { CONSOLE_PORT_ENV } from '../integrations/registry.js';
import { startConsole } from './server.js';

const HELP = `usage: aep console [--relay URL [--token-file FILE]]... [--port N] [--capture LEVEL]

Serves Mission Control, a single-page web console, on http://127.0.0.1:N/ (loopback only) and
prints its URL. The page watches every given relay at once: the attention inbox (answerable
requests first, oldest first; the ones no one here can answer folded apart), each relay's
status, sessions as lanes (the run, the tool in progress, the last outcome), pause, resume and
cancel, the settled history with each outcome, a session's state and a step-by-step replay.

The printed URL carries a secret made for this launch: the console answers only a browser that
opened it (the secret becomes an HttpOnly, SameSite=Strict cookie); anything else gets 403.
Relay tokens stay in this process: the page reaches the relays through the console, which adds
the token, so no token is ever in the page, a URL, browser storage or a log.

flags:
  --relay URL          a relay to watch, repeatable (default $AEP_RELAY_URL or ${DEFAULT_RELAY_URL}).
                       URL=TOKEN is refused: argv is readable by every user of the machine
  --token-file FILE    the token of the --relay in the same position (one per --relay, in
                       order); the file holds the token as one word. Default: AEP_TOKEN
  --port N             port (default ${CONSOLE_PORT_ENV} or ${DEFAULT_CONSOLE_PORT}; 0 picks a free one)
  --capture LEVEL      the capture ceiling the page subscribes at: none, metadata, redacted or
                       full (default: what each relay holds)

environment:
  ${CONSOLE_PORT_ENV}  the port when --port is not given
  AEP_RELAY_URL     the relay when no --relay is given (AEP_RELAY is read as an alias, with a warning)
  AEP_TOKEN         the token of every relay given without --token-file

exit codes: 0 stopped on SIGINT/SIGTERM · 1 failed to start · 2 usage error (a token in argv included)
`;

export const verb: Verb = {
  name: 'console',
  summary: 'serve Mission Control, the web console (lanes, attention inbox, control) on 127.0.0.1',
  help: HELP,
  allowPositionals: false,
  options: {
    relay: { type: 'string', multiple: true },
    'token-file': { type: 'string', multiple: true },
    port: { type: 'string' },
    capture: { type: 'string' },
  },
  async run({ values }, io: CliIo): Promise<number> {
    let config;
    try {
      config = parseConsoleConfig(
        { relay: values.relay as string[] | undefined, tokenFile: values['token-file'] as string[] | undefined, port: values.port as string | undefined, capture: values.capture as string | undefined },
        io.env,
        (path) => readFileSync(resolve(io.cwd, path), 'utf8'),
      );
    } catch (err) {
      if (err instanceof ConsoleConfigError) throw new UsageError(err.message);
      throw err;
    }
    const log = (line: string): void => io.stderr(`aep console: ${line}\n`);
    for (const w of config.warnings) log(`warning: ${w}`);
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
    // The URL with its secret goes to stdout, to the operator; the log lines never carry it.
    io.stdout(`aep console listening on ${running.url}\n`);
    log(`watching ${config.relays.map((r) => `${r.url}${r.token === undefined ? ' (no token: watch-only)' : ''}`).join(', ')}`);
    const signal = await io.stopSignal;
    log(`${signal}: stopping`);
    await running.close();
    return 0;
  },
};
