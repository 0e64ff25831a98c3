/**
 * What an adapter's hello declares, obtained from the real adapter definition: the definition the
 * registry loads (impl/integrations/registry.ts), configured from a posture's variables, and the engine
 * every daemon builds from it (the daemon's hello carries `engine.accepts`, and no `control` block
 * for an observe-only adapter). hello-facts.test.ts checks this against a real daemon's hello.
 */
import { adapterNamed } from '../../impl/integrations/registry.js';
import type { AdapterDef } from '../../impl/adapter-kit/types.js';
import { DEFAULT_POSTURE } from '../../impl/adapter-kit/capture.js';
import { createEngine } from '../../impl/adapter-kit/engine.js';
import { configureDef } from '../../impl/adapter-kit/configure.js';

export interface HelloFacts {
  /** hello `capabilities.control.accepts`; null when the hello has no `control` block. */
  accepts: string[] | null;
  /** hello `capabilities.emits`. */
  emits: string[];
  /** The daemon's default port. */
  port: number;
}

/** The hello of adapter `name` started with `env` (steering on when `instruct`). Throws for an unknown adapter or a refused env. */
export async function helloFacts(name: string, env: Readonly<Record<string, string>>, instruct: boolean): Promise<HelloFacts> {
  const entry = adapterNamed(name);
  if (!entry) throw new Error(`no adapter '${name}' in the registry (impl/integrations/registry.ts)`);
  const def = configureDef((await entry.load()) as AdapterDef, { ...env });
  if (typeof def === 'string') throw new Error(`the ${name} adapter refuses env ${JSON.stringify(env)}: ${def}`);
  const engine = createEngine(def, { posture: DEFAULT_POSTURE, timeoutMs: 1000, instruct, host: 'hello-facts', epoch: 0, send: () => {}, log: () => {} });
  engine.dismissAll();
  return { accepts: def.observeOnly ? null : [...engine.accepts], emits: [...def.emits], port: def.defaultPort };
}
