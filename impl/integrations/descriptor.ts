/**
 * What an adapter or bridge declares about itself, in one data file per integration
 * (`impl/adapters/<name>/descriptor.ts`, `impl/bridges/<name>/descriptor.ts`, exporting
 * `descriptor`). The feature matrix, the control and interaction matrix, the README's adapter
 * table and the certification pages are generated from these (runners/conformance/matrices.ts),
 * and a test holds every claim that the code can answer (hello `control.accepts` per posture,
 * `capabilities.emits`, the port, steering) against the real adapter definition.
 */

export type DescriptorClass = 'Emitter' | 'Consumer' | 'Collector/relay' | 'Control-capable';

/** One control posture: the default, or an opt-in leg switched on by environment variables. */
export interface PostureLeg {
  /** `default`, or a short name of the leg (`gate`, `hub control`). */
  name: string;
  /** The variables that turn the leg on (empty for the default). */
  env: Readonly<Record<string, string>>;
  /** What the leg does, in one line. */
  summary: string;
  /**
   * hello `control.accepts` in this posture with steering off (`AEP_INSTRUCT` unset);
   * `null` when the hello carries no `control` block at all (observe-only).
   */
  accepts: readonly string[] | null;
}

/** One row of an integration's deviations table. */
export interface Deviation {
  /** The field, value or behaviour concerned (`data.tool.name of a shell call`, `run identity`). */
  what: string;
  /** What the design record (or Annex A) says, with where: `adapter-pi-design.md §3: ...`; `none` for kind 'unnamed'. */
  record: string;
  /** What this integration does instead (or the name it chose). */
  ours: string;
  /** Why. */
  why: string;
  /** `deviation`: a deliberate departure from the record; `unnamed`: a name we chose where the record gives none. */
  kind: 'deviation' | 'unnamed';
}

/** An integration's kind: an adapter (a vendor's hooks or plugin) or a bridge (a protocol, in or out). */
export type IntegrationKind = 'adapter' | 'bridge';

/**
 * What an integration does, a finer cut than its kind, as `aep setup`, the shim and the CLI
 * tables need to know: `hook-adapter` and `plugin-adapter` are adapters, `inbound-bridge` and
 * `outbound-sidecar` bridges ({@link kindOfRole}).
 */
export type IntegrationRole = 'hook-adapter' | 'plugin-adapter' | 'inbound-bridge' | 'outbound-sidecar';

/** The kind a role belongs to. */
export function kindOfRole(role: IntegrationRole): IntegrationKind {
  return role === 'hook-adapter' || role === 'plugin-adapter' ? 'adapter' : 'bridge';
}

/** One environment variable an integration reads (beyond the common ones in impl/integrations/registry.ts). */
export interface EnvVar {
  name: string;
  /** What it does, in one line (the help texts and the README tables read it). */
  summary: string;
}

/** Where a hook vendor reads its hook settings: `$<dirEnv>` when set, else `~/<homeDir>`, then `file`. */
export interface SettingsLocation {
  dirEnv?: string;
  /** The folder under the user's home, e.g. `.claude`. */
  homeDir: string;
  file: string;
  /** What the user still has to do after the file is written (trust prompts, restarts). */
  note: string;
}

/** How a bridge's runner is loaded: `(await import(<impl>/<module>))[export]`, called with `arg` when given. */
export interface BridgeEntry {
  /** Relative to impl/, with the `.js` suffix, e.g. `bridges/otlp-in/cli.js`. */
  module: string;
  export: string;
  /** When the export is a factory of runners (one module serving two vendors). */
  arg?: string;
}

/** A bridge that runs as a daemon under `aep setup up`: the flag it cannot start without, and its variable. */
export interface DaemonNeeds {
  flag: string;
  env: string;
  /** What the flag points at, for the usage error. */
  what: string;
}

