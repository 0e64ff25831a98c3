/**
 * Terminal findings the judge (terminals.ts) still reports, by integration and rule, each with
 * why. (A tool terminal the adapter emits without a cause is linked to its request by the kit,
 * impl/adapter-kit/call-causes.ts; what is left here is an explicit cause of another kind, a run
 * left open at session end, and a vendor that names no call.) The scenario runs excuse them (the check passes
 * with the rest of the stream judged); `known-findings.test.ts` fails when one no longer occurs,
 * so a fixed integration must drop its line here. Add nothing for an integration you can fix.
 */
import type { TerminalRule } from './terminals.js';

export const KNOWN_TERMINAL_FINDINGS: Readonly<Record<string, Partial<Record<TerminalRule, string>>>> = {
  antigravity: {
    'terminals/tool-call-id': 'tool.requested/tool.completed carry no call_id: the adapter does not mint one (the vendor hook names no call)',
  },
  'claude-code': {
    'terminals/tool-terminal-cause': "a subagent's tool terminals carry the subagent delegation as cause instead of their tool.requested id",
  },
  hermes: {
    'terminals/run-terminal-missing': 'the session-end sweep leaves the open run without a terminal before session.ended',
  },
  kilocode: {
    'terminals/run-terminal-missing': 'session.deleted ends the session with its run left open',
  },
  opencode: {
    'terminals/run-terminal-missing': 'session.deleted ends the session with its run left open',
  },
  pi: {
    'terminals/tool-terminal-cause': 'a gate-blocked tool.failed is cause-linked to the attention request, not to its tool.requested or the answer',
    'terminals/run-terminal-missing': 'session_shutdown ends the session with its run left open',
  },
};
