/** The contract between the bridge gate scenarios (bridge-control-live.ts) and each bridge's harness (bridge-harnesses.ts). */

/** One bridge with its gate on, linked to the stack's relay, fed by its stub vendor server. */
export interface BridgeHarness {
  /** The envelope `agent` of the bridge's events. */
  agent: string;
  /** The relay link and the vendor source are both up. */
  ready(): boolean;
  /** One scenario step: push `input` onto the stub's stream; an error string when the step is not this bridge's. */
  push(hook: string, input: Record<string, unknown>): string;
  close(): Promise<void>;
}
