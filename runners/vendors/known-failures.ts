/**
 * Problems known to come from a defect outside the lane (an adapter, its example file, a vendor
 * limitation), each with the reason and the suggested fix. An entry excuses the problems of
 * its vendor and scenarios (`'*'` = every scenario of the vendor) that match `match`:
 * - a scenario whose every problem is excused is reported as skipped, with the reasons;
 * - a problem no entry matches still fails the scenario;
 * - an entry that excuses nothing in a run where its scenarios ran is a failure ("remove it"),
 *   so the list cannot go stale.
 * The lead removes entries as the fixes land.
 */
import type { Vendor } from './versions.js';

export interface KnownFailure {
  vendor: Vendor;
  /** Scenario names, or '*' for all of the vendor's scenarios. */
  scenarios: readonly string[] | '*';
  /** The problems this entry excuses. */
  match: RegExp;
  /** What the binary did, what is wrong and where, and the suggested fix. */
  reason: string;
}

export const KNOWN_FAILURES: readonly KnownFailure[] = [
  {
    vendor: 'codex',
    scenarios: ['tool-fails'],
    match: /^event tool\.failed \(|^event tool\.completed reached the relay/,
    reason:
      "Codex 0.171.0's PostToolUse carries the command's output as a plain string (tool_response) with no exit code, so the adapter cannot tell a failed command from a successful one and emits tool.completed; a vendor limitation (the rollout file at transcript_path records the exit code, if the adapter wants to read it)",
  },
  {
    vendor: 'qwen-code',
    scenarios: '*',
    match: /^hook SessionEnd \(|^event session\.ended \(/,
    reason:
      "Qwen Code 0.24.4 fires SessionEnd only from its interactive UI (prompt_input_exit), /clear and ACP, never in the headless modes (-p or SDK stream-json, the only headless mode where PermissionRequest fires): the session's end never reaches the adapter, so no session.ended; a vendor limitation (the TUI under tmux would fire it)",
  },
];

/** The entries that apply to one scenario run. */
export function entriesFor(vendor: Vendor, scenario: string, list: readonly KnownFailure[] = KNOWN_FAILURES): KnownFailure[] {
  return list.filter((k) => k.vendor === vendor && (k.scenarios === '*' || k.scenarios.includes(scenario)));
}

/** Split problems into excused (with the entry) and unexcused. */
export function excuse(problems: readonly string[], entries: readonly KnownFailure[]): { excused: { problem: string; entry: KnownFailure }[]; open: string[] } {
  const excused: { problem: string; entry: KnownFailure }[] = [];
  const open: string[] = [];
  for (const problem of problems) {
    const entry = entries.find((k) => k.match.test(problem));
    if (entry) excused.push({ problem, entry });
    else open.push(problem);
  }
  return { excused, open };
}

/** Entries that applied to a run's scenarios but excused nothing: the defect looks fixed. */
export function staleEntries(applicable: Iterable<KnownFailure>, used: ReadonlySet<KnownFailure>): KnownFailure[] {
  return [...applicable].filter((k) => !used.has(k));
}
