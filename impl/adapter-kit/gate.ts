/**
 * The opt-in held permission gate (VS Code `AEP_VSCODE_CONTROL`, Kimi `AEP_KIMI_CONTROL`): reading
 * its configuration and deciding what one settlement means for the vendor (pure), and `holdGate`,
 * which runs one gated call over the kit's hook context (no I/O of its own).
 *
 * Shape (the shared held-gate pattern): a matched pre-tool moment becomes an answerable
 * `attention.requested{kind:"permission", respond_via:["control"]}` held for the gate's window.
 * - `allow` is "no hook objection": the vendor's own downstream approval still runs; nothing is minted.
 * - `deny` blocks with the vendor's own block shape, carrying the guidance text as the reason, and
 *   the adapter records `tool.denied{by:"policy"}` cause-linked to the answer.
 * - any other offered option (VS Code's `ask`) is passed to the vendor as that decision.
 * - a timeout (or a dismissal) frees the hook with no decision at all (fail open).
 *
 * Scope: `<PREFIX>_GATE_TOOLS` is a regular expression matched against the WHOLE tool name
 * (`Bash|Write` gates exactly those two); unset or empty gates every tool. The hold window is
 * `AEP_ATTENTION_TIMEOUT_MS` when set, else the adapter's default, and never more than the
 * vendor's hook timeout minus a 5 s margin, so the daemon always frees the hook before the vendor
 * kills it.
 */
import { configureFrom } from './configure.js';
import { callKey, dismissCallRequests } from './tool-calls.js';
import type { AdapterDef, HookContext, HookInput, Mapped, RequestOption, Settlement } from './types.js';

export type Env = Record<string, string | undefined>;

export interface GateVars {
  /** The opt-in variable, e.g. `AEP_VSCODE_CONTROL` (`1` on; unset, empty or `0` off). */
  control: string;
  /** The scope variable, e.g. `AEP_VSCODE_GATE_TOOLS`. */
  tools: string;
  /** The hold window when `AEP_ATTENTION_TIMEOUT_MS` is unset. */
  defaultHoldMs: number;
  /** The vendor's hook timeout for the gated hook, as our example configuration registers it. */
  vendorTimeoutMs: number;
}

export interface GateConfig {
  enabled: boolean;
  /** Null = every tool. */
  tools: RegExp | null;
  /** The hold window, already inside the vendor's timeout. */
  holdMs: number;
}

/** The margin kept between the hold window and the vendor's own hook timeout. */
export const GATE_MARGIN_MS = 5000;

/** The gate configuration from the environment; an error string naming the variable on a bad value. */
export function readGate(env: Env, vars: GateVars): GateConfig | string {
  const raw = env[vars.control];
  if (raw !== undefined && !['', '0', '1'].includes(raw)) return `${vars.control} must be 1 (gate on) or 0 (off), got '${raw}'`;
  let tools: RegExp | null = null;
  const pattern = env[vars.tools];
  if (pattern) {
    try {
      tools = new RegExp(`^(?:${pattern})$`);
    } catch (err) {
      return `${vars.tools} must be a regular expression over tool names, got '${pattern}' (${(err as Error).message})`;
    }
  }
  const max = vars.vendorTimeoutMs - GATE_MARGIN_MS;
  const hold = env.AEP_ATTENTION_TIMEOUT_MS;
  if (hold !== undefined && hold !== '' && (!/^[0-9]+$/.test(hold) || Number(hold) < 1)) {
    return `AEP_ATTENTION_TIMEOUT_MS must be a positive integer of milliseconds, got '${hold}'`;
  }
  const wanted = hold ? Number(hold) : vars.defaultHoldMs;
  return { enabled: raw === '1', tools, holdMs: Math.min(wanted, max) };
}

/**
 * The gate's part of an adapter definition: `control.attention.respond` accepted only with the
 * gate on, the gate's hold window, and `configure`, which reads the gate from the environment and
 * creates a fresh adapter with it (or returns the error naming the variable).
 */
export function gatedDef(gate: GateConfig, vars: GateVars, create: (gate: GateConfig) => AdapterDef): Pick<AdapterDef, 'accepts' | 'holdMs' | 'configure'> {
  return {
    accepts: gate.enabled ? ['control.attention.respond'] : [],
    holdMs: gate.holdMs,
    configure: configureFrom((env) => readGate(env, vars), create),
  };
}

/** Whether the gate holds a call of `tool`. */
export function gates(config: GateConfig, tool: string): boolean {
  return config.enabled && (config.tools === null || config.tools.test(tool));
}

/** What a settled gate means for the vendor reply. */
export type GateDecision =
  /** No decision: timeout, dismissal, or an `allow` (no hook objection). */
  | { kind: 'none'; allowed: boolean }
  /** A blocking deny, with the reason the vendor renders. */
  | { kind: 'deny'; reason: string; answered?: string }
  /** Another offered vendor decision (VS Code's `ask`). */
  | { kind: 'other'; option: string };

/** The canned reason of a deny that carried no guidance text. */
export const GATE_DENY_REASON = 'Denied by the operator via the AEP permission gate';

/** Turn a gate settlement into the decision the vendor gets. */
export function gateDecision(settlement: Settlement): GateDecision {
  if (settlement.kind !== 'option' || settlement.via !== 'control') return { kind: 'none', allowed: false };
  if (settlement.option === 'allow') return { kind: 'none', allowed: true };
  if (settlement.option === 'deny') {
    return { kind: 'deny', reason: settlement.text ?? GATE_DENY_REASON, ...(settlement.answered ? { answered: settlement.answered } : {}) };
  }
  return { kind: 'other', option: settlement.option };
}

/** What `holdGate` needs: the request to raise and the tool it gates. */
export interface GateHold {
  session: string;
  /** The `attention.requested` mapping (kind permission, the gate's options, `respond_via:["control"]`). */
  mapped: Mapped;
  options: RequestOption[];
  tool: { name: string; call_id?: string };
  /** The call's `tool_input` (the gate request is filed under the call, see tool-calls.ts). */
  input: unknown;
}

/**
 * Hold one gated call until it settles and return what the vendor gets. A commanded deny also
 * lands `tool.denied{by:"policy"}` for the tool, cause-linked to the `attention.answered` event.
 */
export async function holdGate(ctx: HookContext, spec: GateHold): Promise<GateDecision> {
  const { settlement } = await ctx.hold({ session: spec.session, mapped: spec.mapped, options: spec.options, refusing: 'deny', key: gateKey(spec.session, spec.tool.name, spec.input) });
  const decision = gateDecision(settlement);
  if (decision.kind === 'deny') {
    const run = ctx.run(spec.session);
    ctx.emit(spec.session, { type: 'tool.denied', data: { tool: { ...spec.tool }, by: 'policy' }, subject: spec.tool.name }, { ...(run ? { run } : {}), ...(decision.answered ? { cause: decision.answered } : {}) });
  }
  return decision;
}

/** The key a gate request is filed under: the session, the tool and the call's input. */
export const gateKey = (session: string, tool: string, toolInput: unknown): string => callKey('gate', session, tool, toolInput);

/** The hook's call ran: dismiss the pending gate request of that very call (not a parallel call of the same tool). */
export function dismissGateRequests(input: HookInput, session: string, ctx: HookContext): void {
  dismissCallRequests('gate', input, session, ctx);
}
