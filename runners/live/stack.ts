/**
 * The live stack: a tokened relay on an ephemeral loopback port, the runner's own subscribed
 * socket, and adapter daemons started on demand (ephemeral ports, a temporary AEP home).
 * `withStack` tears everything down when its body settles, failure or not.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRelay } from '../../impl/relay/server.js';
import { startAdapter, type AdapterOptions, type RunningAdapter } from '../../impl/adapter-kit/daemon.js';
import type { AdapterDef } from '../../impl/adapter-kit/types.js';
import { RelayClient } from './relay-client.js';
import { poll } from './live-target.js';
import { configured } from './offline-target.js';
import { startExternal, type ExternalDaemon, type ExternalTarget } from './external.js';
import { startRelayTap, type RelayTap } from './relay-tap.js';

/** `--target` and progress options of a stack (all optional). */
export interface StackOptions {
  /** External daemons by agent name: started or attached instead of ours (external.ts). */
  external?: Readonly<Record<string, ExternalTarget>>;
  /** Relay port (default 0: ephemeral); fixed for an already running `--target` daemon. */
  relayPort?: number;
  /** Relay token (default: random per stack). */
  token?: string;
  /** One human line per daemon-starting moment (the agent changes). */
  progress?: (line: string) => void;
  /** Each hello an external daemon said to the relay, as it was said (for its certification page). */
  onHello?: (agent: string, hello: Record<string, unknown>) => void;
}

/** Host name stamped into live events' `source`. */
export const LIVE_HOST = 'aep-conformance';

export interface Stack {
  /** The relay's base URL. */
  relayUrl: string;
  /** The relay's bearer token (random per stack). */
  token: string;
  /** The runner's subscribed, tokened socket (sends commands, sees every event). */
  client: RelayClient;
  /**
   * Start one adapter daemon linked to the relay and wait for its hello to complete.
   * It is closed by `withStack`, or earlier by the caller.
   */
  adapter(def: AdapterDef, options?: Partial<AdapterOptions>, env?: Record<string, string>): Promise<RunningAdapter>;
  /** Whether `agent` runs as a `--target` (an external daemon) in this stack. */
  external(agent: string): boolean;
  /** The last hello an external `agent` said to the relay (through the tap); undefined for ours or before any. */
  hello(agent: string): Record<string, unknown> | undefined;
  /**
   * What a failure that timed out shows: the frames the relay refused the external daemons (code
   * and detail, the last 5) and the last output lines of the latest external daemon; undefined
   * when there is nothing to show.
   */
  evidence(): string | undefined;
}

export async function withStack<T>(body: (stack: Stack) => Promise<T>, log: (line: string) => void = () => {}, opts: StackOptions = {}): Promise<T> {
  const token = opts.token ?? randomBytes(16).toString('hex');
  const home = mkdtempSync(join(tmpdir(), 'aep-live-'));
  const daemons: RunningAdapter[] = [];
  // An external daemon reaches the relay through a tap (on the fixed port, when one is asked for):
  // its hello and the relay's refusals are seen.
  const tapped = Object.keys(opts.external ?? {}).length > 0;
  const relay = await startRelay({ host: '127.0.0.1', port: tapped ? 0 : (opts.relayPort ?? 0), token, drainMs: 200, log });
  let lastAgent = '';
  let client: RelayClient | undefined;
  let tap: RelayTap | undefined;
  try {
    tap = tapped ? await startRelayTap(relay.url, opts.relayPort ?? 0) : undefined;
  } catch (err) {
    await relay.close();
    throw err;
  }
  if (Object.values(opts.external ?? {}).some((t) => t.url)) opts.progress?.(`relay ${tap?.url ?? relay.url} (token ${token}): link the --target daemon to it`);
  let lastExternal: ExternalDaemon | undefined;
  const refusalText = (n: number): string => (tap?.refusals ?? []).slice(-n).map((r) => `${r.code}${r.cause ? ` (${r.cause})` : ''}: ${r.detail}`).join(' | ');
  try {
    client = await RelayClient.open(relay.url, token);
    const stack: Stack = {
      relayUrl: relay.url,
      token,
      client,
      async adapter(template, options = {}, env = {}) {
        const ext = opts.external?.[template.agent];
        if (template.agent !== lastAgent) opts.progress?.(`starting the ${template.agent} daemon${ext ? ` (external: ${ext.url ?? ext.command})` : ''}`);
        lastAgent = template.agent;
        if (ext) {
          const daemon = await startExternal(ext, { relayUrl: tap?.url ?? relay.url, token, home, options, env, log, refusals: () => refusalText(5) });
          daemons.push(daemon);
          lastExternal = daemon;
          // AEP-0003 §3.5: the first frame is the hello. A daemon reporting a completed hello that never said one is refused here.
          const said = (): Record<string, unknown> | undefined => [...(tap?.hellos ?? [])].reverse().find((h) => (h.identity as { agent?: unknown } | undefined)?.agent === template.agent);
          await poll(() => said() !== undefined, 2000);
          if (tap && !said()) {
            const refused = refusalText(5);
            throw new Error(`the external ${template.agent} daemon reports a completed hello (GET /healthz → "relay": true), but no hello with identity.agent "${template.agent}" reached the relay (AEP-0003 §3.5, §4)${refused ? `; the relay refused: ${refused}` : ''}; its last output lines: ${daemon.tail(10).replace(/\n/g, ' ⏎ ') || '(none)'}`);
          }
          if (said()) opts.onHello?.(template.agent, said()!);
          return daemon;
        }
        const def = configured(template, env);
        const daemon = await startAdapter(def, { port: 0, relay: relay.url, token, home, hostname: LIVE_HOST, log, ...options });
        daemons.push(daemon);
        await poll(() => daemon.relayReady(), 5000);
        if (!daemon.relayReady()) throw new Error(`the ${def.agent} daemon did not complete its hello with the relay within 5000 ms`);
        return daemon;
      },
      external: (agent) => opts.external?.[agent] !== undefined,
      hello: (agent) => [...(tap?.hellos ?? [])].reverse().find((h) => (h.identity as { agent?: unknown } | undefined)?.agent === agent),
      evidence() {
        const refused = refusalText(5);
        const tail = lastExternal?.tail(10) ?? '';
        const parts = [refused ? `the relay refused: ${refused}` : tap ? 'the relay refused nothing' : '', tail ? `the target's last output lines: ${tail.replace(/\n/g, ' ⏎ ')}` : ''].filter(Boolean);
        return parts.length ? parts.join('; ') : undefined;
      },
    };
    return await body(stack);
  } finally {
    await Promise.allSettled(daemons.map((d) => d.close()));
    await tap?.close();
    await client?.close();
    await relay.close();
    rmSync(home, { recursive: true, force: true });
  }
}
