/**
 * `aep bridge opencode-sse` / `aep bridge kilocode-sse`: attach to the vendor server's bus
 * stream until SIGINT/SIGTERM. `--server URL` (env AEP_OPENCODE_SERVER / AEP_KILOCODE_SERVER,
 * default http://127.0.0.1:4096), `--primary` (env AEP_<VENDOR>_SSE_MODE=primary; default
 * companion), healthz on 4320 / 4322 (AEP_OPENCODE_SSE_PORT / AEP_KILOCODE_SSE_PORT).
 */
import { EXIT, UsageError, type CliIo } from '../cli/io.js';
import type { BridgeArgs, BridgeRunner } from '../cli/bridge.js';
import { createEmitter } from '../bridge-kit/emitter.js';
import { inboundOptions } from '../bridge-kit/options.js';
import type { BusVendor } from './map-bus.js';
import { DEFAULT_PORTS, startSseBridge } from './attach.js';

export function runner(vendor: BusVendor): BridgeRunner {
  const V = vendor.toUpperCase();
  return async ({ values, rest }: BridgeArgs, io: CliIo) => {
    if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'`);
    const opts = inboundOptions(values, io.env, DEFAULT_PORTS[vendor], `AEP_${V}_SSE_PORT`);
    if (typeof opts === 'string') throw new UsageError(opts);
    const server = String(values.server ?? io.env[`AEP_${V}_SERVER`] ?? 'http://127.0.0.1:4096');
    try {
      new URL(server);
    } catch {
      throw new UsageError(`--server must be the ${vendor} server URL, e.g. http://127.0.0.1:4096, got '${server}'`);
    }
    const mode = values.primary === true || io.env[`AEP_${V}_SSE_MODE`] === 'primary' ? 'primary' : 'companion';
    const log = (line: string): void => io.stderr(`aep bridge ${vendor}-sse: ${line}\n`);
    const emitter = createEmitter({
      agent: vendor, stateKey: `bridge-${vendor}-sse`, home: opts.home, posture: opts.posture,
      ...(opts.relay ? { relay: opts.relay } : {}), ...(opts.token ? { token: opts.token } : {}),
      emits: mode === 'primary' ? ['session', 'run', 'attention', 'progress', `x.${vendor}`] : [`x.${vendor}`], log,
    });
    let bridge;
    try {
      bridge = await startSseBridge({ vendor, server, mode, emitter, port: opts.port, log });
    } catch (err) {
      await emitter.close();
      io.stderr(`aep bridge ${vendor}-sse: cannot start: ${(err as Error).message}\n`);
      return EXIT.failed;
    }
    log(`attached to ${server}/event (${mode} mode, epoch ${emitter.epoch}); healthz ${bridge.url}/healthz; relay ${opts.relay ?? 'disabled'}`);
    const signal = await io.stopSignal;
    log(`${signal}, stopping`);
    await bridge.close();
    await emitter.close();
    return EXIT.ok;
  };
}
