/**
 * What the lane needs from one vendor: how to wire it, which tool calls its model makes, how to
 * run it headless, and how its local user acts. One implementation per vendor (claude-code.ts,
 * codex.ts, gemini.ts).
 */
import type { AdapterDef } from '../../impl/adapter-kit/types.js';
import type { ToolCall } from './model/script.js';
import type { ProcessJar } from './procs.js';
import type { Pin } from './versions.js';
import type { Wiring } from './wiring.js';

/** The folders of one scenario run, all under one temporary root. */
export interface RunDirs {
  root: string;
  /** The throwaway HOME. */
  home: string;
  /** The project folder the vendor works in. */
  work: string;
  /** Holds the `aep` wrapper; first on the vendor's PATH. */
  bin: string;
  /** Hook records (recorder.ts). */
  records: string;
}

export interface LaunchContext {
  jar: ProcessJar;
  pin: Pin;
  /** The installed binary. */
  binary: string;
  dirs: RunDirs;
  /** The scripted model server's base URL (`http://127.0.0.1:<port>`). */
  modelUrl: string;
  /** The hook configuration to install (from the example file, wired). */
  hookConfig: Record<string, unknown>;
  /** Environment the hooks need (`AEP_<ADAPTER>_PORT`, ...), merged into the vendor's. */
  hookEnv: Record<string, string>;
  /** The user's first prompt. */
  prompt: string;
  /** Run the interactive TUI under tmux instead of the vendor's default headless mode (vendors that have both). */
  tui?: boolean;
  /** The clone's root (plugin-shaped vendors copy their plugin file from here). */
  projectRoot?: string;
}

/** A running vendor session, driven as its user would. */
export interface VendorSession {
  /**
   * Wait until the vendor shows its own permission prompt for the pending tool call (the
   * fallback when no remote answer came) and answer it as the local user. False when no
   * local prompt appeared within `ms`.
   */
  answerLocally(allow: boolean, ms: number): Promise<boolean>;
  /**
   * Whether the vendor's own prompt is still waiting for the local user (it did not withdraw it
   * after the hook decided); undefined where the mode cannot tell (a TUI redraws its dialogs away).
   */
  promptPending?(): boolean;
  /** The user ends the session (quit command, closed input). Resolves once the vendor exited, or after `ms`. */
  end(ms: number): Promise<void>;
  /** What the vendor printed (stdout, or the TUI screen), for diagnostics. */
  transcript(): Promise<string>;
  /** The host's exit code once it ended (undefined while it runs), where the lane judges it (plugin-shaped hosts). */
  exitCode?(): number | null | undefined;
  /** Resolves true once the prompt's run is over (hosts that say so), false after `ms`. */
  settled?(ms: number): Promise<boolean>;
}

export type ToolKind = 'write-proof' | 'failing-command' | 'ask-user-question' | 'question-form';

export interface VendorDriver {
  vendor: Pin['vendor'];
  /** The adapter name (`aep hook <adapter>`); runs are record-only while this implementation has no such adapter. */
  adapter: string;
  /** How the vendor runs headless: "SDK mode (stream-json)", "TUI under tmux", ... */
  mode: string;
  /** The mode with `tui: true`, for vendors whose default mode is not their TUI. */
  tuiMode?: string;
  /** The hook configuration a user pastes (project-relative path); record-only runs use the lane's recording config instead. */
  exampleFile: string;
  /**
   * How to wire an example that is not a JSON hooks file (a directory of hook scripts): given the
   * example's absolute path and the adapter name, the configuration `launch` gets and the problems.
   */
  wire?: (examplePath: string, adapter: string) => Wiring;
  /** The lane's own hook configuration, recording every hook, for runs before the adapter exists. */
  recordingConfig?: () => Record<string, unknown>;
  /** The tool call the scripted model makes (`proof`: the file a write creates); null when the vendor has no such tool. */
  toolCall(kind: ToolKind, proof: string): ToolCall | null;
  /** Start the vendor with `ctx.prompt`. */
  launch(ctx: LaunchContext): Promise<VendorSession>;
  /**
   * Plugin-shaped vendors (OpenCode, Kilo Code, pi): `exampleFile` is the plugin/extension file
   * the host loads as a user installs it, there is no hook config to wire, and the plugin's
   * daemon port points at the lane's recording proxy, so each moment it POSTs is recorded.
   * `env` goes to both the host and the daemon (pi's `AEP_PI_CONTROL=1`). `adapter` is the
   * daemon as `aep adapter <name>` runs it (real REST replies to the host, the posture from the
   * scenario's environment), instead of the control-loop family's recording one.
   */
  plugin?: { env?: Record<string, string>; adapter: (env: Record<string, string>) => AdapterDef };
}
