/**
 * The vendors `aep setup hooks` can wire, pure: every adapter whose descriptor lists an example
 * hook configuration in a format we can merge (JSON, YAML, TOML, a folder of hook scripts), the
 * file the vendor reads it from (the descriptor's `settings` where it has one), and the port
 * variable. The descriptors are read through `hookDescriptors()` only, so the source of that
 * list can change in one place.
 */
import { homedir } from 'node:os';
import { join, normalize } from 'node:path';
import type { Descriptor } from '../../integrations/descriptor.js';
import { ADAPTER_INTEGRATIONS, settingsPath } from '../../integrations/registry.js';

/**
 * The order `aep setup hooks` has always listed its vendors in (its help and its messages name
 * them in this order). It orders, it does not select: every adapter of the registry is read, and
 * one not named here follows these, in registry order.
 */
const LISTED_FIRST: readonly string[] = ['claude-code', 'codex', 'gemini-cli', 'qwen-code', 'vscode', 'antigravity', 'cline', 'hermes', 'kimi-code', 'opencode', 'kilocode', 'pi'];

/** The adapters' descriptors, from the registry (the one place this list comes from). */
export function hookDescriptors(): readonly Descriptor[] {
  const rank = (d: Descriptor): number => {
    const at = LISTED_FIRST.indexOf(d.name);
    return at === -1 ? LISTED_FIRST.length : at;
  };
  return ADAPTER_INTEGRATIONS.map((i) => i.descriptor).sort((a, b) => rank(a) - rank(b));
}

export type Format = 'json' | 'yaml' | 'toml' | 'dir';

export interface HookVendor {
  name: string;
  vendor: string;
  port: number;
  /** `AEP_<NAME>_PORT`. */
  portEnv: string;
  /** The example configuration, relative to the package root. */
  example: string;
  format: Format;
  /** The file (or folder, for `dir`) the vendor reads. */
  target(env: NodeJS.ProcessEnv, cwd: string): string;
  /** What the user does next. */
  note: string;
}

export function formatOf(config: string): Format | undefined {
  if (config.endsWith('/')) return 'dir';
  if (config.endsWith('.json')) return 'json';
  if (config.endsWith('.yaml') || config.endsWith('.yml')) return 'yaml';
  if (config.endsWith('.toml')) return 'toml';
  return undefined; // a plugin file (.js) is installed, not merged
}

type Env = NodeJS.ProcessEnv;
const home = (env: Env): string => env.HOME ?? homedir();
const nonEmpty = (v: string | undefined): string | undefined => (v !== undefined && v !== '' ? v : undefined);

/**
 * Where the vendors whose descriptors carry no `settings` location read their hooks: a file under
 * the workspace (VS Code), a folder of scripts (Cline), a deeper folder or another home variable.
 * Every other vendor's file comes from its descriptor's `settings` (read with the registry's
 * `settingsPath`), so it is written in one place.
 */
const TARGETS: Readonly<Record<string, { target: (env: Env, cwd: string) => string; note: string }>> = {
  vscode: { target: (_env, cwd) => join(cwd, '.github', 'hooks', 'aep.json'), note: "VS Code reads the workspace's .github/hooks/ (run this in the workspace, or pass --file)" },
  antigravity: { target: (env) => join(home(env), '.gemini', 'config', 'hooks.json'), note: "Antigravity reads it at start (a workspace's .agents/hooks.json works too: pass --file)" },
  cline: { target: (env) => join(home(env), '.cline', 'hooks'), note: "Cline runs the scripts of that folder (a workspace's .cline/hooks/ works too: pass --file)" },
  hermes: { target: (env) => join(home(env), '.hermes', 'config.yaml'), note: 'Hermes reads it at start' },
  'kimi-code': { target: (env) => join(nonEmpty(env.KIMI_CODE_HOME) ?? join(home(env), '.kimi-code'), 'config.toml'), note: 'Kimi Code reads it at start' },
};

/** Where `d`'s vendor reads its hooks: its descriptor's `settings`, else the table above. */
function whereOf(d: Descriptor): { target: (env: Env, cwd: string) => string; note: string } | undefined {
  const s = d.settings;
  if (s === undefined) return TARGETS[d.name];
  return { target: (env) => normalize(settingsPath(s, env, homedir())), note: s.note };
}

/** The variable that moves an adapter's port, as its descriptor (the registry's source) names it. */
export const portEnvOf = (d: Descriptor): string => d.portEnv;

/** Every vendor `setup hooks` wires, in descriptor order. */
export function hookVendors(descriptors: readonly Descriptor[] = hookDescriptors()): HookVendor[] {
  const out: HookVendor[] = [];
  for (const d of descriptors) {
    if (d.kind !== 'adapter' || d.port === undefined) continue;
    const example = d.configs.find((c) => formatOf(c) !== undefined);
    const where = whereOf(d);
    if (example === undefined || where === undefined) continue;
    out.push({ name: d.name, vendor: d.vendor, port: d.port, portEnv: portEnvOf(d), example, format: formatOf(example)!, target: where.target, note: where.note });
  }
  return out;
}

/** The adapters with an example configuration that is not a hook file (a plugin to install), by name. */
export function pluginOnly(descriptors: readonly Descriptor[] = hookDescriptors()): Map<string, string> {
  const m = new Map<string, string>();
  for (const d of descriptors) if (d.kind === 'adapter' && d.configs.length > 0 && d.configs.every((c) => formatOf(c) === undefined)) m.set(d.name, d.configs[0]!);
  return m;
}
