/** `aep mcp`: an MCP stdio server (emit_event, ask_human) that emits like an adapter. */
import { randomBytes } from 'node:crypto';
import { homedir, hostname } from 'node:os';
import type { Verb } from './verb.js';
import { watchStop } from './signal-exit.js';
import { UsageError } from './io.js';
import { parseLevel } from '../adapter-kit/capture.js';
import { RelayLink } from '../adapter-kit/relay-link.js';
import { CAPTURE_ORDER } from '../core/event.js';
import { nextEpoch } from '../adapter-kit/store.js';
import { ulid } from '../core/ulid.js';
import { McpAgent, MCP_AGENT } from '../mcp/agent.js';
import { createMcpServer } from '../mcp/server.js';
import { MCP_LIMITS, mcpLimitsFromEnv } from '../mcp/json-rpc-edge.js';
import { BoundedStdioTransport } from '../mcp/stdio-transport.js';
import { aepHome } from '../operator/home.js';
import { DEFAULT_RELAY, tokenOf } from '../operator/relay-opts.js';
import { relayUrlFromEnv } from '../integrations/registry.js';

const HELP = `usage: aep mcp [--relay URL|none] [--token T] [--session S] [--ask-timeout S]

An MCP server on stdio (the official MCP TypeScript SDK; JSON-RPC on stdout, logs on stderr)
exposing two tools to a model:
  emit_event  {type, data?, subject?, severity?, capture?, session?, run?}: emits one AEP event
              declaring capture (default metadata; redacted content goes through redaction
              first). Refuses a malformed type, every control.* (and x.<vendor>.control.*),
              attention.* (use ask_human), session.started/ended (the server owns its sessions)
              and a capture above AEP_CAPTURE. The result says whether the event was sent to
              the relay or only logged (no relay, link down, token refused).
  ask_human   {prompt, options?, timeout_s?, session?, run?}: emits attention.requested
              (respond_via control) and holds the tool result until an operator answers it
              ('aep respond <session> <request-id> --option ID | --text S') or the timeout
              passes (attention.timeout; the result is an error saying nobody answered). With
              no relay, a refused token or a link that is down it fails at once, asking nothing.
Events go out on the adapters' path: one (epoch, seq) sequencer (the epoch persisted in
$AEP_HOME and bumped per start), the session log $AEP_HOME/logs/aep-mcp/<session>.jsonl, and
the relay's /socket with hello (control.accepts ["control.attention.respond"]), an outbox while
the relay is away, reconnects with backoff. A relay that refuses the token (HTTP 401/403) is
reported once ("relay refused the token"); the link then retries quietly every 10 s. The
session opens with session.started on first use and ends with session.ended when stdin closes.

Register it with an MCP client, e.g. Claude Code:
  claude mcp add aep -- aep mcp --relay ${DEFAULT_RELAY}

flags:
  --relay URL      relay base URL (default AEP_RELAY_URL, then ${DEFAULT_RELAY}; 'none' = log only)
  --token T        bearer token (default AEP_TOKEN; needed for answers to arrive)
  --session S      the session (default mcp-<ulid>)
  --ask-timeout S  default ask_human wait in seconds (default 300)
  --json           accepted for symmetry; the protocol output is already JSON

environment: AEP_CAPTURE the highest capture level emit_event may declare (${CAPTURE_ORDER.join('|')},
  default metadata) · AEP_RELAY_URL · AEP_TOKEN · AEP_HOME · AEP_MCP_MAX_LINE the largest input
  line in bytes (default ${MCP_LIMITS.maxLine}) · AEP_MCP_MAX_DEPTH the deepest JSON nesting of a message
  (default ${MCP_LIMITS.maxDepth})

input: one JSON-RPC message per line. A line that is not JSON (or not UTF-8) is answered -32700, one
that is not a JSON-RPC message, a batch, nested too deep or over the size limit -32600 (with the
request's id when it can be read, else null), and the server keeps serving; an empty line is ignored.

exit codes: 0 stdin closed · 130 (SIGINT) or 143 (SIGTERM) stopped by the signal, closing events sent ·
1 AEP_HOME cannot be written · 2 usage
`;

export const verb: Verb = {
  name: 'mcp',
  summary: 'MCP stdio server: emit_event and ask_human on the adapters\' emission path',
  help: HELP,
  allowPositionals: false,
  options: { relay: { type: 'string' }, token: { type: 'string' }, session: { type: 'string' }, 'ask-timeout': { type: 'string' }, json: { type: 'boolean' } },
  async run({ values }, io) {
    const relay = typeof values.relay === 'string' ? values.relay : relayUrlFromEnv(io.env).url || DEFAULT_RELAY;
    if (relay !== 'none') {
      try {
        new URL(relay);
      } catch {
        throw new UsageError(`--relay '${relay}' is not a URL (or 'none')`);
      }
    }
    const askS = values['ask-timeout'] === undefined ? 300 : Number(values['ask-timeout']);
    if (!Number.isFinite(askS) || askS <= 0) throw new UsageError(`--ask-timeout must be a positive number of seconds, got '${String(values['ask-timeout'])}'`);
    const capture = io.env.AEP_CAPTURE === undefined || io.env.AEP_CAPTURE === '' ? 'metadata' : parseLevel(io.env.AEP_CAPTURE);
    if (capture === null) throw new UsageError(`AEP_CAPTURE must be one of ${CAPTURE_ORDER.join('|')}, got '${io.env.AEP_CAPTURE}'`);
    const limits = mcpLimitsFromEnv(io.env);
    if (typeof limits === 'string') throw new UsageError(limits);
    const token = tokenOf(values, io.env);
    const home = aepHome(io.env, io.cwd);
    const log = (l: string): void => io.stderr(`aep mcp: ${l}\n`);
    const session = typeof values.session === 'string' && values.session !== '' ? values.session : `mcp-${ulid()}`;
    let link: RelayLink | undefined;
    const agent: McpAgent = new McpAgent({
      host: hostname(),
      epoch: nextEpoch(home, MCP_AGENT),
      session,
      home,
      askTimeoutMs: Math.round(askS * 1000),
      capture,
      redactHome: io.env.HOME || homedir(),
      send: (line) => link?.send(line),
      ...(relay !== 'none' ? { link: () => link?.state ?? { status: 'connecting' as const } } : {}),
      log,
    });
    if (relay !== 'none') {
      link = new RelayLink({ url: relay, ...(token ? { token } : {}), hello: agent.hello(`${hostname()}/${process.pid}/${randomBytes(2).toString('hex')}`), onCommand: (raw, v) => agent.onCommand(raw, v), log }).start();
    }
    const server = createMcpServer(agent);
    const transport = new BoundedStdioTransport(process.stdin, process.stdout, limits, log);
    const closed = new Promise<void>((r) => {
      transport.onclose = () => r();
      process.stdin.once('end', () => r());
    });
    await server.connect(transport);
    log(`serving on stdio; session ${session}; relay ${relay === 'none' ? 'none (log only)' : relay}${token ? '' : relay === 'none' ? '' : ' (no token: answers cannot be routed to this server)'}`);
    const stopped = watchStop(io.stopSignal);
    await Promise.race([closed, stopped.signal]);
    agent.close();
    await new Promise((r) => setTimeout(r, 200)); // let the closing events leave the outbox
    await link?.close();
    await server.close().catch(() => undefined);
    await agent.closeLog();
    return stopped.code() ?? 0;
  },
};
