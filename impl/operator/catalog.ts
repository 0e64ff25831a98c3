/**
 * The managed daemons, one catalog shared by `aep setup` (brings them up and down) and
 * `aep doctor` (checks them), built from the registry (impl/integrations/registry.ts): the relay, every
 * adapter and every inbound bridge that runs as a daemon. Per daemon: id, default port and its
 * variable, the `aep` arguments that run it, what it needs before it can start, and where its
 * pid file and log live under $AEP_HOME/run/. Pure; require-safe (no I/O at import).
 */
import { join } from 'node:path';
import { DAEMON_INTEGRATIONS, RELAY_PORT, RELAY_PORT_ENV, type IntegrationKind } from '../integrations/registry.js';
import type { DaemonNeeds } from '../integrations/descriptor.js';

export interface DaemonSpec {
  id: string;
  kind: 'relay' | IntegrationKind;
  /** Default loopback port. */
  port: number;
  /** The env variable that overrides the port. */
  portEnv: string;
  describe: string;
  /** A vendor URL it cannot start without: the flag of its own verb and the variable. */
  needs?: DaemonNeeds;
  /** `aep` argv that runs it on `port` (`need`: the value of `needs`, when it has one). */
  args(port: number, relay: string, need?: string): string[];
}

const RELAY: DaemonSpec = { id: 'relay', kind: 'relay', port: RELAY_PORT, portEnv: RELAY_PORT_ENV, describe: 'the collector/relay', args: (port) => ['relay', '--port', String(port)] };

export const CATALOG: readonly DaemonSpec[] = [
  RELAY,
  ...DAEMON_INTEGRATIONS.map((i): DaemonSpec => {
    return {
      id: i.command,
      kind: i.kind,
      port: i.port,
      portEnv: i.portEnv,
      describe: `the ${i.descriptor.vendor} ${i.kind} daemon`,
      ...(i.needs ? { needs: i.needs } : {}),
      args: (port, relay, need) => [i.kind, i.command, '--port', String(port), '--relay', relay, ...(i.needs && need !== undefined ? [i.needs.flag, need] : [])],
    };
  }),
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

/**
 * The spec bound to what it needs: the flag's value, else its variable; an error string naming
 * both when neither is given.
 */
export function withNeeds(d: DaemonSpec, flag: string | undefined, env: NodeJS.ProcessEnv): DaemonSpec | string {
  if (!d.needs) return d;
  const value = flag ?? env[d.needs.env];
  if (!value) return `${d.id} needs ${d.needs.what}: pass --server URL to 'aep setup up ${d.id}' or set ${d.needs.env}`;
  return { ...d, args: (port, relay) => d.args(port, relay, value) };
}

export const runDir = (home: string): string => join(home, 'run');
export const pidFile = (home: string, id: string): string => join(runDir(home), `${id}.pid`);
export const logFile = (home: string, id: string): string => join(runDir(home), `${id}.log`);
