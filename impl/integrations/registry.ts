/**
 * The one registry of integrations: every adapter and bridge, built from the descriptors
 * (`impl/<adapters|bridges>/<name>/descriptor.ts`, listed in the generated `list.ts`).
 * The CLI tables and help (`aep adapter`, `aep bridge`, `aep hook`), `aep setup`, `aep doctor`,
 * the conformance runners and ci.sh read it; nothing else names a port, a port variable or a
 * neutral reply (impl/integrations-literals.test.ts scans for copies).
 *
 * A low floor: it imports descriptors and types only, does no I/O at import and has no
 * top-level await, so it is safe to `require` and cheap to load. The adapters and bridge
 * runners themselves are loaded lazily, by {@link Integration.load}.
 */
import type { DaemonNeeds, Descriptor, EnvVar, IntegrationKind, IntegrationRole, PostureLeg, SettingsLocation } from './descriptor.js';
import * as LIST from './list.js';
import type { BridgeMappers, SourceMappers } from './mappers.js';

export type { IntegrationKind, IntegrationRole } from './descriptor.js';

/** The collector/relay's default port and its variable (`aep relay`, `aep setup up relay`). */
export const RELAY_PORT = 8787;
export const RELAY_PORT_ENV = 'AEP_PORT';
/** The relay every client links to when neither a flag nor {@link RELAY_URL_ENV} names one. */
export const DEFAULT_RELAY_URL = `http://127.0.0.1:${RELAY_PORT}`;
/** The one name of the relay URL variable; {@link RELAY_URL_ALIAS} is read with a deprecation notice. */
export const RELAY_URL_ENV = 'AEP_RELAY_URL';
export const RELAY_URL_ALIAS = 'AEP_RELAY';
/** The web console (impl/console): its default port and variable. */
export const CONSOLE_PORT = 8790;
export const CONSOLE_PORT_ENV = 'AEP_CONSOLE_PORT';

/** Variables every adapter (and, where said, every inbound bridge) reads. */
export const COMMON_ENV: readonly EnvVar[] = [
  { name: 'AEP_HOME', summary: 'state file, session logs and pid files (default ~/.aep)' },
  { name: 'AEP_TOKEN', summary: 'the relay bearer token (the same value everywhere; required for commands)' },
  { name: RELAY_URL_ENV, summary: `the relay base URL (default ${DEFAULT_RELAY_URL}; 'none' disables the link)` },
  { name: RELAY_URL_ALIAS, summary: `deprecated spelling of ${RELAY_URL_ENV}, still read (with a notice) when ${RELAY_URL_ENV} is unset` },
  { name: 'AEP_CAPTURE', summary: 'capture ceiling: none|metadata|redacted|full (default metadata)' },
  { name: 'AEP_CAPTURE_ATTENTION', summary: 'ceiling for attention.* (default redacted, or AEP_CAPTURE when higher)' },
  { name: 'AEP_ATTENTION_TIMEOUT_MS', summary: "adapters: how long a held hook waits for an answer (default: the adapter's)" },
  { name: 'AEP_LINK_GRACE_MS', summary: 'adapters: how long a hook held while the relay link is down waits for the link before the neutral reply (default 10000; 0: at once)' },
  { name: 'AEP_INSTRUCT', summary: 'adapters: 1 accepts x.<name>.control.instruct steering; 0 or unset refuses it' },
  { name: 'AEP_ADAPTER_PORT', summary: 'adapters: the port when AEP_<NAME>_PORT is unset' },
  { name: 'AEP_DEBUG', summary: "aep hook: 1 also says when no daemon is running" },
];

export interface Integration {
  /** The descriptor's name (the AEP agent of an adapter). */
  name: string;
  /** The argument of `aep adapter <command>` / `aep bridge <command>` / `aep setup up <command>`: the name itself (one name per integration). */
  command: string;
  /** Earlier names still read, with a notice (the descriptor's `aliases`). */
  aliases: readonly string[];
  /** `adapter` or `bridge`. */
  kind: IntegrationKind;
  /** What it does: `hook-adapter`, `plugin-adapter`, `inbound-bridge` or `outbound-sidecar`. */
  role: IntegrationRole;
  /** Its folder under impl/. */
  dir: string;
  /** Default loopback port (0: listens on nothing). */
  port: number;
  /** The variable that moves the port ('' when it listens on nothing). */
  portEnv: string;
  /** Adapters: the neutral reply (see {@link neutralReply}). */
  neutral?: { reply: string; byHook?: Readonly<Record<string, string>>; reads: 'json' | 'bytes' };
  /** Opt-in legs: each one's variables and what it does. */
  legs: readonly PostureLeg[];
  /** Example configuration files, relative to the package root. */
  configs: readonly string[];
  /** Every variable this integration reads beyond {@link COMMON_ENV}: port, hold window, legs. */
  env: readonly EnvVar[];
  /** Hook adapters: where the vendor reads its hook settings. */
  settings?: SettingsLocation;
  /** Runs under `aep setup up` (every adapter; inbound bridges that are daemons). */
  daemon: boolean;
  /** What `aep setup up` needs before it can start it (a vendor server URL). */
  needs?: DaemonNeeds;
  descriptor: Descriptor;
  /** Loads the adapter definition (adapters) or the `aep bridge` runner (inbound bridges). */
  load(): Promise<unknown>;
  /**
   * Adapters: loads the definition the offline control-loop scenarios drive: `<dir>/adapter.js`'s
   * `scenarioAdapter` when the folder exports one (a posture with its opt-in gate on, a recording
   * vendor client), else its `adapter`; bridges: undefined.
   */
  scenarioAdapter(): Promise<unknown>;
  /** Adapters: loads `<dir>/mappers.js`'s `mappers`, the pure mappers the conformance families call; bridges: undefined. */
  mappers(): Promise<SourceMappers | undefined>;
  /** Bridges with a corpus (descriptor `corpus`): loads `<dir>/mappers.js`'s `mappers`, the members of the bridges family's mappers it gives; others: undefined. */
  bridgeMappers(): Promise<Partial<BridgeMappers> | undefined>;
}

