/**
 * The operator's readable line: one event, one line, pure.
 *   HH:MM:SS.mmm  agent  session  epoch:seq  type  summary
 * Unknown shapes never throw: anything missing renders as '-'.
 */

type Json = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});

/** Newlines and control characters flattened, long text cut: a line stays one terminal line. */
export function oneLine(text: string, max = 120): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function clock(time: unknown): string {
  if (typeof time !== 'string') return '--:--:--.---';
  const d = new Date(time);
  return Number.isNaN(d.getTime()) ? '--:--:--.---' : d.toISOString().slice(11, 23);
}

export function position(e: Json): string {
  if (typeof e.seq !== 'number') return '-';
  return `${typeof e.epoch === 'number' ? e.epoch : 0}:${e.seq}`;
}

/** A short, type-aware summary of what happened. */
export function summary(e: Json): string {
  const d = obj(e.data);
  const type = String(e.type ?? '');
  const parts: string[] = [];
  const run = str(e.run);
  if (type.startsWith('tool.')) {
    const tool = str(d.tool) ?? str(obj(d.tool).name) ?? str(d.name) ?? str(e.subject);
    if (tool) parts.push(tool);
    if (type === 'tool.failed' && (str(d.error) ?? str(obj(d.error).message))) parts.push(`error: ${str(d.error) ?? str(obj(d.error).message)}`);
  } else if (type === 'attention.requested') {
    parts.push(`[${str(d.kind) ?? '?'}]`);
    if (str(d.prompt)) parts.push(JSON.stringify(oneLine(d.prompt as string, 80)));
    if (Array.isArray(d.options)) parts.push(`options: ${d.options.map((o) => str(obj(o).id) ?? '?').join('/')}`);
    parts.push(`request ${String(e.id)}`);
  } else if (type.startsWith('attention.')) {
    if (str(e.subject)) parts.push(`request ${e.subject as string}`);
    const answer = obj(d.answer);
    if (str(answer.option)) parts.push(`option ${answer.option as string}`);
    else if (typeof answer.text === 'string') parts.push('text answer');
    else if (answer.values !== undefined) parts.push('form values');
    if (str(d.resolution)) parts.push(d.resolution as string);
  } else if (type === 'control.rejected') {
    parts.push(`nack ${str(d.reason) ?? '?'}${str(d.detail) ? `: ${oneLine(d.detail as string, 60)}` : ''}`);
    if (str(e.cause)) parts.push(`of ${e.cause as string}`);
  } else if (type.startsWith('control.')) {
    if (type === 'control.cancel') parts.push(`scope ${str(d.scope) ?? (run ? 'run' : 'session')}`);
    if (type === 'control.attention.respond') parts.push(`answers ${str(e.subject) ?? '?'}`);
    if (str(e.cause) && type === 'control.accepted') parts.push(`ack of ${e.cause as string}`);
  } else if (type === 'session.ended' && str(d.reason)) parts.push(d.reason as string);
  else if (type === 'run.failed' && str(obj(d.error).message)) parts.push(oneLine(obj(d.error).message as string, 60));
  if (run && !type.startsWith('session.')) parts.push(`run ${run}`);
  const sev = str(e.severity);
  if (sev && sev !== 'info') parts.push(`(${sev})`);
  return oneLine(parts.join(' '), 160);
}

/** The line `aep tail` and `aep timeline` print for one event (no newline). */
export function formatEvent(e: Json): string {
  return [clock(e.time), str(e.agent) ?? '-', str(e.session) ?? '-', position(e), String(e.type ?? '?'), summary(e)]
    .map((c) => oneLine(c, 160))
    .join('  ')
    .trimEnd();
}
