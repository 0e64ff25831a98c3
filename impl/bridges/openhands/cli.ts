/**
 * `aep bridge openhands`: observe an OpenHands agent server until SIGINT/SIGTERM. `--server URL`
 * (AEP_OPENHANDS_SERVER, default http://127.0.0.1:8000), the session key AEP_OPENHANDS_API_KEY,
 * AEP_OPENHANDS_POLL seconds (default 15), AEP_OPENHANDS_MAX_SESSIONS (default 100), AEP_OPENHANDS_DELTAS=1, healthz on its
 * descriptor's port (and variable). AEP_AGENT_NAME overrides agent `openhands`. The opt-in gate
 * AEP_OPENHANDS_CONTROL=1 enables the five REST writes (control.ts), with
 * AEP_OPENHANDS_ACK_GUARD_MS (default 8000).
 */
import { EXIT, UsageError, type CliIo } from '../../contract/cli.js';
import type { BridgeArgs } from '../../contract/cli.js';
import { createEmitter } from '../../bridge-kit/emitter.js';
import { inboundOptions } from '../../bridge-kit/options.js';
import { AGENT } from './map-events.js';
import { DEFAULT_PORT, MAX_SESSIONS, startOpenHandsBridge, type RunningOpenHands } from './receiver.js';
import { CONTROL_ACCEPTS, OpenHandsControlGate } from './control.js';
import { descriptor } from './descriptor.js';

export async function run({ values, rest }: BridgeArgs, io: CliIo): Promise<number> {
  if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'`);
  const server = String(values.server ?? io.env.AEP_OPENHANDS_SERVER ?? 'http://127.0.0.1:8000');
  try {
    new URL(server);
  } catch {
    throw new UsageError(`--server must be the agent server URL, got '${server}'`);
  }
  const poll = io.env.AEP_OPENHANDS_POLL ?? '15';
  if (!/^[0-9]+$/.test(poll) || Number(poll) < 1) throw new UsageError(`AEP_OPENHANDS_POLL must be a positive number of seconds, got '${poll}'`);
  const maxSessions = io.env.AEP_OPENHANDS_MAX_SESSIONS ?? String(MAX_SESSIONS);
  if (!/^[0-9]+$/.test(maxSessions) || Number(maxSessions) < 1) throw new UsageError(`AEP_OPENHANDS_MAX_SESSIONS must be a positive whole number, got '${maxSessions}'`);
  const opts = inboundOptions(values, io.env, DEFAULT_PORT, descriptor.portEnv);
  if (typeof opts === 'string') throw new UsageError(opts);
  const gated = io.env.AEP_OPENHANDS_CONTROL === '1';
  const guard = io.env.AEP_OPENHANDS_ACK_GUARD_MS;
  if (guard !== undefined && !/^[0-9]+$/.test(guard)) throw new UsageError(`AEP_OPENHANDS_ACK_GUARD_MS must be a number of milliseconds, got '${guard}'`);
  const apiKey = io.env.AEP_OPENHANDS_API_KEY || undefined;
  const log = (line: string): void => io.stderr(`aep bridge openhands: ${line}\n`);
  let bridgeRef: RunningOpenHands | undefined;
  let gate: OpenHandsControlGate | undefined;
  const emitter = createEmitter({
    ...(gated ? { accepts: CONTROL_ACCEPTS, onCommand: (raw: string, v: Record<string, unknown>) => gate?.onCommand(raw, v) } : {}),
    agent: io.env.AEP_AGENT_NAME || AGENT, stateKey: 'bridge-openhands', home: opts.home, posture: opts.posture,
    ...(opts.relay ? { relay: opts.relay } : {}), ...(opts.token ? { token: opts.token } : {}),
    emits: ['session', 'run', 'tool', 'attention', 'state', 'error', 'x.openhands'], log,
  });
  if (gated) gate = new OpenHandsControlGate({ server, ...(apiKey ? { apiKey } : {}), emitter, posture: opts.posture, statusOf: (c) => bridgeRef?.statusOf(c) ?? null, ...(guard ? { guardMs: Number(guard) } : {}), log });
  let bridge;
  try {
    bridge = await startOpenHandsBridge({
      server, ...(apiKey ? { apiKey } : {}), emitter, pollMs: Number(poll) * 1000,
      deltas: io.env.AEP_OPENHANDS_DELTAS === '1', ceiling: opts.posture.ceiling, port: opts.port, maxSessions: Number(maxSessions), log, ...(gate ? { control: gate } : {}),
    });
    bridgeRef = bridge;
  } catch (err) {
    await emitter.close();
    io.stderr(`aep bridge openhands: cannot start: ${(err as Error).message}\n`);
    return EXIT.failed;
  }
  log(`observing ${server} (poll ${poll} s, control ${gated ? 'on' : 'off'}); healthz ${bridge.url}/healthz; relay ${opts.relay ?? 'disabled'}`);
  const signal = await io.stopSignal;
  log(`${signal}, stopping`);
  await bridge.close();
  await emitter.close();
  return EXIT.ok;
}
