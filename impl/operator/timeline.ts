/**
 * A session's history, pure: deduped on (source, id), ordered by (epoch, seq) with unsequenced
 * events (commands) placed by time, and the causal tree drawn from `cause` links.
 */
import { formatEvent } from './format.js';

type Json = Record<string, unknown>;

const key = (e: Json): string => `${String(e.source)}\u0000${String(e.id)}`;
const ms = (e: Json): number => {
  const t = typeof e.time === 'string' ? Date.parse(e.time) : NaN;
  return Number.isNaN(t) ? 0 : t;
};

/** Dedupes and orders one session's events. */
export function order(events: Json[]): Json[] {
  const seen = new Set<string>();
  const unique = events.filter((e) => {
    const k = key(e);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  const seqd = unique.filter((e) => typeof e.seq === 'number');
  seqd.sort((a, b) => ((a.epoch as number) ?? 0) - ((b.epoch as number) ?? 0) || (a.seq as number) - (b.seq as number));
  const loose = unique.filter((e) => typeof e.seq !== 'number').sort((a, b) => ms(a) - ms(b));
  const out: Json[] = [];
  let j = 0;
  for (const e of seqd) {
    while (j < loose.length && ms(loose[j]!) < ms(e)) out.push(loose[j++]!);
    out.push(e);
  }
  while (j < loose.length) out.push(loose[j++]!);
  return out;
}

export interface TreeNode {
  event: Json;
  children: TreeNode[];
}

/**
 * Roots are events whose `cause` is absent or not in the set; everything else hangs under its
 * cause. A `cause` is a bare id (AEP-0001 §7.4): it resolves to the event of the same source
 * first (two sources sharing a session name may mint the same ids), and only then to another
 * source's event with that id (an ack's cause is the command, sent by someone else).
 */
export function causalTree(ordered: Json[]): TreeNode[] & { all?: TreeNode[] } {
  const byKey = new Map<string, TreeNode>();
  const byId = new Map<string, TreeNode>();
  const nodes = ordered.map((event) => ({ event, children: [] as TreeNode[] }));
  for (const n of nodes) {
    if (typeof n.event.id !== 'string') continue;
    if (!byKey.has(key(n.event))) byKey.set(key(n.event), n);
    if (!byId.has(n.event.id)) byId.set(n.event.id, n);
  }
  const roots: TreeNode[] & { all?: TreeNode[] } = [];
  roots.all = nodes;
  for (const n of nodes) {
    const cause = n.event.cause;
    const parent = typeof cause === 'string' ? (byKey.get(key({ source: n.event.source, id: cause })) ?? byId.get(cause)) : undefined;
    if (parent && parent !== n) parent.children.push(n);
    else roots.push(n);
  }
  return roots;
}

/** The tree as terminal lines: `├─ `/`└─ ` branches, `│  ` rails. A cycle is drawn once. */
export function drawTree(roots: TreeNode[], line: (e: Json) => string = dagLine, all: TreeNode[] = []): string[] {
  const out: string[] = [];
  const drawn = new Set<TreeNode>();
  const walk = (n: TreeNode, prefix: string, last: boolean, top: boolean): void => {
    if (drawn.has(n)) return;
    drawn.add(n);
    out.push(top ? line(n.event) : `${prefix}${last ? '└─ ' : '├─ '}${line(n.event)}`);
    const next = top ? '' : `${prefix}${last ? '   ' : '│  '}`;
    n.children.forEach((c, i) => walk(c, next, i === n.children.length - 1, false));
  };
  for (const r of roots) walk(r, '', true, true);
  // Events on a cause cycle have no root above them: drawn last, never lost.
  for (const n of all.length > 0 ? all : ((roots as { all?: TreeNode[] }).all ?? [])) if (!drawn.has(n)) walk(n, '', true, true);
  return out;
}

/** A compact line for the tree: position, type, summary (the session is the same for all). */
export function dagLine(e: Json): string {
  const full = formatEvent(e).split('  ');
  // time agent session position type summary...
  return [full[3], full[4], ...full.slice(5)].filter((s) => s !== undefined && s !== '').join('  ');
}
