/**
 * The one hello frame builder (AEP-0003 §4): every peer of a relay that says hello builds it here,
 * pure and dependency-free (the console's page bundles it). `check-live` builds its own on purpose.
 *
 * Member order is the wire's: `type`, `versions`, `role`, then `identity` and `capabilities` when
 * given, so a frame keeps its bytes whoever builds it.
 */

export type HelloRole = 'emitter' | 'consumer' | 'both';

export interface HelloInput {
  role: HelloRole;
  /** Default `['0.1']`. */
  versions?: readonly string[];
  /** `agent`, and `instance` when the peer has one. */
  identity?: { agent: string; instance?: string };
  /** Omitted from the frame when not given (an empty object is sent as `{}`). */
  capabilities?: Record<string, unknown>;
}

export interface HelloFrame {
  type: 'hello';
  versions: string[];
  role: HelloRole;
  identity?: { agent: string; instance?: string };
  capabilities?: Record<string, unknown>;
}

export function buildHello(input: HelloInput): HelloFrame {
  const frame: HelloFrame = { type: 'hello', versions: [...(input.versions ?? ['0.1'])], role: input.role };
  if (input.identity !== undefined) frame.identity = input.identity.instance === undefined ? { agent: input.identity.agent } : { agent: input.identity.agent, instance: input.identity.instance };
  if (input.capabilities !== undefined) frame.capabilities = input.capabilities;
  return frame;
}
