/**
 * The lane's scenarios for the plugin-shaped vendors (pure data): OpenCode and Kilo Code (a
 * plugin in the host's Bun runtime, `serve` mode) and pi (an in-process extension). Their
 * "hooks" are the moments the plugin POSTs to its daemon, named by the route (`bus`,
 * `tool.before`, `tool.after`, `permission.ask` for OpenCode/Kilo; pi's event names), recorded by
 * the lane's proxy on the way. Each also requires that the host ends cleanly.
 */
import type { Scenario } from './scenario-types.js';

/** The text a reject carries back to the model (kept apart from scenarios.ts: no import cycle). */
export const PLUGIN_DENY_TEXT = 'AEP lane: do not write there, use the scratch folder';

const SERVE = ['opencode', 'kilocode'] as const;
const GATE = { AEP_PI_CONTROL: '1' };

export const PLUGIN_SCENARIOS: readonly Scenario[] = [
  {
    name: 'remote-allow',
    summary: "a remote allow over the relay answers the host's permission ask and the tool runs",
    vendors: SERVE,
    tool: 'write-proof',
    action: { kind: 'remote', answer: { option: 'once' } },
    expect: () => ({
      hooks: ['bus', 'tool.before', 'tool.after'],
      events: ['session.started', 'run.started', 'tool.requested', 'attention.requested', 'attention.answered', 'tool.completed', 'run.finished', 'session.ended'],
      effect: 'proof-exists',
      hostExitsClean: true,
    }),
  },
  {
    name: 'remote-deny',
    summary: "a remote reject (the vendor's own option) over the relay: the tool does not run, and the call ends as tool.denied",
    vendors: SERVE,
    tool: 'write-proof',
    action: { kind: 'remote', answer: { option: 'reject' } },
    expect: () => ({
      hooks: ['bus'],
      events: ['session.started', 'run.started', 'tool.requested', 'attention.requested', 'attention.answered', 'tool.denied', 'run.finished', 'session.ended'],
      noEvents: ['tool.completed', 'tool.failed'],
      effect: 'proof-absent',
      hostExitsClean: true,
    }),
  },
  {
    name: 'deny-with-text',
    summary: 'a remote reject with text: the tool does not run and the text reaches the model',
    vendors: SERVE,
    tool: 'write-proof',
    action: { kind: 'remote', answer: { text: PLUGIN_DENY_TEXT } },
    expect: () => ({
      hooks: ['bus'],
      events: ['session.started', 'run.started', 'tool.requested', 'attention.requested', 'attention.answered', 'tool.denied', 'run.finished', 'session.ended'],
      noEvents: ['tool.completed', 'tool.failed'],
      effect: 'proof-absent',
      modelSees: PLUGIN_DENY_TEXT,
      hostExitsClean: true,
    }),
  },
  {
    name: 'tool-fails',
    summary: 'a tool that fails (a read of a missing file): the failure is reported as such',
    vendors: SERVE,
    tool: 'failing-command',
    action: { kind: 'none' },
    expect: () => ({
      hooks: ['bus', 'tool.before'],
      events: ['session.started', 'run.started', 'tool.requested', 'tool.failed', 'run.finished', 'session.ended'],
      noEvents: ['tool.completed'],
      hostExitsClean: true,
    }),
  },
  {
    name: 'question-form',
    summary: "the model's question tool becomes a form at the relay, answered remotely; the chosen label reaches the model",
    vendors: SERVE,
    tool: 'question-form',
    action: { kind: 'remote', answer: { values: { '1': '2' } } },
    expect: () => ({
      hooks: ['bus'],
      events: ['session.started', 'run.started', 'attention.requested', 'attention.answered', 'run.finished', 'session.ended'],
      modelSees: 'Blue',
      hostExitsClean: true,
    }),
  },
  {
    name: 'daemon-down',
    summary: 'the adapter daemon is down: the plugin fails open, the host completes its run and ends cleanly',
    vendors: [...SERVE, 'pi'],
    tool: 'write-proof',
    // OpenCode/Kilo: the ask stays with the host's own prompt, which the local user allows; pi: the gate fails open.
    action: { kind: 'local', local: 'allow' },
    daemonDown: true,
    pluginEnv: { AEP_PI_CONTROL: '1' },
    expect: (vendor) => ({
      hooks: vendor === 'pi' ? ['session_start', 'tool_call', 'session_shutdown'] : ['bus'],
      events: [],
      hooksMayFail: true,
      effect: 'proof-exists',
      hostExitsClean: true,
    }),
  },
  {
    name: 'gate-remote-allow',
    summary: 'with AEP_PI_CONTROL=1 the tool_call gate asks at the relay; a remote allow lets the tool run',
    vendors: ['pi'],
    tool: 'write-proof',
    pluginEnv: GATE,
    action: { kind: 'remote', answer: { option: 'allow' } },
    expect: () => ({
      hooks: ['session_start', 'agent_start', 'tool_call', 'tool_execution_end', 'agent_end', 'session_shutdown'],
      events: ['session.started', 'run.started', 'attention.requested', 'attention.answered', 'tool.completed', 'run.finished', 'session.ended'],
      effect: 'proof-exists',
      hostExitsClean: true,
    }),
  },
  {
    name: 'gate-deny-with-text',
    summary: 'with the gate on, a remote deny with text blocks the tool and the text reaches the model',
    vendors: ['pi'],
    tool: 'write-proof',
    pluginEnv: GATE,
    action: { kind: 'remote', answer: { option: 'deny', text: PLUGIN_DENY_TEXT } },
    expect: () => ({
      hooks: ['session_start', 'agent_start', 'tool_call', 'tool_execution_end', 'agent_end', 'session_shutdown'],
      events: ['session.started', 'run.started', 'attention.requested', 'attention.answered', 'tool.failed', 'run.finished', 'session.ended'],
      noEvents: ['tool.completed'],
      effect: 'proof-absent',
      modelSees: PLUGIN_DENY_TEXT,
      hostExitsClean: true,
    }),
  },
  {
    name: 'notifications-only',
    summary: 'the default posture: no gate, no ask; the tool runs and every moment is a notification',
    vendors: ['pi'],
    tool: 'write-proof',
    action: { kind: 'none' },
    expect: () => ({
      hooks: ['session_start', 'agent_start', 'tool_execution_start', 'tool_execution_end', 'agent_end', 'session_shutdown'],
      events: ['session.started', 'run.started', 'tool.requested', 'tool.completed', 'run.finished', 'session.ended'],
      noEvents: ['attention.requested'],
      effect: 'proof-exists',
      hostExitsClean: true,
    }),
  },
  {
    name: 'tool-fails',
    summary: 'a tool that fails (a command exiting non-zero): the failure is reported as such',
    vendors: ['pi'],
    tool: 'failing-command',
    action: { kind: 'none' },
    expect: () => ({
      hooks: ['session_start', 'tool_execution_end', 'session_shutdown'],
      events: ['session.started', 'run.started', 'tool.failed', 'run.finished', 'session.ended'],
      noEvents: ['tool.completed'],
      hostExitsClean: true,
    }),
  },
];
