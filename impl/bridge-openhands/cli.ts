/**
 * `aep bridge openhands`: observe an OpenHands agent server until SIGINT/SIGTERM. `--server URL`
 * (AEP_OPENHANDS_SERVER, default http://127.0.0.1:8000), the session key AEP_OPENHANDS_API_KEY,
 * AEP_OPENHANDS_POLL seconds (default 15), AEP_OPENHANDS_DELTAS=1, healthz on 8397
 * (AEP_OPENHANDS_PORT). AEP_AGENT_NAME overrides agent `openhands`.
 */
import { EXIT, UsageError, type CliIo } from '../cli/io.js';
import type { BridgeArgs } from '../cli/bridge.js';
import { createEmitter } from '../bridge-kit/emitter.js';
import { inboundOptions } from '../bridge-kit/options.js';
import { AGENT } from './map-events.js';
import { DEFAULT_PORT, startOpenHandsBridge } from './receiver.js';

export async function run({ values, rest }: BridgeArgs, io: CliIo): Promise<number> {
  if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'`);
  if (io.env.AEP_OPENHANDS_CONTROL === '1') throw new UsageError('AEP_OPENHANDS_CONTROL=1 (the five REST writes) is not implemented in this bridge yet; unset it to run read-only');
  const server = String(values.server ?? io.env.AEP_OPENHANDS_SERVER ?? 'http://127.0.0.1:8000');
  try {
    new URL(server);
  } catch {
    throw new UsageError(`--server must be the agent server URL, got '${server}'`);
  }
  const poll = io.env.AEP_OPENHANDS_POLL ?? '15';
  if (!/^[0-9]+$/.test(poll) || Number(poll) < 1) throw new UsageError(`AEP_OPENHANDS_POLL must be a positive number of seconds, got '${poll}'`);
  const opts = inboundOptions(values, io.env, DEFAULT_PORT, 'AEP_OPENHANDS_PORT');
  if (typeof opts === 'string') throw new UsageError(opts);
  const log = (line: string): void => io.stderr(`aep bridge openhands: ${line}\n`);
  const emitter = createEmitter({
    agent: io.env.AEP_AGENT_NAME || AGENT, stateKey: 'bridge-openhands', home: opts.home, posture: opts.posture,
    ...(opts.relay ? { relay: opts.relay } : {}), ...(opts.token ? { token: opts.token } : {}),
    emits: ['session', 'run', 'tool', 'attention', 'state', 'error', 'x.openhands'], log,
  });
  let bridge;
  try {
    bridge = await startOpenHandsBridge({
      server, ...(io.env.AEP_OPENHANDS_API_KEY ? { apiKey: io.env.AEP_OPENHANDS_API_KEY } : {}), emitter, pollMs: Number(poll) * 1000,
      deltas: io.env.AEP_OPENHANDS_DELTAS === '1', ceiling: opts.posture.ceiling, port: opts.port, log,
    });
  } catch (err) {
    await emitter.close();
    io.stderr(`aep bridge openhands: cannot start: ${(err as Error).message}\n`);
    return EXIT.failed;
  }
  log(`observing ${server} (poll ${poll} s, read-only); healthz ${bridge.url}/healthz; relay ${opts.relay ?? 'disabled'}`);
  const signal = await io.stopSignal;
  log(`${signal}, stopping`);
  await bridge.close();
  await emitter.close();
  return EXIT.ok;
}