/** `claude-code` → `AEP_CLAUDE_CODE_HOLD_MS`. */
export function holdEnvOf(agent: string): string {
  return `AEP_${agent.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_HOLD_MS`;
}

/** `impl/` as a URL; the loaders resolve their modules against it. */
const IMPL = new URL('../', import.meta.url);
/** `.ts` under vitest (sources), `.js` from dist/. */
const EXT = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const inImpl = (module: string): string => new URL(module.replace(/\.js$/, EXT), IMPL).href;

function build(d: Descriptor, dir: string): Integration {
  const adapter = d.kind === 'adapter';
  const env: EnvVar[] = [];
  if (d.portEnv) env.push({ name: d.portEnv, summary: `${d.name}: the listen port (default ${d.port})` });
  if (adapter) env.push({ name: holdEnvOf(d.name), summary: `${d.name}: the hold window in ms (wins over AEP_ATTENTION_TIMEOUT_MS)` });
  env.push(...d.env);
  const load = adapter
    ? async (): Promise<unknown> => ((await import(inImpl(`${dir}/adapter.js`))) as { adapter: unknown }).adapter
    : async (): Promise<unknown> => {
        if (!d.entry) throw new Error(`${d.name}: its descriptor names no entry module (outbound sidecars run inside 'aep bridge')`);
        const mod = (await import(inImpl(d.entry.module))) as Record<string, unknown>;
        const exported = mod[d.entry.export];
        if (typeof exported !== 'function') throw new Error(`${d.entry.module} has no function export '${d.entry.export}'`);
        return d.entry.arg === undefined ? exported : (exported as (arg: string) => unknown)(d.entry.arg);
      };
  return {
    name: d.name,
    command: d.name,
    aliases: d.aliases ?? [],
    kind: d.kind,
    role: d.role,
    dir,
    port: d.port,
    portEnv: d.portEnv,
    ...(d.neutral ? { neutral: d.neutral } : {}),
    legs: d.postures.filter((p) => p.name !== 'default'),
    configs: d.configs,
    env,
    ...(d.settings ? { settings: d.settings } : {}),
    daemon: adapter || d.daemon !== undefined,
    ...(d.daemon?.needs ? { needs: d.daemon.needs } : {}),
    descriptor: d,
    load,
    scenarioAdapter: adapter
      ? async () => {
          const mod = (await import(inImpl(`${dir}/adapter.js`))) as { adapter: unknown; scenarioAdapter?: unknown };
          return mod.scenarioAdapter ?? mod.adapter;
        }
      : async () => undefined,
    mappers: adapter ? async () => ((await import(inImpl(`${dir}/mappers.js`))) as { mappers: SourceMappers }).mappers : async () => undefined,
    bridgeMappers: !adapter && d.corpus ? async () => ((await import(inImpl(`${dir}/mappers.js`))) as { mappers: Partial<BridgeMappers> }).mappers : async () => undefined,
  };
}

/** An integration's folder under impl/: `adapters/<name>` or `bridges/<name>` (one name per integration: the folder is the name). */
export const dirOf = (d: Pick<Descriptor, 'kind' | 'name'>): string => `${d.kind}s/${d.name}`;

