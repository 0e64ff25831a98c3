/**
 * The terminals judge as a scenario check: `terminalsCheck(integration, opts?)` → a function of
 * the stream that answers null (the stream holds the rules, known findings excused) or the
 * findings rendered on one line. Used by every scenario runner: the control-loop family, the
 * live runner, the bridges' live scenarios and the real-vendor lane.
 */
import { KNOWN_TERMINAL_FINDINGS } from './known-findings.js';
import { judgeTerminals, renderTerminalFindings, type TerminalFinding, type TerminalOptions } from './terminals.js';

/** The findings the known list does not excuse for this integration. */
export function unexcused(integration: string, findings: readonly TerminalFinding[]): TerminalFinding[] {
  const known = Object.prototype.hasOwnProperty.call(KNOWN_TERMINAL_FINDINGS, integration) ? KNOWN_TERMINAL_FINDINGS[integration]! : {};
  return findings.filter((f) => known[f.rule] === undefined);
}

export function terminalsCheck(integration: string, opts: TerminalOptions = {}): (events: unknown[]) => string | null {
  return (events) => {
    const left = unexcused(integration, judgeTerminals(events, opts));
    return left.length === 0 ? null : `terminals judge: ${renderTerminalFindings(left).join(' | ')}`;
  };
}
