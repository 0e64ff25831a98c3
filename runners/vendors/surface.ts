/**
 * A vendor release's hook surface, from its captured hook payloads (pure): the hook names that
 * fired, the members of each hook's payloads with their JSON types (paths like
 * `tool_input.command`, array items as `[]`), and the shapes of the replies the vendor accepted
 * (the reply's members with their types, where the capture kept replies). `diffSurface` says
 * what a new release added, removed and changed against the pinned one; `usedChanges` keeps the
 * changes that touch what the adapter uses (a hook the pinned release fired, a member it sent).
 */

/** One captured hook call. */
export interface CapturedHook {
  scenario: string;
  hook: string;
  /** The payload's exact text (JSON). */
  payload: string;
  /** The reply the vendor got and accepted, when the capture kept it. */
  reply?: string;
}

export interface HookSurface {
  /** Member path → the JSON types seen there, sorted. */
  members: Record<string, string[]>;
  /** Reply shapes the vendor accepted: each a sorted list of `path:type`, joined by `, `; sorted. */
  replies: string[];
}

export type Surface = Record<string, HookSurface>;

export interface SurfaceChange {
  hook: string;
  /** Absent for a whole hook. */
  member?: string;
  change: 'added' | 'removed' | 'type';
  before?: string[];
  after?: string[];
}

export interface SurfaceDiff {
  addedHooks: string[];
  removedHooks: string[];
  /** Member and reply-shape changes of hooks both releases fired. */
  changes: SurfaceChange[];
}

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Every member path of a JSON value with its type (the root excluded). */
export function memberTypes(value: unknown, path = '', out = new Map<string, Set<string>>()): Map<string, Set<string>> {
  const add = (p: string, t: string) => {
    const set = out.get(p) ?? new Set<string>();
    set.add(t);
    out.set(p, set);
  };
  if (Array.isArray(value)) {
    for (const item of value) {
      const p = `${path}[]`;
      add(p, typeOf(item));
      memberTypes(item, p, out);
    }
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      const p = path ? `${path}.${k}` : k;
      add(p, typeOf(v));
      memberTypes(v, p, out);
    }
  }
  return out;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The shape of one reply: its members with their types, or `text` for a non-JSON reply, `empty` for none. */
export function replyShape(reply: string): string {
  if (reply.trim() === '') return 'empty';
  const v = parse(reply);
  if (v === undefined) return 'text';
  const members = [...memberTypes(v)].map(([p, ts]) => `${p}:${[...ts].sort().join('|')}`).sort();
  return members.length ? members.join(', ') : typeOf(v);
}

/** The surface of a capture set. */
export function surfaceOf(captures: readonly CapturedHook[]): Surface {
  const acc = new Map<string, { members: Map<string, Set<string>>; replies: Set<string> }>();
  for (const c of captures) {
    const entry = acc.get(c.hook) ?? { members: new Map<string, Set<string>>(), replies: new Set<string>() };
    acc.set(c.hook, entry);
    const v = parse(c.payload);
    if (v !== undefined) memberTypes(v, '', entry.members);
    if (c.reply !== undefined) entry.replies.add(replyShape(c.reply));
  }
  const out: Surface = {};
  for (const hook of [...acc.keys()].sort()) {
    const e = acc.get(hook)!;
    out[hook] = {
      members: Object.fromEntries([...e.members.keys()].sort().map((p) => [p, [...e.members.get(p)!].sort()])),
      replies: [...e.replies].sort(),
    };
  }
  return out;
}

/** What `next` added, removed and changed against `pinned`. */
export function diffSurface(pinned: Surface, next: Surface): SurfaceDiff {
  const before = Object.keys(pinned);
  const after = Object.keys(next);
  const changes: SurfaceChange[] = [];
  for (const hook of before.filter((h) => after.includes(h))) {
    const a = pinned[hook]!.members;
    const b = next[hook]!.members;
    for (const m of Object.keys(a)) {
      if (!(m in b)) changes.push({ hook, member: m, change: 'removed', before: a[m]! });
      else if (a[m]!.join('|') !== b[m]!.join('|')) changes.push({ hook, member: m, change: 'type', before: a[m]!, after: b[m]! });
    }
    for (const m of Object.keys(b)) if (!(m in a)) changes.push({ hook, member: m, change: 'added', after: b[m]! });
    // Reply shapes are compared only when both captures kept replies.
    const ra = pinned[hook]!.replies;
    const rb = next[hook]!.replies;
    if (ra.length && rb.length) {
      for (const r of ra) if (!rb.includes(r)) changes.push({ hook, member: `reply {${r}}`, change: 'removed' });
      for (const r of rb) if (!ra.includes(r)) changes.push({ hook, member: `reply {${r}}`, change: 'added' });
    }
  }
  return { addedHooks: after.filter((h) => !before.includes(h)), removedHooks: before.filter((h) => !after.includes(h)), changes };
}

/**
 * The changes that touch what the adapter uses: a hook the pinned release fired that no longer
 * fires, a member it sent that is gone or changed type, a reply shape it accepted that it no
 * longer does. Additions are news, not breakage.
 */
export function usedChanges(d: SurfaceDiff): SurfaceChange[] {
  return [...d.removedHooks.map((hook): SurfaceChange => ({ hook, change: 'removed' })), ...d.changes.filter((c) => c.change !== 'added')];
}

/** One line per change: `+ hook PostToolBatch`, `- PreToolUse.tool_input.description (string)`, `~ Stop.reason: string → null`. */
export function renderChanges(d: SurfaceDiff): string[] {
  const t = (ts?: string[]) => (ts ?? []).join('|');
  return [
    ...d.addedHooks.map((h) => `+ hook ${h}`),
    ...d.removedHooks.map((h) => `- hook ${h}`),
    ...d.changes.map((c) => (c.change === 'added' ? `+ ${c.hook}.${c.member}${c.after ? ` (${t(c.after)})` : ''}` : c.change === 'removed' ? `- ${c.hook}.${c.member}${c.before ? ` (${t(c.before)})` : ''}` : `~ ${c.hook}.${c.member}: ${t(c.before)} → ${t(c.after)}`)),
  ];
}