export interface Descriptor {
  kind: IntegrationKind;
  /** What it does (a finer cut than `kind`, which it implies: {@link kindOfRole}). */
  role: IntegrationRole;
  /**
   * The integration's one name: its registry id, the `aep adapter <name>` / `aep bridge <name>`
   * argument, the name in docs and reports; for an adapter also the AEP `agent`.
   */
  name: string;
  /** Earlier names a user may still type (`aep bridge`, `aep setup up`), read with a one-line notice. */
  aliases?: readonly string[];
  /** The vendor product, as people call it. */
  vendor: string;
  /** The vendor surface read: hook kind, transport, the version checked. */
  surface: string;
  /** How vendor identifiers become AEP `session` and `run`. */
  identity: { session: string; run: string };
  /** The conformance classes claimed. */
  classes: readonly DescriptorClass[];
  /** hello `capabilities.emits` in the default posture. */
  emits: readonly string[];
  postures: readonly PostureLeg[];
  /** Form loops (AEP-0006) the adapter answers, by vendor moment; empty when none. */
  forms: readonly string[];
  /**
   * The vendor moments whose reply carries queued steering with `AEP_INSTRUCT=1`; empty when
   * `x.<name>.control.instruct` is never accepted.
   */
  steering: readonly string[];
  /**
   * The names the mapping uses, held against the design record (and Annex A): every deliberate
   * deviation from a name or behaviour the record states, with its reason, and every name we chose
   * where the record gives none. Rendered into `impl/<dir>/README.md` by `npm run gen:matrices`.
   */
  deviations: readonly Deviation[];
  /** Default loopback port of the daemon (0: it listens on nothing). */
  port: number;
  /** The variable that moves the port; '' when it listens on nothing. */
  portEnv: string;
  /**
   * Adapters: the stdout the shim prints when it cannot forward, so the vendor behaves as if
   * unhooked (`byHook`: hooks whose neutral reply differs). Equal to `AdapterDef.neutralReply` (tested).
   * `reads`: how the vendor reads a hook reply, so a certification compares replies by meaning:
   * `json` (the vendor parses it: `{"a": 1}` and `{"a":1}` are the same reply) or `bytes` (the
   * vendor reads the text as it is).
   */
  neutral?: { reply: string; byHook?: Readonly<Record<string, string>>; reads: 'json' | 'bytes' };
  /** Adapters whose hold window is not the kit's 55 000 ms: their `AdapterDef.holdMs` (tested equal). */
  holdMs?: number;
  /** The variables this integration reads besides the common ones, each with what it does. */
  env: readonly EnvVar[];
  /** Bridges: how `aep bridge` loads the runner. */
  entry?: BridgeEntry;
  /**
   * Inbound bridges `aep setup up` can run as a daemon: `{}` when nothing more is needed,
   * `{needs}` when a vendor URL must be given. Absent: not a daemon (acp wraps one agent's stdio).
   */
  daemon?: { needs?: DaemonNeeds };
  /**
   * Inbound bridges: the corpus files that pin this bridge's mappers. `sources`: mapping files
   * (`mappings/<source>.json`, and `<source>-*` variants such as `acp-zed`) wholly its own;
   * `modePolicies`: the vendor prefixes of files whose `sse_modes`/`ws_modes` sections pin its
   * mode policy (an adapter's file may pin its bridge's policy: the standard's `kimi-code.json`).
   */
  corpus?: { sources: readonly string[]; modePolicies?: readonly string[] };
  /** Bridges: what `aep bridge` lists for it, in one line. */
  summary?: string;
  /**
   * Bridges: its own section of `aep bridge --help`, line by line, the first line its heading;
   * `{port}` becomes its port and variable, `{port:<name>}` another bridge's (a section shared by two).
   */
  help?: readonly string[];
  /** Hook adapters wired by `aep setup hooks`: where the vendor reads its hook settings. */
  settings?: SettingsLocation;
  /** Example configuration files, relative to the package root. */
  /**
   * The standard's reference module names (`adapter-codex/map-hooks`) this integration's pure
   * functions are served under in the `./reference-api` subpath (impl/reference-api.ts `modules`);
   * absent for an integration the standard's reference stack has no module of.
   */
  reference?: readonly string[];
  configs: readonly string[];
  /** How far the mapping is verified against the real vendor. */
  verification: { status: 'captured' | 'documented'; detail: string };
}
