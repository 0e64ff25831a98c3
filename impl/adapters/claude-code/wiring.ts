/**
 * Which Claude Code hooks the example settings wire, and why the others are left out. The two
 * example files (`settings.example.json`: http hooks straight to the daemon, the recommended
 * wiring; `settings.command.example.json`: the `aep hook` shim) wire exactly `WIRED`, and
 * settings.test.ts holds them to it. The README's adapter section states the same reasons.
 */

/** Hooks the adapter maps but the examples do not wire, each with the reason. */
export const UNWIRED: Readonly<Record<string, string>> = Object.freeze({
  WorktreeCreate: "Claude Code reads this hook's reply as the new worktree's path (stdout, or hookSpecificOutput.worktreePath over http): a neutral reply would make worktree creation fail, so an observer must never answer it",
  PreCompact: 'emits nothing: session.compacted is emitted once, at PostCompact (AEP-0002 §5.4), so the call would only cost time',
  DirectoryAdded: 'newer than the pinned Claude Code 2.1.197 (added in 2.1.219); add it by hand on a version that has the hook',
  PreModelSwitch: 'newer than the pinned Claude Code 2.1.197 (added in 2.1.251); add it by hand on a version that has the hook',
  PostModelSwitch: 'newer than the pinned Claude Code 2.1.197 (added in 2.1.251); add it by hand on a version that has the hook',
  PreSkillShellCommand: 'newer than the pinned Claude Code 2.1.197 (in the 2.1.332 types); add it by hand on a version that has the hook',
});

/** The hooks the examples wire, in the order they appear there. */
export const WIRED: readonly string[] = Object.freeze([
  'SessionStart', 'SessionEnd', 'UserPromptSubmit', 'UserPromptExpansion', 'Stop', 'StopFailure',
  'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'PermissionRequest', 'PermissionDenied',
  'Notification', 'SubagentStart', 'SubagentStop', 'PostCompact', 'Elicitation', 'ElicitationResult',
  'TaskCreated', 'TaskCompleted', 'TeammateIdle', 'Setup', 'InstructionsLoaded', 'ConfigChange',
  'CwdChanged', 'FileChanged', 'WorktreeRemove', 'MessageDisplay',
]);

/**
 * Hooks the http example still wires as a command hook (`aep hook claude-code <Event>`), each with
 * the reason: Claude Code does not dispatch them to `type:"http"` hooks.
 */
export const COMMAND_ONLY: Readonly<Record<string, string>> = Object.freeze({
  SessionStart: 'Claude Code 2.1.197 never calls an http SessionStart hook, in SDK mode or in the TUI, even with a daemon answering 200 (seen by the real-vendors lane; anthropics/claude-code#30170); a command hook fires',
});

/** Hooks held open for a person's answer: their timeout must outlast the daemon's hold window. */
export const HELD: readonly string[] = Object.freeze(['PermissionRequest', 'Elicitation']);

/** The hook timeouts the examples use, in seconds (Claude Code's `timeout` unit). */
export const HELD_TIMEOUT_S = 70;
export const TIMEOUT_S = 5;
