/** `aep bridge agui`: the AG-UI tee proxy (its descriptor's port) toward AEP_AGUI_UPSTREAM (or --upstream), until SIGINT/SIGTERM. */
import { EXIT, UsageError, type CliIo } from '../../contract/cli.js';
import type { BridgeArgs } from '../../contract/cli.js';
import { createEmitter } from '../../bridge-kit/emitter.js';
import { inboundOptions } from '../../bridge-kit/options.js';
import { AGENT } from './map-events.js';
import { DEFAULT_PORT, startAguiProxy } from './proxy.js';
import { descriptor, EDGE } from './descriptor.js';
import { edgeLimitsFromEnv } from '../../http/limits.js';

export async function run({ values, rest }: BridgeArgs, io: CliIo): Promise<number> {
  if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'`);
  const upstream = (values.upstream as string | undefined) ?? io.env.AEP_AGUI_UPSTREAM;
  if (!upstream) throw new UsageError('set AEP_AGUI_UPSTREAM (or --upstream) to the AG-UI agent URL, e.g. http://127.0.0.1:8000');
  try {
    new URL(upstream);
  } catch {
    throw new UsageError(`AEP_AGUI_UPSTREAM must be a URL, got '${upstream}'`);
  }
  const opts = inboundOptions(values, io.env, DEFAULT_PORT, descriptor.portEnv);
  if (typeof opts === 'string') throw new UsageError(opts);
  const limits = edgeLimitsFromEnv(EDGE, io.env);
  if (typeof limits === 'string') throw new UsageError(limits);
  const log = (line: string): void => io.stderr(`aep bridge agui: ${line}\n`);
  const emitter = createEmitter({
    agent: io.env.AEP_AGENT_NAME || AGENT, stateKey: 'bridge-agui', home: opts.home, posture: opts.posture,
    ...(opts.relay ? { relay: opts.relay } : {}), ...(opts.token ? { token: opts.token } : {}),
    emits: ['run', 'tool', 'state', 'attention', 'x.agui'], log,
  });
  let proxy;
  try {
    proxy = await startAguiProxy({ upstream, emitter, deltas: io.env.AEP_AGUI_DELTAS === '1', ceiling: opts.posture.ceiling, port: opts.port, limits, log });
  } catch (err) {
    await emitter.close();
    io.stderr(`aep bridge agui: cannot start: ${(err as Error).message}\n`);
    return EXIT.failed;
  }
  log(`proxying ${proxy.url} -> ${upstream} (deltas ${io.env.AEP_AGUI_DELTAS === '1' ? 'on' : 'off'}); relay ${opts.relay ?? 'disabled'}`);
  const signal = await io.stopSignal;
  log(`${signal}, stopping`);
  await proxy.close();
  await emitter.close();
  return EXIT.ok;
}
