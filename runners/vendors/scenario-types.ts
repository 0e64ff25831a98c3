/**
 * The shape of a lane scenario (types only): scenarios.ts and plugin-scenarios.ts both build
 * values of it, so it lives below both.
 */
import type { Answer } from '../../impl/adapter-kit/types.js';
import type { ToolKind } from './driver.js';
import type { Expectation } from './judge.js';
import type { Vendor } from './versions.js';

/** How the people around the session act. */
export type Action =
  /** A remote consumer answers the first attention request over the relay. */
  | { kind: 'remote'; answer: Answer }
  /** Nobody answers: the hold times out; then the local user answers the vendor's own prompt. */
  | { kind: 'no-answer'; local: 'allow' | 'deny' }
  /** The user ends the session while the request is still held. */
  | { kind: 'end-while-held' }
  /** Nobody is asked (record-only runs). */
  | { kind: 'none' }
  /** Nothing reaches the relay (the daemon is down): the local user answers the host's own prompt. */
  | { kind: 'local'; local: 'allow' | 'deny' };

export interface Scenario {
  name: string;
  /** One line for the report. */
  summary: string;
  vendors: readonly Vendor[];
  tool: ToolKind;
  action: Action;
  /** Run the vendor's TUI under tmux (vendors whose default mode is another one). */
  tui?: boolean;
  /** The adapter's hold window for this scenario (ms); default 20 000. */
  holdMs?: number;
  expect: (vendor: Vendor) => Expectation;
  /** Plugin-shaped vendors: environment for the host and the daemon (pi's gate, `AEP_PI_CONTROL=1`). */
  pluginEnv?: Record<string, string>;
  /** Plugin-shaped vendors: the daemon is stopped before the host starts (the plugin must fail open). */
  daemonDown?: boolean;
}
