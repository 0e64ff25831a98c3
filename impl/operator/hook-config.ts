/**
 * Merging an adapter's example hook wiring into a vendor's hook configuration, pure.
 * Both vendors use JSON (`{"hooks": {"<Event>": [{"matcher"?, "hooks": [{type, url|command, timeout}]}]}}`),
 * which has no comments, so the block cannot be fenced: the merge is idempotent instead. A
 * group is present when any group of the same event already holds a hook with the same url or
 * command; everything else in the file (other hooks, other settings) is kept as it is.
 */

type Json = Record<string, unknown>;

const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined);

/** The identity of one hook entry: its url (http hooks) or command (command hooks). */
function hookKey(h: unknown): string | undefined {
  const o = obj(h);
  if (!o) return undefined;
  if (typeof o.url === 'string') return `url ${o.url}`;
  if (typeof o.command === 'string') return `command ${o.command}`;
  return undefined;
}

export interface MergeResult {
  ok: true;
  config: Json;
  /** `Event` names that got a group. */
  added: string[];
  /** `Event` names already wired. */
  present: string[];
}

export function mergeHooks(existing: unknown, example: unknown): MergeResult | { ok: false; error: string } {
  const base = existing === undefined ? {} : obj(existing);
  if (!base) return { ok: false, error: 'the file is not a JSON object' };
  if (base.hooks !== undefined && !obj(base.hooks)) return { ok: false, error: '"hooks" is not an object' };
  const wanted = obj(obj(example)?.hooks);
  if (!wanted) return { ok: false, error: 'the example has no "hooks" object' };
  const hooks: Json = { ...(obj(base.hooks) ?? {}) };
  const added: string[] = [];
  const present: string[] = [];
  for (const [event, groups] of Object.entries(wanted)) {
    const current = hooks[event];
    if (current !== undefined && !Array.isArray(current)) return { ok: false, error: `"hooks.${event}" is not an array` };
    const list = [...((current as unknown[] | undefined) ?? [])];
    const have = new Set(list.flatMap((g) => ((obj(g)?.hooks as unknown[] | undefined) ?? []).map(hookKey)).filter((k): k is string => k !== undefined));
    let changed = false;
    for (const g of (groups as unknown[]) ?? []) {
      const keys = ((obj(g)?.hooks as unknown[] | undefined) ?? []).map(hookKey);
      if (keys.length > 0 && keys.every((k) => k !== undefined && have.has(k))) continue;
      list.push(g);
      changed = true;
    }
    if (changed) {
      hooks[event] = list;
      added.push(event);
    } else present.push(event);
  }
  return { ok: true, config: { ...base, hooks }, added, present };
}
