/**
 * Whether a package's `engines.node` range admits a Node version, for the forms npm packages
 * write (`>=18`, `>= 22.x`, `^18.19.0 || >=20.6.0`, `~20.1`, `20.x`, `>=14 <23`). Pure; a range
 * it cannot read is reported as such, never guessed.
 */

type V = [number, number, number];

function parseVersion(s: string): { v: V; wild: number } | undefined {
  const m = /^v?(\d+|x|\*)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?$/i.exec(s.trim());
  if (!m) return undefined;
  const parts = [m[1], m[2], m[3]];
  const wildAt = parts.findIndex((p) => p === undefined || /^[x*]$/i.test(p));
  const v = parts.map((p) => (p === undefined || /^[x*]$/i.test(p) ? 0 : Number(p))) as V;
  return { v, wild: wildAt < 0 ? 3 : wildAt };
}

const cmp = (a: V, b: V): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** One comparator set (space-separated, all must hold); undefined when it cannot be read. */
function admitsSet(set: string, node: V): boolean | undefined {
  const tokens = set.trim().replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1').split(/\s+/).filter(Boolean);
  if (tokens.length === 0 || (tokens.length === 1 && tokens[0] === '*')) return true;
  for (const t of tokens) {
    const m = /^(>=|<=|>|<|=|\^|~)?(.*)$/.exec(t)!;
    const op = m[1] ?? '';
    const p = parseVersion(m[2]!);
    if (!p) return undefined;
    const { v, wild } = p;
    // the first version above a partial one: 22.x → 23.0.0, 22.3.x → 22.4.0 (none for a bare `*`)
    const above: V | undefined = wild === 0 ? undefined : wild === 1 ? [v[0] + 1, 0, 0] : wild === 2 ? [v[0], v[1] + 1, 0] : undefined;
    let ok: boolean;
    if (op === '>=') ok = cmp(node, v) >= 0;
    else if (op === '>') ok = wild < 3 ? (above === undefined ? false : cmp(node, above) >= 0) : cmp(node, v) > 0;
    else if (op === '<=') ok = wild < 3 ? (above === undefined ? true : cmp(node, above) < 0) : cmp(node, v) <= 0;
    else if (op === '<') ok = cmp(node, v) < 0;
    else if (op === '^') ok = cmp(node, v) >= 0 && (v[0] !== 0 ? node[0] === v[0] : node[0] === 0 && node[1] === v[1]);
    else if (op === '~') ok = cmp(node, v) >= 0 && node[0] === v[0] && (wild < 2 || node[1] === v[1]);
    else ok = wild === 0 || (node[0] === v[0] && (wild <= 1 || node[1] === v[1]) && (wild <= 2 || node[2] === v[2]));
    if (!ok) return false;
  }
  return true;
}

/** Whether `range` admits Node `version` ("20.19.0"); undefined when the range cannot be read. */
export function engineAdmits(range: string, version: string): boolean | undefined {
  const node = parseVersion(version)?.v;
  if (!node) return undefined;
  let unreadable = false;
  for (const set of range.split('||')) {
    const r = admitsSet(set, node);
    if (r === true) return true;
    if (r === undefined) unreadable = true;
  }
  return unreadable ? undefined : false;
}

/** The lowest version a `>=X.Y[.Z]` range admits (the project's own `engines.node`). */
export function lowestAdmitted(range: string): string | undefined {
  // `>=X.Y.Z`, `^X.Y.Z`, or alternatives of those (`^22.12.0 || ^24.0.0`): the lowest lower bound.
  let lowest: V | undefined;
  for (const alt of range.split('||')) {
    const m = /^\s*(?:>=|\^)\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(alt);
    if (!m) return undefined;
    const v: V = [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)];
    if (lowest === undefined || cmp(v, lowest) < 0) lowest = v;
  }
  return lowest === undefined ? undefined : lowest.join('.');
}
