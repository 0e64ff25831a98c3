/**
 * A session's agent-owned state, pure, from its `state.snapshot` / `state.delta` events in
 * order (AEP-0002 §5.4), per state `key`. Honest by construction:
 * - a snapshot replaces the image; a snapshot whose `state` the capture ceiling withheld
 *   registers that state exists, with no value;
 * - a delta's RFC 6902 ops are applied when they are `add`, `replace` or `remove` and apply
 *   cleanly; `move`, `copy`, `test`, unknown ops and ops that do not apply are skipped and
 *   counted, never forced;
 * - a delta whose body the ceiling withheld is counted as gated (with `data.ops`, the number of
 *   operations, when the emitter gave it), never invented.
 */
type JsonValue = unknown;

export interface StateChannel {
  readonly key: string;
  /** The reconstructed image; undefined when none is known (never seen, or withheld). */
  value: JsonValue;
  /** A snapshot arrived whose body the ceiling withheld: state exists upstream, value unknown. */
  withheld: boolean;
  applied: number;
  skipped: number;
  /** Gated patches (bodies withheld), and the operations they declared in `data.ops`. */
  gatedPatches: number;
  gatedOps: number;
  rev: number | undefined;
}

const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

const clone = (v: JsonValue): JsonValue => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

/** RFC 6901: `""` is the whole document; `/a/b~1c` names a, then "b/c". */
function pointer(path: unknown): string[] | undefined {
  if (typeof path !== 'string') return undefined;
  if (path === '') return [];
  if (!path.startsWith('/')) return undefined;
  return path.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** One op against `doc`; the new document, or undefined when it does not apply (skipped). */
export function applyOp(doc: JsonValue, op: Record<string, unknown>): { ok: true; doc: JsonValue } | { ok: false } {
  const kind = op.op;
  if (kind !== 'add' && kind !== 'replace' && kind !== 'remove') return { ok: false };
  const path = pointer(op.path);
  if (!path) return { ok: false };
  if ((kind === 'add' || kind === 'replace') && !('value' in op)) return { ok: false };
  if (path.length === 0) return kind === 'remove' ? { ok: true, doc: undefined } : doc === undefined && kind === 'replace' ? { ok: false } : { ok: true, doc: clone(op.value) };
  if (doc === undefined) return { ok: false };
  const root = clone(doc);
  let parent: unknown = root;
  for (const t of path.slice(0, -1)) {
    if (Array.isArray(parent)) parent = /^(0|[1-9]\d*)$/.test(t) ? parent[Number(t)] : undefined;
    else if (typeof parent === 'object' && parent !== null && Object.hasOwn(parent, t)) parent = (parent as Record<string, unknown>)[t];
    else return { ok: false };
    if (typeof parent !== 'object' || parent === null) return { ok: false };
  }
  const last = path[path.length - 1]!;
  if (Array.isArray(parent)) {
    const end = kind === 'add' && last === '-';
    const i = end ? parent.length : /^(0|[1-9]\d*)$/.test(last) ? Number(last) : -1;
    if (i < 0 || i > parent.length || (kind !== 'add' && i >= parent.length)) return { ok: false };
    if (kind === 'add') parent.splice(i, 0, clone(op.value));
    else if (kind === 'replace') parent[i] = clone(op.value);
    else parent.splice(i, 1);
    return { ok: true, doc: root };
  }
  const o = parent as Record<string, unknown>;
  if (last === '__proto__') return { ok: false };
  if (kind !== 'add' && !Object.hasOwn(o, last)) return { ok: false };
  if (kind === 'remove') delete o[last];
  else Object.defineProperty(o, last, { value: clone(op.value), enumerable: true, writable: true, configurable: true });
  return { ok: true, doc: root };
}

/** The state channels of a session, from its events in order. */
export function stateOf(events: readonly Record<string, unknown>[]): StateChannel[] {
  const channels = new Map<string, StateChannel>();
  const channel = (key: string): StateChannel => {
    let c = channels.get(key);
    if (!c) channels.set(key, (c = { key, value: undefined, withheld: false, applied: 0, skipped: 0, gatedPatches: 0, gatedOps: 0, rev: undefined }));
    return c;
  };
  for (const e of events) {
    if (e.type !== 'state.snapshot' && e.type !== 'state.delta') continue;
    const d = obj(e.data);
    const c = channel(typeof d.key === 'string' ? d.key : '');
    if (typeof d.rev === 'number') c.rev = d.rev;
    if (e.type === 'state.snapshot') {
      if ('state' in d) (c.value = clone(d.state)), (c.withheld = false);
      else (c.value = undefined), (c.withheld = true);
      continue;
    }
    if (!Array.isArray(d.delta)) {
      c.gatedPatches++;
      if (typeof d.ops === 'number' && Number.isSafeInteger(d.ops) && d.ops >= 0) c.gatedOps += d.ops;
      continue;
    }
    for (const raw of d.delta) {
      const r = c.withheld ? { ok: false as const } : applyOp(c.value, obj(raw));
      if (r.ok) (c.value = r.doc), c.applied++;
      else c.skipped++;
    }
  }
  return [...channels.values()];
}
