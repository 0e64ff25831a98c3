/**
 * What a lane says at a glance, pure: the current run (and whether it is paused), the tool in
 * progress with its subject, and the last outcome, from the lane's events in arrival order.
 */
import { obj, type Json, type Lane } from './model.js';

export interface LaneSummary {
  /** `running`, `paused`, `cancelled`, `failed`, `completed`, `ended` or `idle`. */
  readonly status: string;
  readonly run: string | undefined;
  /** The tool call in progress: name and subject (the path, command or call the tool is about). */
  readonly tool: { name: string; subject: string | undefined } | undefined;
  readonly lastOutcome: string | undefined;
}

const TOOL_END = /^tool\.(completed|failed|denied)$/;
const RUN_END: Record<string, string> = { 'run.completed': 'completed', 'run.finished': 'completed', 'run.failed': 'failed', 'run.cancelled': 'cancelled' };

const toolName = (e: Json): string => String(obj(obj(e.data).tool).name ?? 'a tool');
const callKey = (e: Json): string => String(obj(obj(e.data).tool).call_id ?? e.subject ?? toolName(e));

/** A tool call's subject: the envelope `subject`, else what its redacted arguments name (path, command, url). */
function subjectOf(e: Json): string | undefined {
  const args = obj(obj(e.data).args_redacted ?? obj(e.data).args);
  for (const k of ['file_path', 'path', 'command', 'url', 'pattern', 'query']) if (typeof args[k] === 'string') return args[k] as string;
  // An envelope subject that only repeats the tool's name says nothing more.
  return typeof e.subject === 'string' && e.subject !== toolName(e) ? e.subject : undefined;
}

export function summarize(lane: Lane): LaneSummary {
  const open = new Map<string, Json>();
  let last: string | undefined;
  for (const item of lane.items) {
    if (item.kind !== 'event') continue;
    const e = item.event;
    const type = String(e.type ?? '');
    if (type === 'tool.requested' || type === 'tool.started') open.set(callKey(e), e);
    else if (TOOL_END.test(type)) {
      open.delete(callKey(e));
      last = `${toolName(e)} ${type.slice('tool.'.length)}`;
    } else if (RUN_END[type]) {
      open.clear();
      last = `run ${String(e.run ?? '')} ${RUN_END[type]}`;
    } else if (type === 'attention.resolved') last = `request ${String(obj(e.data).resolution ?? 'resolved')}`;
  }
  const tool = [...open.values()].at(-1);
  const status = lane.openRun ? (lane.paused ? 'paused' : 'running') : lane.ended ? 'ended' : lane.lastRunEnd ? (RUN_END[lane.lastRunEnd.type] ?? 'idle') : 'idle';
  return {
    status,
    run: lane.openRun ?? lane.lastRunEnd?.run,
    tool: tool && !lane.ended ? { name: toolName(tool), subject: subjectOf(tool) } : undefined,
    lastOutcome: last,
  };
}
