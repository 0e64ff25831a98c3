/**
 * `aep bridge acp [--relay URL] [--token T] -- <agent> [args...]`: the ACP stdio tee. Put this
 * whole command line where the editor expects the agent command. Uses the real process
 * stdin/stdout (the protocol channel); diagnostics go to stderr only when AEP_ACP_LOG=1.
 * AEP_ACP_DELTAS=1 opts message/thought chunks in (pair with AEP_CAPTURE=redacted for content).
 */
import { UsageError, type CliIo } from '../../contract/cli.js';
import type { BridgeArgs } from '../../contract/cli.js';
import { createEmitter, type Emitter } from '../../bridge-kit/emitter.js';
import { inboundOptions } from '../../bridge-kit/options.js';
import { AcpObserver } from './observer.js';
import { runTee } from './tee.js';
import { AGENT } from './map-frames.js';
import { descriptor } from './descriptor.js';

export const DEFAULT_PORT = descriptor.port;

export async function run({ values, rest }: BridgeArgs, io: CliIo): Promise<number> {
  if (rest.length === 0) throw new UsageError('give the real agent command after --, e.g. aep bridge acp -- codex-acp');
  const opts = inboundOptions(values, io.env, DEFAULT_PORT, descriptor.portEnv);
  if (typeof opts === 'string') throw new UsageError(opts);
  const verbose = io.env.AEP_ACP_LOG === '1';
  const log = (line: string): void => {
    if (verbose) io.stderr(`aep bridge acp: ${line}\n`);
  };
  let emitter: Emitter | null = null;
  try {
    emitter = createEmitter({
      agent: io.env.AEP_AGENT_NAME || AGENT, stateKey: 'bridge-acp', home: opts.home, posture: opts.posture,
      ...(opts.relay ? { relay: opts.relay } : {}), ...(opts.token ? { token: opts.token } : {}),
      emits: ['session', 'run', 'tool', 'attention', 'x.acp'], log,
    });
  } catch (err) {
    log(`observation disabled: ${(err as Error).message}`); // the session runs regardless
  }
  const observer = emitter ? new AcpObserver((s, m, e) => emitter!.emit(s, m, e), { epoch: emitter.epoch, deltas: io.env.AEP_ACP_DELTAS === '1', ceiling: opts.posture.ceiling }) : null;
  const code = await runTee({ argv: rest, stdin: process.stdin, stdout: process.stdout, observer, env: process.env, cwd: io.cwd, stopSignal: io.stopSignal });
  process.stdin.destroy(); // nothing more to forward; let the process exit
  await emitter?.close().catch(() => undefined);
  return code;
}
