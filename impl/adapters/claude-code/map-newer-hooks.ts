/**
 * Claude Code's newer hooks (2.1.10 onward: Setup, ConfigChange, Worktree*, InstructionsLoaded,
 * Cwd/FileChanged, MessageDisplay, Pre/PostModelSwitch, PostToolBatch, UserPromptExpansion,
 * DirectoryAdded, PreSkillShellCommand), pure. None has a fitting AEP-0002 core type (checked
 * against spec/registry.ts: none is a session, run, tool or attention lifecycle moment; a
 * MessageDisplay would be `message.agent.replied`, reserved with no 0.1 payload), so each takes
 * the mechanical fallback `x.claude-code.session.<snake_case(hook)>` carrying its useful fields:
 * structural tokens (ids, counts, model names, enum-like sources) at every level, and content
 * (paths, prompts, message text) only at `redacted`+, through the AEP-0003 §9.4 pipeline.
 * Unknown members of a payload are ignored, so new vendor fields never break a mapping.
 */
import { isPlainObject, type CaptureLevel } from '../../core/event.js';
import { levelFor, red } from '../../adapter-kit/capture.js';
import { put, snakeCase, str } from '../../adapter-kit/mapping.js';
import type { HookInput, Mapped, Posture } from '../../adapter-kit/types.js';
import { AGENT_NAME } from './agent.js';

const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);
const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);

/** Structural fields (copied when present) and content fields (gated) of each newer hook. */
const FIELDS: Readonly<Record<string, { plain?: readonly string[]; numbers?: readonly string[]; flags?: readonly string[]; content?: readonly string[] }>> = {
  Setup: { plain: ['trigger'] },
  ConfigChange: { plain: ['source'], content: ['file_path'] },
  WorktreeCreate: { content: ['name'] },
  WorktreeRemove: { content: ['worktree_path'] },
  InstructionsLoaded: { plain: ['memory_type', 'load_reason'], content: ['file_path', 'trigger_file_path', 'parent_file_path'] },
  CwdChanged: { content: ['old_cwd', 'new_cwd'] },
  FileChanged: { plain: ['event'], content: ['file_path'] },
  DirectoryAdded: { plain: ['source'], content: ['directory'] },
  MessageDisplay: { plain: ['turn_id', 'message_id'], numbers: ['index'], flags: ['final'], content: ['delta'] },
  PreModelSwitch: { plain: ['from_model', 'to_model', 'requested_model', 'source'], numbers: ['context_tokens'], flags: ['prompt_cache_warm'] },
  PostModelSwitch: { plain: ['from_model', 'to_model', 'requested_model', 'source'], numbers: ['context_tokens'], flags: ['prompt_cache_warm'] },
  UserPromptExpansion: { plain: ['expansion_type', 'command_name', 'command_source'], content: ['command_args', 'prompt'] },
  PreSkillShellCommand: { plain: ['command_name', 'command_source', 'invoked_by', 'tool_name', 'tool_use_id'] },
};

/** The newer hooks this module maps (which of them the example settings wire: wiring.ts). */
export const NEWER_HOOKS: readonly string[] = Object.freeze([...Object.keys(FIELDS), 'PostToolBatch']);

/** `tool_calls` of a PostToolBatch as structural refs: `{name, call_id?}` per call, in order. */
function batchCalls(calls: unknown): { name: string; call_id?: string }[] {
  if (!Array.isArray(calls)) return [];
  return calls.filter(isPlainObject).map((c) => {
    const ref: { name: string; call_id?: string } = { name: str(c.tool_name) ?? 'unknown' };
    const id = str(c.tool_use_id);
    if (id) ref.call_id = id;
    return ref;
  });
}

/** The mapping of a newer hook, or undefined when `hook` is not one of them. */
export function mapNewerHook(hook: string, input: HookInput, posture: Posture): Mapped | undefined {
  const type = `x.${AGENT_NAME}.session.${snakeCase(hook)}`;
  const level: CaptureLevel = levelFor(type, posture);
  const data: Record<string, unknown> = {};
  if (hook === 'PostToolBatch') {
    const calls = batchCalls(input.tool_calls);
    data.count = calls.length;
    data.tools = calls;
    return { type, data };
  }
  const fields = FIELDS[hook];
  if (!fields) return undefined;
  for (const key of fields.plain ?? []) put(data, key, str(input[key]));
  for (const key of fields.numbers ?? []) put(data, key, int(input[key]));
  for (const key of fields.flags ?? []) put(data, key, bool(input[key]));
  for (const key of fields.content ?? []) put(data, key, str(input[key]) && red(input[key] as string, level));
  if (hook === 'PreSkillShellCommand' && isPlainObject(input.tool_input)) put(data, 'command', str(input.tool_input.command) && red(input.tool_input.command as string, level));
  return { type, data };
}
