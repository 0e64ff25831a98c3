/**
 * The lane's scenarios (pure data): what the scripted model does, how the remote consumer and the
 * local user act, and what must be observed. Expectations are what the spec requires, per vendor
 * where the vendors' hooks differ; a scenario failing because of an adapter defect stays as it
 * is and is listed in known-failures.ts.
 */
import type { Vendor } from './versions.js';
import type { Scenario } from './scenario-types.js';
import { PLUGIN_SCENARIOS } from './plugin-scenarios.js';

export type { Action, Scenario } from './scenario-types.js';

/** The text a deny carries back to the model. */
export const DENY_TEXT = 'AEP lane: do not write there, use the scratch folder';

const START_HOOKS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest'];
const START_EVENTS = ['session.started', 'run.started', 'tool.requested', 'attention.requested'];
/** Qwen Code 0.24.4 fires PermissionRequest before PreToolUse (its scheduler asks first), so tool.requested follows the answer. */
const QWEN_START_HOOKS = ['SessionStart', 'UserPromptSubmit', 'PermissionRequest'];
const QWEN_START_EVENTS = ['session.started', 'run.started', 'attention.requested'];
const startHooks = (vendor: Vendor): string[] => (vendor === 'qwen-code' ? QWEN_START_HOOKS : START_HOOKS);
const startEvents = (vendor: Vendor): string[] => (vendor === 'qwen-code' ? QWEN_START_EVENTS : START_EVENTS);
const ANSWERED = ['attention.answered', 'attention.resolved'];

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'remote-allow',
    summary: 'a remote allow over the relay makes the tool run',
    vendors: ['claude-code', 'codex', 'qwen-code'],
    tool: 'write-proof',
    action: { kind: 'remote', answer: { option: 'allow' } },
    expect: (vendor) => ({
      hooks: [...startHooks(vendor), 'PostToolUse', 'Stop', 'SessionEnd'],
      events: [...startEvents(vendor), ...ANSWERED, 'tool.completed', 'run.finished', 'session.ended'],
      permissionReply: 'allow',
      effect: 'proof-exists',
      localPrompt: false,
    }),
  },
  {
    name: 'remote-deny',
    summary: 'a remote deny keeps the tool from running, and the tool call gets a terminal event',
    vendors: ['claude-code', 'codex', 'qwen-code'],
    tool: 'write-proof',
    action: { kind: 'remote', answer: { option: 'deny' } },
    expect: (vendor) => ({
      hooks: [...startHooks(vendor), 'Stop', 'SessionEnd'],
      events: [...startEvents(vendor), ...ANSWERED, 'tool.denied', 'run.finished', 'session.ended'],
      noEvents: ['tool.completed'],
      permissionReply: 'deny',
      effect: 'proof-absent',
      localPrompt: false,
    }),
  },
  {
    name: 'deny-with-text',
    summary: "a remote deny with guidance text: the tool does not run and the text reaches the model",
    vendors: ['claude-code', 'codex', 'qwen-code'],
    tool: 'write-proof',
    action: { kind: 'remote', answer: { option: 'deny', text: DENY_TEXT } },
    expect: (vendor) => ({
      hooks: [...startHooks(vendor), 'Stop', 'SessionEnd'],
      events: [...startEvents(vendor), ...ANSWERED, 'tool.denied', 'run.finished', 'session.ended'],
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
    vendors: ['claude-code', 'codex', 'qwen-code'],
    tool: 'write-proof',
    holdMs: 2500,
    action: { kind: 'no-answer', local: 'allow' },
    expect: (vendor) => ({
      hooks: [...startHooks(vendor), 'PostToolUse', 'Stop', 'SessionEnd'],
      events: [...startEvents(vendor), 'attention.timeout', 'tool.completed', 'run.finished', 'session.ended'],
      permissionReply: 'neutral',
      effect: 'proof-exists',
      localPrompt: true,
    }),
  },
  {
    name: 'tool-fails',
    summary: 'a remotely allowed tool that fails: the failure is reported as such',
    vendors: ['claude-code', 'codex', 'qwen-code'],
    tool: 'failing-command',
    action: { kind: 'remote', answer: { option: 'allow' } },
    expect: (vendor) => ({
      hooks: [...startHooks(vendor), vendor === 'codex' ? 'PostToolUse' : 'PostToolUseFailure', 'Stop', 'SessionEnd'],
      events: [...startEvents(vendor), ...ANSWERED, 'tool.failed', 'run.finished', 'session.ended'],
      noEvents: ['tool.completed'],
      permissionReply: 'allow',
      localPrompt: false,
    }),
  },
  {
    name: 'user-ends-session',
    summary: 'the user ends the session while a permission request is held: the request is closed, the session ends',
    vendors: ['claude-code', 'codex', 'qwen-code'],
    tool: 'write-proof',
    action: { kind: 'end-while-held' },
    expect: (vendor) => ({
      hooks: [...startHooks(vendor), 'SessionEnd'],
      events: [...startEvents(vendor), 'session.ended'],
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
    expect: (vendor) => ({
      hooks: [...startHooks(vendor), 'PostToolUse', 'Stop', 'SessionEnd'],
      events: [...startEvents(vendor), ...ANSWERED, 'tool.completed', 'run.finished', 'session.ended'],
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
    expect: (vendor) => ({
      hooks: [...startHooks(vendor), 'PostToolUse', 'Stop', 'SessionEnd'],
      events: [...startEvents(vendor), ...ANSWERED, 'tool.completed', 'run.finished', 'session.ended'],
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
    expect: (vendor) => ({
      hooks: [...startHooks(vendor), 'PostToolUse', 'Stop', 'SessionEnd'],
      events: [...startEvents(vendor), 'attention.timeout', 'tool.completed', 'run.finished', 'session.ended'],
      permissionReply: 'neutral',
      effect: 'proof-exists',
      localPrompt: true,
    }),
  },
  // Gemini CLI is observe-only (no remote answer decides a tool call): its scenarios run the tool
  // under --approval-mode yolo and judge that the hooks reach the relay as pinned, with no
  // attention request anywhere.
  {
    name: 'observe-tool',
    summary: "an allowed tool call observed end to end: the hooks reach the relay as pinned, no attention request (observe-only)",
    vendors: ['gemini-cli'],
    tool: 'write-proof',
    action: { kind: 'none' },
    expect: () => ({
      hooks: ['SessionStart', 'BeforeAgent', 'BeforeTool', 'AfterTool', 'AfterAgent', 'SessionEnd'],
      events: ['session.started', 'run.started', 'tool.requested', 'tool.completed', 'run.finished', 'session.ended'],
      noEvents: ['attention.requested', 'tool.failed'],
      effect: 'proof-exists',
    }),
  },
  {
    name: 'observe-tool-fails',
    summary: 'a tool that fails, observed: the failure reaches the relay as tool.failed',
    vendors: ['gemini-cli'],
    tool: 'failing-command',
    action: { kind: 'none' },
    expect: () => ({
      hooks: ['SessionStart', 'BeforeAgent', 'BeforeTool', 'AfterTool', 'AfterAgent', 'SessionEnd'],
      events: ['session.started', 'run.started', 'tool.requested', 'tool.failed', 'run.finished', 'session.ended'],
      noEvents: ['attention.requested', 'tool.completed'],
    }),
  },
  // Cline is read-only by default: its session is recorded, and its hooks must reach the relay as pinned.
  {
    name: 'record-session',
    summary: "an auto-approved tool call: Cline's hooks reach the relay as pinned (read-only: nothing is answered)",
    vendors: ['cline'],
    tool: 'write-proof',
    action: { kind: 'none' },
    expect: () => ({
      // The Cline adapter opens no session.started (the design: taskId is the session, runs are
      // the agents'); the CLI fires no SessionShutdown when a headless task ends.
      hooks: ['TaskStart', 'PreToolUse', 'PostToolUse', 'TaskComplete'],
      events: ['run.started', 'tool.requested', 'tool.completed', 'run.finished'],
      noEvents: ['attention.requested', 'tool.failed'],
      effect: 'proof-exists',
    }),
  },
  {
    name: 'record-tool-fails',
    summary: 'an auto-approved command that fails: the failure reaches the relay as tool.failed',
    vendors: ['cline'],
    tool: 'failing-command',
    action: { kind: 'none' },
    expect: () => ({
      hooks: ['TaskStart', 'PreToolUse', 'PostToolUse', 'TaskComplete'],
      events: ['run.started', 'tool.requested', 'tool.failed', 'run.finished'],
      noEvents: ['attention.requested', 'tool.completed'],
    }),
  },
  ...PLUGIN_SCENARIOS,
];
