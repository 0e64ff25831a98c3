/**
 * `AdapterDef.configure` from two pure parts: reading a vendor's opt-in variables into options (or
 * the error naming the variable to fix) and creating a fresh adapter from those options. Every
 * adapter with opt-in legs is configured this one way, wherever a daemon starts.
 */
import type { AdapterDef } from './types.js';

export type Env = Record<string, string | undefined>;

export function configureFrom<O>(read: (env: Env) => O | string, create: (options: O) => AdapterDef): NonNullable<AdapterDef['configure']> {
  return (env) => {
    const options = read(env);
    return typeof options === 'string' ? options : create(options);
  };
}

/** `def` configured from `env` the way every daemon start does it: a fresh instance, or the error naming the variable. */
export function configureDef(def: AdapterDef, env: Env): AdapterDef | string {
  return def.configure ? def.configure(env) : def;
}
