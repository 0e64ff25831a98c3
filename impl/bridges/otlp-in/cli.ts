/** `aep bridge otlp-in`: the OTel-inbound receiver as a daemon, until SIGINT/SIGTERM. */
import { UsageError, EXIT, type CliIo } from '../../contract/cli.js';
import type { BridgeArgs } from '../../contract/cli.js';
import { createEmitter } from '../../bridge-kit/emitter.js';
import { inboundOptions } from '../../bridge-kit/options.js';
import { codexProfile } from './map-records.js';
import { vscodeProfile } from './map-records-vscode.js';
import { DEFAULT_PORT, startReceiver } from './receiver.js';
import { descriptor, EDGE } from './descriptor.js';
import { edgeLimitsFromEnv } from '../../http/limits.js';

export const PROFILES = { codex: codexProfile, vscode: vscodeProfile } as const;

export async function run({ values, rest }: BridgeArgs, io: CliIo): Promise<number> {
  if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'`);
  const vendor = String(values.vendor ?? io.env.AEP_OTLP_IN_VENDOR ?? 'codex');
  if (vendor !== 'codex' && vendor !== 'vscode') throw new UsageError(`--vendor must be codex or vscode, got '${vendor}'`);
  const profile = PROFILES[vendor];
  const mode = values.primary === true || io.env.AEP_OTLP_IN_MODE === 'primary' ? 'primary' : 'companion';
  const opts = inboundOptions(values, io.env, DEFAULT_PORT, descriptor.portEnv);
  if (typeof opts === 'string') throw new UsageError(opts);
  const limits = edgeLimitsFromEnv(EDGE, io.env);
  if (typeof limits === 'string') throw new UsageError(limits);
  const log = (line: string): void => io.stderr(`aep bridge otlp-in: ${line}\n`);
  const emitter = createEmitter({
    agent: profile.agent, stateKey: `bridge-otlp-in-${vendor}`, home: opts.home, posture: opts.posture,
    ...(opts.relay ? { relay: opts.relay } : {}), ...(opts.token ? { token: opts.token } : {}),
    emits: mode === 'primary' ? ['session', 'tool', `x.${vendor}`] : [`x.${vendor}`], log,
  });
  let receiver;
  try {
    receiver = await startReceiver({ profile, mode, ceiling: opts.posture.ceiling, emitter, port: opts.port, limits, log });
  } catch (err) {
    await emitter.close();
    const code = (err as NodeJS.ErrnoException).code;
    io.stderr(`aep bridge otlp-in: cannot start: ${code === 'EADDRINUSE' ? `port ${opts.port} is in use (set --port or ${descriptor.portEnv})` : (err as Error).message}\n`);
    return EXIT.failed;
  }
  log(`listening on ${receiver.url}/v1/logs (vendor ${vendor}, ${mode} mode, epoch ${emitter.epoch}); relay ${opts.relay ?? 'disabled'}${opts.token ? ' (token set)' : ''}`);
  const signal = await io.stopSignal;
  log(`${signal}, stopping`);
  await receiver.close();
  await emitter.close();
  return EXIT.ok;
}