/** The descriptors of `list.ts` (one line per folder) in registry order: adapters first, then bridges, each sorted by folder (gen.ts `integrationDirs`). */
export function ordered(descriptors: readonly Descriptor[]): Descriptor[] {
  const rank = (d: Descriptor): number => (d.kind === 'adapter' ? 0 : 1);
  return [...descriptors].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

/** Every integration: adapters first, then bridges, each sorted by folder. */
export const INTEGRATIONS: readonly Integration[] = ordered(Object.values(LIST) as Descriptor[]).map((d) => build(d, dirOf(d)));

export const ADAPTER_INTEGRATIONS: readonly Integration[] = INTEGRATIONS.filter((i) => i.kind === 'adapter');
export const BRIDGE_INTEGRATIONS: readonly Integration[] = INTEGRATIONS.filter((i) => i.kind === 'bridge');
/** Everything `aep setup up` can run besides the relay. */
export const DAEMON_INTEGRATIONS: readonly Integration[] = INTEGRATIONS.filter((i) => i.daemon);

/**
 * Each adapter in the posture where it answers `control.attention.respond`: `name` when its
 * default does, `name:VAR=1` when one opt-in variable switches that leg on; adapters whose
 * answerable leg needs more (a hub URL and token) are left out. ci.sh runs its live control
 * checks over this list.
 */
export function answerableEntries(): string[] {
  const out: string[] = [];
  for (const i of ADAPTER_INTEGRATIONS) {
    const answers = (p: PostureLeg): boolean => (p.accepts ?? []).includes('control.attention.respond');
    const dflt = i.descriptor.postures.find((p) => p.name === 'default');
    if (dflt && answers(dflt)) {
      out.push(i.command);
      continue;
    }
    const leg = i.legs.find((p) => answers(p) && Object.keys(p.env).length === 1 && Object.values(p.env)[0] === '1');
    if (leg) out.push(`${i.command}:${Object.keys(leg.env)[0]}=1`);
  }
  return out;
}

/** An adapter by its agent name. */
export function adapterNamed(name: string): Integration | undefined {
  return ADAPTER_INTEGRATIONS.find((i) => i.command === name);
}

/** A bridge by its `aep bridge` name. */
export function bridgeNamed(command: string): Integration | undefined {
  return BRIDGE_INTEGRATIONS.find((i) => i.command === command);
}

/**
 * The one name of an integration a user typed by an earlier name (a descriptor's `aliases`),
 * with the one-line notice to print; undefined for a name that is no alias.
 */
export function aliasOf(typed: string | undefined): { name: string; notice: string } | undefined {
  if (typed === undefined) return undefined;
  const i = INTEGRATIONS.find((x) => x.aliases.includes(typed));
  return i ? { name: i.name, notice: renamedNotice(typed, i.name) } : undefined;
}

/** The one-line notice for an earlier name read as today's (`readAs`: what it was read as, default the name). */
export function renamedNotice(typed: string, name: string, readAs: string = name): string {
  return `'${typed}' is now '${name}' (one name per integration): read as ${readAs}`;
}

/** Every earlier name (a descriptor's `aliases`) mapped to the integration's one name today. */
export function earlierNames(): Readonly<Record<string, string>> {
  return Object.fromEntries(INTEGRATIONS.flatMap((i) => i.aliases.map((a) => [a, i.name] as const)));
}

/** The neutral stdout of one hook of one adapter ('' for an integration with none). */
export function neutralReply(i: Pick<Integration, 'neutral'>, hookEvent: string | undefined): string {
  const n = i.neutral;
  if (!n) return '';
  return hookEvent !== undefined && n.byHook !== undefined && Object.hasOwn(n.byHook, hookEvent) ? n.byHook[hookEvent]! : n.reply;
}

/** The vendor's hook settings file here: `$dirEnv/file` when set, else `<home>/<homeDir>/file`. */
export function settingsPath(s: SettingsLocation, env: Record<string, string | undefined>, home: string): string {
  const base = s.dirEnv !== undefined && env[s.dirEnv] ? env[s.dirEnv]! : `${env.HOME ?? home}/${s.homeDir}`;
  return `${base.replace(/\/+$/, '')}/${s.file}`;
}

/** Every documented variable, once: the common ones, then each integration's. */
export function documentedEnv(): EnvVar[] {
  const seen = new Set<string>();
  const out: EnvVar[] = [];
  for (const v of [{ name: RELAY_PORT_ENV, summary: `the relay's port (default ${RELAY_PORT})` }, { name: CONSOLE_PORT_ENV, summary: `the web console's port (default ${CONSOLE_PORT})` }, ...COMMON_ENV, ...INTEGRATIONS.flatMap((i) => i.env)]) {
    if (seen.has(v.name)) continue;
    seen.add(v.name);
    out.push(v);
  }
  return out;
}

/**
 * The relay URL from the environment: {@link RELAY_URL_ENV}, else the deprecated
 * {@link RELAY_URL_ALIAS} (with a one-line notice for stderr), else undefined.
 */
export function relayUrlFromEnv(env: Record<string, string | undefined>): { url?: string; notice?: string } {
  const canonical = env[RELAY_URL_ENV];
  if (canonical) return { url: canonical };
  const alias = env[RELAY_URL_ALIAS];
  if (alias) return { url: alias, notice: `${RELAY_URL_ALIAS} is deprecated: set ${RELAY_URL_ENV} instead (read ${RELAY_URL_ALIAS}=${alias} this time)` };
  return {};
}
