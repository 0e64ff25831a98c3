/**
 * `aep bridge kimi-web`: observe the kap-server behind `kimi web` until SIGINT/SIGTERM.
 * `--server URL` (AEP_KIMI_WEB_SERVER; required: the kap-server's host and port are chosen at
 * start), the bearer token AEP_KIMI_WEB_TOKEN or else `<KIMI_CODE_HOME>/server.token` (default
 * home `~/.kimi-code`), AEP_KIMI_WEB_SESSIONS (comma list; default discover over REST),
 * `--primary` (AEP_KIMI_WEB_MODE=primary; default companion), healthz on its descriptor's port (and variable).
 * The opt-in gate AEP_KIMI_WEB_CONTROL=1 (primary mode only; refused in companion mode) adds the
 * approval and abort writes (control.ts), with AEP_KIMI_WEB_ACK_GUARD_MS (default 8000).
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { EXIT, UsageError, type CliIo } from '../../contract/cli.js';
import type { BridgeArgs } from '../../contract/cli.js';
import { createEmitter } from '../../bridge-kit/emitter.js';
import { inboundOptions } from '../../bridge-kit/options.js';
import { AGENT } from './mode-policy.js';
import { DEFAULT_PORT, startKimiWeb, type RunningKimiWeb } from './attach.js';
import { CONTROL_ACCEPTS, KimiControlGate } from './control.js';
import { descriptor } from './descriptor.js';

/** The kap-server bearer token: the env value, else the server.token file, else an error string. */
export function kapToken(env: Record<string, string | undefined>): string | { error: string } {
  if (env.AEP_KIMI_WEB_TOKEN) return env.AEP_KIMI_WEB_TOKEN;
  const file = join(env.KIMI_CODE_HOME || join(homedir(), '.kimi-code'), 'server.token');
  try {
    const token = readFileSync(file, 'utf8').trim();
    if (token !== '') return token;
    return { error: `${file} is empty; start 'kimi web' first or set AEP_KIMI_WEB_TOKEN` };
  } catch {
    return { error: `cannot read ${file}; start 'kimi web' first, point KIMI_CODE_HOME at its home, or set AEP_KIMI_WEB_TOKEN` };
  }
}

export async function run({ values, rest }: BridgeArgs, io: CliIo): Promise<number> {
  if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'`);
  const server = values.server ?? io.env.AEP_KIMI_WEB_SERVER;
  if (typeof server !== 'string' || server === '') throw new UsageError("--server is required: the kap-server URL that 'kimi web' printed, such as http://127.0.0.1:<port> (or AEP_KIMI_WEB_SERVER)");
  try {
    new URL(server);
  } catch {
    throw new UsageError(`--server must be the kap-server URL, got '${server}'`);
  }
  const opts = inboundOptions(values, io.env, DEFAULT_PORT, descriptor.portEnv);
  if (typeof opts === 'string') throw new UsageError(opts);
  const token = kapToken(io.env);
  if (typeof token !== 'string') throw new UsageError(token.error);
  const sessions = (io.env.AEP_KIMI_WEB_SESSIONS ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  const mode = values.primary === true || io.env.AEP_KIMI_WEB_MODE === 'primary' ? 'primary' : 'companion';
  const gated = io.env.AEP_KIMI_WEB_CONTROL === '1';
  if (gated && mode !== 'primary') throw new UsageError('AEP_KIMI_WEB_CONTROL=1 is honored in primary mode only (companion mode leaves the answer surface to the hook adapter and the web UI); add --primary or unset it');
  const guard = io.env.AEP_KIMI_WEB_ACK_GUARD_MS;
  if (guard !== undefined && !/^[0-9]+$/.test(guard)) throw new UsageError(`AEP_KIMI_WEB_ACK_GUARD_MS must be a number of milliseconds, got '${guard}'`);
  const log = (line: string): void => io.stderr(`aep bridge kimi-web: ${line}\n`);
  let bridgeRef: RunningKimiWeb | undefined;
  let gate: KimiControlGate | undefined;
  const emitter = createEmitter({
    ...(gated ? { accepts: CONTROL_ACCEPTS, onCommand: (raw: string, v: Record<string, unknown>) => gate?.onCommand(raw, v) } : {}),
    agent: AGENT, stateKey: 'bridge-kimi-code-web', home: opts.home, posture: opts.posture,
    ...(opts.relay ? { relay: opts.relay } : {}), ...(opts.token ? { token: opts.token } : {}),
    emits: mode === 'primary' ? ['run', 'tool', 'attention', 'x.kimi-code'] : ['x.kimi-code'], log,
  });
  if (gated) gate = new KimiControlGate({ server, token, emitter, posture: opts.posture, runOf: (s) => bridgeRef?.runOf(s), ...(guard ? { guardMs: Number(guard) } : {}), log });
  let bridge;
  try {
    bridge = await startKimiWeb({ server, token, mode, emitter, sessions, port: opts.port, log, ...(gate ? { control: gate } : {}) });
    bridgeRef = bridge;
  } catch (err) {
    await emitter.close();
    io.stderr(`aep bridge kimi-web: cannot start: ${(err as Error).message}\n`);
    return EXIT.failed;
  }
  log(`observing ${server}/api/v1/ws (${mode} mode, control ${gated ? 'on' : 'off'}, epoch ${emitter.epoch}); healthz ${bridge.url}/healthz; relay ${opts.relay ?? 'disabled'}`);
  const signal = await io.stopSignal;
  log(`${signal}, stopping`);
  await bridge.close();
  await emitter.close();
  return EXIT.ok;
}
