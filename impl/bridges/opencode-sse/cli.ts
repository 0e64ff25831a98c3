/**
 * `aep bridge opencode-sse` / `aep bridge kilocode-sse`: attach to the vendor server's bus
 * stream until SIGINT/SIGTERM. `--server URL` (env AEP_OPENCODE_SERVER / AEP_KILOCODE_SERVER,
 * default http://127.0.0.1:4096), `--primary` (env AEP_<VENDOR>_SSE_MODE=primary; default
 * companion), healthz on the port of each descriptor (and its variable), the opt-in
 * gate AEP_<VENDOR>_SSE_CONTROL=1 (primary only) with AEP_<VENDOR>_SSE_ACK_GUARD_MS (default 8000).
 */
import { EXIT, UsageError, type CliIo } from '../../contract/cli.js';
import type { BridgeArgs, BridgeRunner } from '../../contract/cli.js';
import { createEmitter } from '../../bridge-kit/emitter.js';
import { inboundOptions } from '../../bridge-kit/options.js';
import type { BusVendor } from './map-bus.js';
import { DEFAULT_PORTS, startSseBridge, type RunningSseBridge } from './attach.js';
import { CONTROL_ACCEPTS, ControlGate } from './control.js';
import { descriptor as opencodeSse } from './descriptor.js';
import { descriptor as kilocodeSse } from '../kilocode-sse/descriptor.js';

const PORT_ENVS: Record<BusVendor, string> = { opencode: opencodeSse.portEnv, kilocode: kilocodeSse.portEnv };

export function runner(vendor: BusVendor): BridgeRunner {
  const V = vendor.toUpperCase();
  return async ({ values, rest }: BridgeArgs, io: CliIo) => {
    if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'`);
    const opts = inboundOptions(values, io.env, DEFAULT_PORTS[vendor], PORT_ENVS[vendor]);
    if (typeof opts === 'string') throw new UsageError(opts);
    const server = String(values.server ?? io.env[`AEP_${V}_SERVER`] ?? 'http://127.0.0.1:4096');
    try {
      new URL(server);
    } catch {
      throw new UsageError(`--server must be the ${vendor} server URL, e.g. http://127.0.0.1:4096, got '${server}'`);
    }
    const mode = values.primary === true || io.env[`AEP_${V}_SSE_MODE`] === 'primary' ? 'primary' : 'companion';
    const log = (line: string): void => io.stderr(`aep bridge ${vendor}-sse: ${line}\n`);
    // The gate is honored in primary mode only; gated off (or companion) the hello is read-only.
    const gated = mode === 'primary' && io.env[`AEP_${V}_SSE_CONTROL`] === '1';
    const guard = io.env[`AEP_${V}_SSE_ACK_GUARD_MS`];
    if (guard !== undefined && !/^[0-9]+$/.test(guard)) throw new UsageError(`AEP_${V}_SSE_ACK_GUARD_MS must be a number of milliseconds, got '${guard}'`);
    let bridgeRef: RunningSseBridge | undefined;
    let gate: ControlGate | undefined;
    const emitter = createEmitter({
      ...(gated ? { accepts: CONTROL_ACCEPTS, onCommand: (raw: string, v: Record<string, unknown>) => gate?.onCommand(raw, v) } : {}),
      agent: vendor, stateKey: `bridge-${vendor}-sse`, home: opts.home, posture: opts.posture,
      ...(opts.relay ? { relay: opts.relay } : {}), ...(opts.token ? { token: opts.token } : {}),
      emits: mode === 'primary' ? ['session', 'run', 'attention', 'progress', `x.${vendor}`] : [`x.${vendor}`], log,
    });
    if (gated) gate = new ControlGate({ server, emitter, posture: opts.posture, runOf: (s) => bridgeRef?.runOf(s), ...(guard ? { guardMs: Number(guard) } : {}), log });
    let bridge;
    try {
      bridge = await startSseBridge({ vendor, server, mode, emitter, port: opts.port, log, ...(gate ? { control: gate } : {}) });
      bridgeRef = bridge;
    } catch (err) {
      await emitter.close();
      io.stderr(`aep bridge ${vendor}-sse: cannot start: ${(err as Error).message}\n`);
      return EXIT.failed;
    }
    log(`attached to ${server}/event (${mode} mode, control ${gated ? 'on' : 'off'}, epoch ${emitter.epoch}); healthz ${bridge.url}/healthz; relay ${opts.relay ?? 'disabled'}`);
    const signal = await io.stopSignal;
    log(`${signal}, stopping`);
    await bridge.close();
    await emitter.close();
    return EXIT.ok;
  };
}
