/**
 * The lane's scenarios (pure data): what the scripted model does, how the remote consumer and the
 * local user act, and what must be observed. Expectations are what the spec requires, per vendor
 * where the vendors' hooks differ; a scenario failing because of an adapter defect stays as it
 * is and is listed in known-failures.ts.
 */
import type { Answer } from '../../impl/adapter-kit/types.js';
import type { ToolKind } from './driver.js';
import type { Expectation } from './judge.js';
import type { Vendor } from './versions.js';
import { PLUGIN_SCENARIOS } from './plugin-scenarios.js';

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

/** The text a deny carries back to the model. */
export const DENY_TEXT = 'AEP lane: do not write there, use the scratch folder';

const START = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest'];
const EVENTS_START = ['session.started', 'run.started', 'tool.requested', 'attention.requested'];
const ANSWERED = ['attention.answered', 'attention.resolved'];

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'remote-allow',
    summary: 'a remote allow over the relay makes the tool run',
    vendors: ['claude-code', 'codex'],
    tool: 'write-proof',
    action: { kind: 'remote', answer: { option: 'allow' } },
    expect: () => ({
      hooks: [...START, 'PostToolUse', 'Stop', 'SessionEnd'],
      events: [...EVENTS_START, ...ANSWERED, 'tool.completed', 'run.finished', 'session.ended'],
      permissionReply: 'allow',
      effect: 'proof-exists',
      localPrompt: false,
    }),
  },
  {
    name: 'remote-deny',
    summary: 'a remote deny keeps the tool from running, and the tool call gets a terminal event',
    vendors: ['claude-code', 'codex'],
    tool: 'write-proof',
    action: { kind: 'remote', answer: { option: 'deny' } },
    expect: () => ({
      hooks: [...START, 'Stop', 'SessionEnd'],
      events: [...EVENTS_START, ...ANSWERED, 'tool.denied', 'run.finished', 'session.ended'],
      noEvents: ['tool.completed'],
      permissionReply: 'deny',
      effect: 'proof-absent',
      localPrompt: false,
    }),
  },
  {
    name: 'deny-with-text',
    summary: "a remote deny with guidance text: the tool does not run and the text reaches the model",
    vendors: ['claude-code', 'codex'],
    tool: 'write-proof',
    action: { kind: 'remote', answer: { option: 'deny', text: DENY_TEXT } },
    expect: () => ({
      hooks: [...START, 'Stop', 'SessionEnd'],
      events: [...EVENTS_START, ...ANSWERED, 'tool.denied', 'run.finished', 'session.ended'],
      noEvents: ['tool.completed'],
      permissionReply: 'deny',
      effect: 'proof-absent',
      modelSees: DENY_TEXT,
      localPrompt: false,
    }),
  },
  {
    name: 'no-answer',
    summary: "nobody answers: the hold times out, the vendor falls back to its own prompt, the local user allows",
    vendors: ['claude-code', 'codex'],
    tool: 'write-proof',
    holdMs: 2500,
    action: { kind: 'no-answer', local: 'allow' },
    expect: () => ({
      hooks: [...START, 'PostToolUse', 'Stop', 'SessionEnd'],
      events: [...EVENTS_START, 'attention.timeout', 'tool.completed', 'run.finished', 'session.ended'],
      permissionReply: 'neutral',
      effect: 'proof-exists',
      localPrompt: true,
    }),
  },
  {
    name: 'tool-fails',
    summary: 'a remotely allowed tool that fails: the failure is reported as such',
    vendors: ['claude-code', 'codex'],
    tool: 'failing-command',
    action: { kind: 'remote', answer: { option: 'allow' } },
    expect: (vendor) => ({
      hooks: [...START, vendor === 'claude-code' ? 'PostToolUseFailure' : 'PostToolUse', 'Stop', 'SessionEnd'],
      events: [...EVENTS_START, ...ANSWERED, 'tool.failed', 'run.finished', 'session.ended'],
      noEvents: ['tool.completed'],
      permissionReply: 'allow',
      localPrompt: false,
    }),
  },
  {
    name: 'user-ends-session',
    summary: 'the user ends the session while a permission request is held: the request is closed, the session ends',
    vendors: ['claude-code', 'codex'],
    tool: 'write-proof',
    action: { kind: 'end-while-held' },
    expect: () => ({
      hooks: [...START, 'SessionEnd'],
      events: [...EVENTS_START, 'session.ended'],
      effect: 'proof-absent',
      cutHooks: ['PermissionRequest'],
    }),
  },
  {
    name: 'ask-user-question',
    summary: "the model's AskUserQuestion form is answered remotely and the answer reaches the model",
    vendors: ['claude-code'],
    tool: 'ask-user-question',
    action: { kind: 'remote', answer: { values: { '1': '2' } } },
    expect: () => ({
      hooks: [...START, 'PostToolUse', 'Stop', 'SessionEnd'],
      events: [...EVENTS_START, ...ANSWERED, 'tool.completed', 'run.finished', 'session.ended'],
      permissionReply: 'allow',
      modelSees: 'Blue',
      localPrompt: false,
    }),
  },
  {
    name: 'tui-remote-allow',
    summary: 'the interactive TUI under tmux: a remote allow makes the tool run',
    vendors: ['claude-code'],
    tui: true,
    tool: 'write-proof',
    action: { kind: 'remote', answer: { option: 'allow' } },
    expect: () => ({
      hooks: [...START, 'PostToolUse', 'Stop', 'SessionEnd'],
      events: [...EVENTS_START, ...ANSWERED, 'tool.completed', 'run.finished', 'session.ended'],
      permissionReply: 'allow',
      effect: 'proof-exists',
    }),
  },
  {
    name: 'tui-no-answer',
    summary: "the interactive TUI under tmux: the hold times out and the TUI's own permission dialog takes over; the local user allows",
    vendors: ['claude-code'],
    tui: true,
    tool: 'write-proof',
    holdMs: 2500,
    action: { kind: 'no-answer', local: 'allow' },
    expect: () => ({
      hooks: [...START, 'PostToolUse', 'Stop', 'SessionEnd'],
      events: [...EVENTS_START, 'attention.timeout', 'tool.completed', 'run.finished', 'session.ended'],
      permissionReply: 'neutral',
      effect: 'proof-exists',
      localPrompt: true,
    }),
  },
  {
    name: 'record-hooks',
    summary: "the vendor's hooks recorded around one allowed tool call (no adapter yet: the lane's own recording config)",
    vendors: ['gemini'],
    tool: 'write-proof',
    action: { kind: 'none' },
    expect: () => ({
      hooks: ['SessionStart', 'BeforeAgent', 'BeforeTool', 'AfterTool', 'AfterAgent', 'SessionEnd'],
      events: [],
      effect: 'proof-exists',
    }),
  },
  ...PLUGIN_SCENARIOS,
];
