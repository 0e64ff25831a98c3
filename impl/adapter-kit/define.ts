/**
 * The parts of an `AdapterDef` every hook-based vendor adapter shares, so a vendor's adapter.ts
 * keeps only what is its own: identity rules, held loops and the `handle` switch.
 */
import { contextReply } from './replies.js';
import type { AdapterDef } from './types.js';
import type { Descriptor } from '../integrations/descriptor.js';

/** What a vendor states; `defineAdapter` fills in the rest. */
export interface AdapterSpec {
  /** The AEP `agent` name, e.g. `codex`. */
  agent: string;
  /** The daemon's default loopback port. */
  defaultPort: number;
  /** The default hold window for held hooks, in ms (see `AdapterDef.holdMs`). */
  holdMs?: number;
  /** Event categories declared in hello `capabilities.emits`. */
  emits: string[];
  /** The exact stdout of a hook the daemon cannot or will not answer (fail open). */
  neutral: string;
  /** The hook moments that accept steering context. */
  steerable: ReadonlySet<string>;
  /** Max characters of joined steering per reply; default: the kit's (no vendor cap). */
  steeringCap?: number;
  /** Handle one hook call; resolves to the exact stdout the vendor receives. */
  handle: AdapterDef['handle'];
}

/**
 * What an adapter's descriptor already says, as `AdapterSpec` members (the agent, the port, the
 * hold window, hello `capabilities.emits` in the default posture, the steerable moments), so an
 * adapter reads these facts from its descriptor instead of restating them.
 */
export function specFromDescriptor(d: Descriptor): Pick<AdapterSpec, 'agent' | 'defaultPort' | 'holdMs' | 'emits' | 'steerable'> {
  return { agent: d.name, defaultPort: d.port, ...(d.holdMs !== undefined ? { holdMs: d.holdMs } : {}), emits: [...d.emits], steerable: new Set(d.steering) };
}

/**
 * An `AdapterDef` that accepts `control.attention.respond`, answers `neutral` when it cannot help,
 * and delivers steering as `hookSpecificOutput.additionalContext` on the `steerable` moments.
 */
export function defineAdapter(spec: AdapterSpec): AdapterDef {
  const def: AdapterDef = {
    agent: spec.agent,
    defaultPort: spec.defaultPort,
    emits: spec.emits,
    accepts: ['control.attention.respond'],
    neutralReply: () => spec.neutral,
    steerable: (hookEvent) => spec.steerable.has(hookEvent),
    steeringReply: contextReply,
    handle: spec.handle,
  };
  if (spec.steeringCap !== undefined) def.steeringCap = spec.steeringCap;
  if (spec.holdMs !== undefined) def.holdMs = spec.holdMs;
  return def;
}
