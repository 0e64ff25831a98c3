/**
 * The contract between the adapter kit and one vendor adapter.
 *
 * A vendor adapter is a plain object (`AdapterDef`): its pure mapping, its reply bytes and its
 * hook handler. The kit (daemon.ts) owns every socket, file and timer; the adapter never
 * touches I/O, so a new vendor is one definition file plus its pure mappers.
 */
import type { AepEvent, CaptureLevel } from '../core/event.js';

/** A held request: its id, known at once, and its one settlement, resolved later. */
export type Held = Promise<{ request: AepEvent; settlement: Settlement }> & { readonly requestId: string };

/** What a pure mapper produces for one hook: the event minus its envelope identity. */
export interface Mapped {
  type: string;
  data: Record<string, unknown>;
  subject?: string;
  step?: string;
}

/**
 * The capture posture an adapter runs with (AEP-0003 §9.1).
 * `ceiling` governs every event; `attention` overrides it for `attention.*` events.
 */
export interface Posture {
  /** Default `metadata`. */
  ceiling: CaptureLevel;
  /** Default `redacted` (AEP-0003 §9.1's recommended per-category override). */
  attention: CaptureLevel;
}

/** A vendor hook payload: the JSON the vendor wrote to the hook's stdin. */
export type HookInput = Record<string, unknown>;

/** A closed choice on a permission-style request. */
export interface RequestOption {
  id: string;
  label: string;
}

/** One AEP-0006 `field_spec`. */
export interface FieldSpec {
  id: string;
  type: 'string' | 'number' | 'boolean' | 'select';
  label: string;
  required?: boolean;
  multi?: boolean;
  other?: boolean;
  choices?: { id: string; label: string }[];
  min?: number;
  max?: number;
}

/** The answer carried by `control.attention.respond` (AEP-0004 §5). */
export interface Answer {
  option?: string;
  text?: string;
  values?: Record<string, unknown>;
}

/**
 * How a held request ended; what the adapter turns into its vendor reply. An answer's `answered`
 * is the id of its `attention.answered` event (set by the kit), for cause-linking what follows.
 */
export type Settlement =
  /**
   * A permission-style decision: the applied option (and guidance text, if any survived).
   * `answered` (on this and `values`) is the id of the `attention.answered` event the engine
   * recorded, so an adapter can cause-link an outcome to the answer (e.g. `tool.denied`).
   */
  | { kind: 'option'; option: string; text?: string; via: 'control' | 'oob'; answered?: string }
  /** A validated form answer. */
  | { kind: 'values'; values: Record<string, unknown>; via: 'control' | 'oob'; answered?: string }
  /** The window elapsed: fail open with the vendor's neutral reply. */
  | { kind: 'timeout' }
  /** A non-gating surface settled it (e.g. PostToolUse while pending): free the hook neutrally. */
  | { kind: 'dismissed' };

/** What `HookContext.hold` needs to open a held request. */
export interface HoldSpec {
  session: string;
  run?: string;
  /** The `attention.requested` payload mapping (already capture-gated by the adapter). */
  mapped: Mapped;
  /** Answer semantics: permission-style options, or form fields. */
  options?: RequestOption[];
  fields?: FieldSpec[];
  /** Which option refuses (AEP-0008: unmatched text applies it). Default `deny`. */
  refusing?: string;
  /** Whether a plain `{text}`/`{option}` answer is accepted on a form (AEP-0006 degradation). */
  legacyAnswer?: (answer: Answer) => Record<string, unknown> | null;
  /** A key the adapter can use to find this request later (e.g. `tool:<session>:<tool>`). */
  key?: string;
  /** The `cause` of the `attention.requested` event (e.g. the subagent's delegation it came from). */
  cause?: string;
}

/** A request the daemon is holding a hook open for. */
export interface PendingInfo {
  id: string;
  session: string;
  key?: string;
  /** True for a `kind:"form"` request (it has fields): an out-of-band answer may carry values. */
  form?: boolean;
}

