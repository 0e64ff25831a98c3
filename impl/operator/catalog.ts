/**
 * The managed daemons, one catalog shared by `aep setup` (brings them up and down) and
 * `aep doctor` (checks them): id, default port, the `aep` arguments that run it, and where its
 * pid file and log live under $AEP_HOME/run/. Pure; require-safe (no I/O at import).
 */
import { join } from 'node:path';

export interface DaemonSpec {
  id: string;
  /** Default loopback port. */
  port: number;
  /** The env variable that overrides the port. */
  portEnv: string;
  describe: string;
  /** `aep` argv that runs it on `port`. */
  args(port: number, relay: string): string[];
}

export const CATALOG: readonly DaemonSpec[] = [
  { id: 'relay', port: 8787, portEnv: 'AEP_PORT', describe: 'the collector/relay', args: (port) => ['relay', '--port', String(port)] },
  { id: 'claude-code', port: 8377, portEnv: 'AEP_CLAUDE_CODE_PORT', describe: 'the Claude Code adapter daemon', args: (port, relay) => ['adapter', 'claude-code', '--port', String(port), '--relay', relay] },
  { id: 'codex', port: 8378, portEnv: 'AEP_CODEX_PORT', describe: 'the Codex adapter daemon', args: (port, relay) => ['adapter', 'codex', '--port', String(port), '--relay', relay] },
];

export function daemonSpec(id: string): DaemonSpec | undefined {
  return CATALOG.find((d) => d.id === id);
}

/** The port a daemon uses here: its env override, else the catalog default. */
export function daemonPort(d: DaemonSpec, env: NodeJS.ProcessEnv): number {
  const v = env[d.portEnv];
  const n = v === undefined ? NaN : Number(v);
  return Number.isInteger(n) && n > 0 && n < 65536 ? n : d.port;
}

export const runDir = (home: string): string => join(home, 'run');
export const pidFile = (home: string, id: string): string => join(runDir(home), `${id}.pid`);
export const logFile = (home: string, id: string): string => join(runDir(home), `${id}.log`);
