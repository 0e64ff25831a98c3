/** Where the operator's files live: `AEP_HOME` (default ~/.aep), pure given the environment. */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export function aepHome(env: NodeJS.ProcessEnv, cwd: string): string {
  return env.AEP_HOME ? resolve(cwd, env.AEP_HOME) : join(homedir(), '.aep');
}