/** The kit's services to an adapter's hook handler. Valid only during one `handle()` call and the promises it awaits. */
export interface HookContext {
  /** The capture posture in force. */
  readonly posture: Posture;
  /** How long `hold` waits before the timeout frees the hook, in ms (for `expires_at`). */
  readonly attentionTimeoutMs: number;
  /** The engine's clock, epoch milliseconds (fake in offline runs). */
  now(): number;
  /** The run currently open for a session, if the adapter opened one. */
  run(session: string): string | undefined;
  /** Open or close the current run of a session (a new run id is a ULID when `id` is omitted). */
  setRun(session: string, id: string | null | undefined): string | undefined;
  /**
   * Emit one event: capture-stamped, sequenced, logged and sent. Returns the full envelope.
   * Emitting `session.ended` first dismisses every request still open in the session and drops
   * its queued steering (the kit's guarantee: no request outlives its session), then forgets
   * the session's run and `state`.
   */
  emit(session: string, mapped: Mapped, extra?: { run?: string; cause?: string; severity?: AepEvent['severity'] }): AepEvent;
  /**
   * Emit `attention.requested` and hold until a settlement; resolves exactly once. The request
   * is emitted before `hold` returns, and the returned promise carries its id (`requestId`), so
   * a caller that files the request (to answer or dismiss it later) never has to guess it.
   */
  hold(spec: HoldSpec): Held;
  /**
   * Emit `attention.requested` for a request answered out of band only (`respond_via: ["oob"]`,
   * e.g. a URL the person opens in the vendor's UI): no hook waits on it and a control answer is
   * refused. It stays open until `settle` (dismissed or answered `via:"oob"`), the session's
   * `session.ended`, or the daemon's shutdown, so it always reaches a terminal.
   */
  open(spec: HoldSpec): AepEvent;
  /** Requests still pending for a session (optionally filtered by key), held or out of band. */
  pending(session: string, key?: string): PendingInfo[];
  /** Settle a pending request from the vendor side: `dismissed`, or answered out of band. */
  settle(id: string, how: { kind: 'dismissed' } | { kind: 'oob'; answer: Answer }): boolean;
  /** Take the queued steering text for a session (joined), or null; emits the delivery audit events. */
  takeSteering(session: string): string | null;
  /** Drop queued steering for a session (session end), emitting one audit event per text. */
  dropSteering(session: string): void;
  /**
   * The adapter's own per-session state, created by `init` on first use and kept by the kit until
   * the session ends (`session.ended` emitted). One object per session per engine: adapters keep
   * whatever their identity rules need there (never in module globals, which engines would share).
   */
  state<T>(session: string, init: () => T): T;
  /**
   * Whether this engine already emitted `session.ended` for the session. `session.ended` is a
   * session's single terminal (AEP-0002 §5.3): a vendor that resumes an ended session must not
   * get a second one.
   */
  ended(session: string): boolean;
}

/** One vendor adapter, plugged into the kit. */
export interface AdapterDef {
  /** The AEP `agent` name, also the vendor token in `x.{vendor}.*` types, e.g. `claude-code`. */
  agent: string;
  /** Loopback port the daemon listens on by default (its descriptor's `port`, impl/integrations/registry.ts). */
  defaultPort: number;
  /**
   * The vendor's default hold window for a held hook, in ms (config.ts `holdWindow`), inside the
   * vendor's hook timeout; absent = 55 000.
   */
  holdMs?: number;
  /** Event categories declared in hello `capabilities.emits`. */
  emits: string[];
  /** Core command types this adapter honors (declared in hello `control.accepts`). */
  accepts: string[];
  /** The exact stdout a hook gets when the daemon cannot answer (fail open). */
  neutralReply(hookEvent: string): string;
  /** Whether this hook moment accepts steering context on an otherwise empty reply. */
  steerable(hookEvent: string): boolean;
  /** The exact stdout that delivers steering text on a steerable moment. */
  steeringReply(hookEvent: string, text: string): string;
  /** Max characters of joined steering text one reply may carry (vendor cap). */
  steeringCap?: number;
  /** Handle one hook call; resolves to the exact stdout the vendor receives. */
  handle(hookEvent: string, input: HookInput, ctx: HookContext): Promise<string>;
  /** `false`: this vendor never takes `x.{agent}.control.instruct` (AEP_INSTRUCT is ignored). */
  instruct?: false;
  /**
   * Commands this adapter actuates itself (types in `accepts` the kit has no handler for, or that
   * it routes elsewhere). Return undefined to leave the command to the kit. The kit dedupes, then
   * acks with the resolved outcome (`ok` → control.accepted, else control.rejected), then runs
   * `after` (the outcome events, cause-linked to the command).
   */
  command?(cmd: Record<string, unknown>, ctx: HookContext): Promise<CommandOutcome> | undefined;
  /** Started once per daemon with the engine's context (e.g. a second vendor channel); closed at shutdown. */
  attach?(ctx: HookContext, log: (line: string) => void): { close(): Promise<void> } | undefined;
  /**
   * Observe-only (Gemini CLI, Antigravity): the hello carries no `control` block at all and
   * steering is never enabled, whatever `AEP_INSTRUCT` says. Default false.
   */
  observeOnly?: boolean;
  /**
   * A fresh instance configured from the environment (opt-in control legs such as
   * `AEP_VSCODE_CONTROL`), with its own per-daemon state; an error string for a bad value.
   * Every daemon start (CLI, live runner, offline scenario target) calls it once when present.
   * A wrapper that replaces `handle` must wrap `configure` too (its result would be unwrapped).
   */
  configure?(env: Record<string, string | undefined>): AdapterDef | string;
}

/** How an adapter-actuated command ends: the ack decision, and what to emit after it. */
export type CommandOutcome =
  | { ok: true; after?: () => void }
  | { ok: false; reason: 'invalid' | 'refused' | 'busy' | 'unsupported'; detail: string };
