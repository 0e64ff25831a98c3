/**
 * The operator's inbox, pure: which attention requests are still open across sessions, and
 * the exact `aep respond` command that answers each.
 */
import { DEFAULT_RELAY } from './relay-opts.js';

type Json = Record<string, unknown>;

export interface OpenRequest {
  /** The emitter of the request: with `session` and `id`, its identity. */
  source: string;
  session: string;
  id: string;
  agent: string;
  kind: string;
  prompt: string;
  options: string[];
  fields: string[];
  time: string;
  /** Whether the request says it can be answered over control (respond_via includes 'control', or absent). */
  controllable: boolean;
  /** Ready-to-paste commands, one per option (or one template for text and forms). */
  commands: string[];
}

const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});

/** Shell-quotes a word only when it needs it. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9._:/@%+=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * Open requests in stream order: requested, and not yet answered, resolved, timed out, or ended
 * with the session. Requests are keyed by (source, session, id): two sources sharing a session
 * name may mint the same ids (AEP-0001 §5.2, §7.4). A closing event's `subject` (a bare id)
 * closes its own source's request when there is one, else the request of that id in the session
 * (an answer recorded by another party); `session.ended` ends only its own source's session.
 */
export function openRequests(events: Json[], relay: string = DEFAULT_RELAY): OpenRequest[] {
  const open = new Map<string, Json>();
  const k = (source: unknown, session: unknown, id: unknown): string => `${String(source)}\u0000${String(session)}\u0000${String(id)}`;
  for (const e of events) {
    const type = e.type;
    if (type === 'attention.requested' && typeof e.id === 'string' && typeof e.session === 'string') open.set(k(e.source, e.session, e.id), e);
    else if (type === 'attention.answered' || type === 'attention.resolved' || type === 'attention.timeout') {
      if (typeof e.subject !== 'string') continue;
      if (!open.delete(k(e.source, e.session, e.subject))) {
        for (const [key, r] of open) if (r.session === e.session && r.id === e.subject) open.delete(key);
      }
    } else if (type === 'session.ended') {
      for (const [key, r] of open) if (r.session === e.session && r.source === e.source) open.delete(key);
    }
  }
  const relayFlag = relay.replace(/\/+$/, '') === DEFAULT_RELAY ? '' : ` --relay ${shellWord(relay)}`;
  return [...open.values()].map((e) => {
    const d = obj(e.data);
    const options = Array.isArray(d.options) ? d.options.map((o) => String(obj(o).id ?? '')).filter((s) => s !== '') : [];
    const fields = Array.isArray(d.fields) ? d.fields.map((f) => String(obj(f).id ?? '')).filter((s) => s !== '') : [];
    const head = `aep respond ${shellWord(e.session as string)} ${shellWord(e.id as string)}`;
    let commands: string[];
    if (options.length > 0) commands = options.map((o) => `${head} --option ${shellWord(o)}${relayFlag}`);
    else if (fields.length > 0) commands = [`${head} --values ${shellWord(JSON.stringify(Object.fromEntries(fields.map((f) => [f, '…']))))}${relayFlag}`];
    else commands = [`${head} --text 'your answer'${relayFlag}`];
    const via = Array.isArray(d.respond_via) ? d.respond_via : undefined;
    return {
      source: String(e.source),
      session: e.session as string,
      id: e.id as string,
      agent: String(e.agent ?? '-'),
      kind: String(d.kind ?? 'other'),
      prompt: typeof d.prompt === 'string' ? d.prompt : '',
      options,
      fields,
      time: String(e.time ?? ''),
      controllable: via === undefined || via.includes('control'),
      commands,
    };
  });
}

/** The human listing. */
export function renderInbox(reqs: OpenRequest[]): string {
  if (reqs.length === 0) return 'no open attention requests\n';
  const out: string[] = [`${reqs.length} open attention request${reqs.length === 1 ? '' : 's'}:`];
  for (const r of reqs) {
    out.push('', `${r.time}  ${r.agent}  session ${r.session}  [${r.kind}] ${JSON.stringify(r.prompt.replace(/\s+/g, ' ').slice(0, 160))}`);
    if (!r.controllable) out.push('  (this request is not answerable over control: answer it where the agent runs)');
    else for (const c of r.commands) out.push(`  ${c}`);
  }
  return `${out.join('\n')}\n`;
}
