/**
 * `aep bridge <name> ...`: the AEP-0005 bridges. Outbound sidecars `ce` and `otlp` (offline with
 * `--from-file`, or live on a relay subscription), and the inbound bridges (each an ordinary
 * emitter toward the relay). Every bridge comes from the registry (impl/integrations/registry.ts), loaded lazily.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { renderIssue } from '../core/issue.js';
import { parseLevel } from '../adapter-kit/capture.js';
import { EXIT, UsageError, type CliIo } from './io.js';
import type { Verb } from './verb.js';
import { fsReason } from '../operator/fs-errors.js';
import { named } from './lookup.js';
import { BRIDGE_INTEGRATIONS, DEFAULT_RELAY_URL, RELAY_URL_ENV, aliasOf, bridgeNamed } from '../integrations/registry.js';

export type { BridgeArgs, BridgeRunner } from '../contract/cli.js';
import type { BridgeRunner } from '../contract/cli.js';

/** Every bridge of the registry (impl/integrations/registry.ts), loaded lazily: outbound sidecars run here, inbound bridges from their own module. */
export const BRIDGES: Readonly<Record<string, { summary: string; port: number; portEnv: string; load: () => Promise<BridgeRunner> }>> = Object.fromEntries(
  BRIDGE_INTEGRATIONS.map((i) => [
    i.command,
    {
      summary: `${i.descriptor.summary ?? i.descriptor.surface}${i.port ? `; port ${i.port} (${i.portEnv})` : ''}`,
      port: i.port,
      portEnv: i.portEnv,
      load: async () => (i.role === 'outbound-sidecar' ? outbound(i.command === 'ce' ? 'ce' : 'otlp') : ((await i.load()) as BridgeRunner)),
    },
  ]),
);

const port = (command: string): string => {
  const b = bridgeNamed(command);
  return b ? `${b.port}, ${b.portEnv}` : '?';
};

/** Each bridge's own help section (its descriptor's `help`), `{port}` its port and variable, `{port:<name>}` another bridge's. */
const BRIDGE_HELP = BRIDGE_INTEGRATIONS.filter((i) => i.descriptor.help !== undefined)
  .map((i) => i.descriptor.help!.join('\n').replace(/\{port(?::([a-z0-9-]+))?\}/g, (_m, other: string | undefined) => port(other ?? i.name)))
  .join('\n\n');

const HELP = `usage: aep bridge <name> [flags]

Runs one AEP-0005 bridge.

bridges:
${Object.entries(BRIDGES).map(([n, b]) => `  ${n.padEnd(16)} ${b.summary}`).join('\n')}

outbound, offline (ce, otlp):
  --from-file F    read a JSONL file of AEP events ('-' = stdin) and print one result per valid
                   line as JSONL on stdout: a CloudEvent (ce), an OTLP LogRecord exactly as toOtlp
                   returns it (otlp), or an OCSF record via toOcsf (ce --ocsf; 'null' for a type
                   with no OCSF class). Invalid lines are reported on stderr, exit 1.
  --ocsf           (ce) project to OCSF instead of CloudEvents
  --max-capture L  (otlp, --ocsf) exporter capture ceiling: none|metadata|redacted|full
                   (default metadata)

outbound, live (ce, otlp): subscribe to the relay, deliver, retry, resume (docs/bridges.md):
  --relay URL      relay (default ${RELAY_URL_ENV}, then ${DEFAULT_RELAY_URL}); --token T (AEP_TOKEN)
  --filter JSON    attr-match filter (default {}); --capture L ceiling asked of the relay
  --sink URL       (ce) HTTP sink for structured-mode CloudEvents (AEP_CE_SINK)
  --endpoint URL   (otlp) OTLP/HTTP endpoint, /v1/logs appended (OTEL_EXPORTER_OTLP_ENDPOINT)
  --batch-size N, --batch-ms N   (default otlp 100 / 1000, ce 1 / 0)
  --state FILE     resume cursor (default $AEP_HOME/bridges/<name>.cursor.json)
  --replay         with no cursor yet, replay what the relay holds (default: start live)

inbound, common (${BRIDGE_INTEGRATIONS.filter((i) => i.role === 'inbound-bridge').map((i) => i.name).join(', ')}):
  --port N         listen port (default: the bridge's reference port; env AEP_<NAME>_PORT)
  --relay URL      relay base URL (default ${RELAY_URL_ENV}, then ${DEFAULT_RELAY_URL}; 'none' disables)
  --token T        relay bearer token (default AEP_TOKEN)
  environment: AEP_HOME (logs, epoch state), AEP_CAPTURE, AEP_CAPTURE_ATTENTION

${BRIDGE_HELP}

exit codes: 0 done (or stopped cleanly), 1 invalid input or could not start, 2 usage error
`;

async function readInput(file: string, io: CliIo): Promise<Uint8Array | string> {
  if (file === '-') return io.readStdin();
  try {
    return await readFile(resolve(io.cwd, file));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return `cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : fsReason(err)}`;
  }
}

function outbound(kind: 'ce' | 'otlp'): BridgeRunner {
  return async ({ values, rest }, io) => {
    if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'`);
    const maxCapture = values['max-capture'] === undefined ? undefined : parseLevel(String(values['max-capture']));
    if (maxCapture === null) throw new UsageError(`--max-capture must be one of none|metadata|redacted|full, got '${String(values['max-capture'])}'`);
    if (values.ocsf && kind !== 'ce') throw new UsageError('--ocsf is an option of "aep bridge ce"');
    const projection = values.ocsf ? 'ocsf' : kind;
    if (typeof values['from-file'] === 'string') {
      const { projectJsonl } = await import('../bridges/ce/projection.js');
      const input = await readInput(values['from-file'], io);
      if (typeof input === 'string') {
        io.stderr(`aep bridge ${kind}: ${input}\n`);
        return EXIT.usage;
      }
      const out = projectJsonl(input, projection, maxCapture ? { maxCapture } : {});
      if (out.lines.length > 0) io.stdout(`${out.lines.join('\n')}\n`);
      for (const i of out.issues) io.stderr(`aep bridge ${kind}: ${renderIssue(i)}\n`);
      return out.issues.length === 0 ? EXIT.ok : EXIT.failed;
    }
    const { runLive } = await import('../bridges/ce/live-cli.js');
    return runLive(kind, projection, values, io, maxCapture ?? undefined);
  };
}

export const verb: Verb = {
  name: 'bridge',
  summary: 'run an AEP-0005 bridge: ce / otlp sidecars out, protocol bridges in',
  help: HELP,
  options: {
    'from-file': { type: 'string' },
    ocsf: { type: 'boolean' },
    'max-capture': { type: 'string' },
    relay: { type: 'string' },
    token: { type: 'string' },
    filter: { type: 'string' },
    capture: { type: 'string' },
    sink: { type: 'string' },
    endpoint: { type: 'string' },
    state: { type: 'string' },
    replay: { type: 'boolean' },
    'batch-size': { type: 'string' },
    'batch-ms': { type: 'string' },
    port: { type: 'string' },
    vendor: { type: 'string' },
    primary: { type: 'boolean' },
    upstream: { type: 'string' },
    server: { type: 'string' },
  },
  allowPositionals: true,
  async run({ values, positionals }, io) {
    const [typed, ...rest] = positionals;
    const alias = aliasOf(typed);
    if (alias) io.stderr(`aep bridge: ${alias.notice}\n`);
    const entry = named(BRIDGES, alias?.name ?? typed, 'a', 'bridge');
    return (await entry.load())({ values, rest }, io);
  },
};
