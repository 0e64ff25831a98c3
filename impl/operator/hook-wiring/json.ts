/**
 * Hook wiring in a JSON settings file, pure: add our entries, remove exactly ours, keep the rest.
 *
 * JSON has no comments, so our entries cannot be fenced; they are known by their target instead
 * (the shim command for this vendor, or a loopback daemon's `/hook/<Event>` URL; see command.ts).
 * Three shapes occur:
 * - `groups` (Claude Code, Codex, Gemini CLI, Qwen Code): `{"hooks": {"<Event>": [{"matcher"?, "hooks": [handler]}]}}`;
 * - `flat` (VS Code): `{"hooks": {"<Event>": [handler]}}`;
 * - `block` (Antigravity): one named top-level member holds the whole wiring (`"aep-observer"`), so the member is ours.
 * Wiring removes our entries first, so a re-run (say on another port) replaces them instead of
 * adding a second set. Unwiring drops an event list, and the `hooks` object, that our removal left
 * empty. The text keeps the file's indentation, line ending and final newline.
 */

type Json = Record<string, unknown>;

export type JsonShape = { kind: 'groups' } | { kind: 'flat' } | { kind: 'block'; key: string };

/** Which handler is ours. */
export type IsOurs = (handler: Json) => boolean;

export interface JsonFormat {
  indent: string;
  eol: '\n' | '\r\n';
  finalNewline: boolean;
}

export type JsonResult = { ok: true; value: Json; text: string; removed: number; added: number } | { ok: false; error: string };

const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined);

/** The layout of an existing file (2 spaces, `\n`, a final newline for a new one). */
export function formatOf(text: string | undefined): JsonFormat {
  if (text === undefined || text.trim() === '') return { indent: '  ', eol: '\n', finalNewline: true };
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const m = /\n([ \t]+)\S/.exec(text.trim());
  return { indent: m ? m[1]! : '', eol, finalNewline: text.endsWith('\n') };
}

export function render(value: Json, f: JsonFormat): string {
  const body = JSON.stringify(value, null, f.indent);
  return `${f.eol === '\n' ? body : body.replaceAll('\n', '\r\n')}${f.finalNewline ? f.eol : ''}`;
}

/** The parsed file: `{}` for a missing or blank one, an error for anything but a JSON object. */
export function parseSettings(text: string | undefined): { ok: true; value: Json } | { ok: false; error: string } {
  if (text === undefined || text.trim() === '') return { ok: true, value: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `it is not valid JSON (${(err as Error).message}); fix it, or move it away, and run again` };
  }
  const o = obj(parsed);
  return o ? { ok: true, value: o } : { ok: false, error: 'it is not a JSON object; fix it, or move it away, and run again' };
}

/** `value` without our entries, and how many were removed. */
function strip(value: Json, shape: JsonShape, ours: IsOurs): { ok: true; value: Json; removed: number } | { ok: false; error: string } {
  if (shape.kind === 'block') {
    if (!Object.hasOwn(value, shape.key)) return { ok: true, value, removed: 0 };
    const { [shape.key]: _gone, ...rest } = value;
    return { ok: true, value: rest, removed: 1 };
  }
  if (value.hooks === undefined) return { ok: true, value, removed: 0 };
  const hooks = obj(value.hooks);
  if (!hooks) return { ok: false, error: '"hooks" is not an object; fix it and run again' };
  let removed = 0;
  const out: Json = {};
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) return { ok: false, error: `"hooks.${event}" is not an array; fix it and run again` };
    const kept: unknown[] = [];
    for (const entry of list) {
      const e = obj(entry);
      if (shape.kind === 'flat') {
        if (e && ours(e)) removed++;
        else kept.push(entry);
        continue;
      }
      const inner = e && Array.isArray(e.hooks) ? (e.hooks as unknown[]) : undefined;
      if (!e || !inner) {
        kept.push(entry);
        continue;
      }
      const mine = inner.filter((h) => obj(h) !== undefined && ours(obj(h)!));
      if (mine.length === 0) kept.push(entry);
      else if (mine.length === inner.length) removed += mine.length;
      else {
        removed += mine.length;
        kept.push({ ...e, hooks: inner.filter((h) => !mine.includes(h)) });
      }
    }
    if (kept.length > 0 || list.length === 0) out[event] = kept;
  }
  const { hooks: _old, ...rest } = value;
  if (Object.keys(out).length === 0 && removed > 0) return { ok: true, value: rest, removed };
  return { ok: true, value: { ...value, hooks: out }, removed };
}

/** The file with our wiring from `example` (already pointed at the right command and port), replacing any earlier one. */
export function wireJson(text: string | undefined, example: Json, shape: JsonShape, ours: IsOurs): JsonResult {
  const parsed = parseSettings(text);
  if (!parsed.ok) return parsed;
  const stripped = strip(parsed.value, shape, ours);
  if (!stripped.ok) return stripped;
  let value: Json;
  let added = 0;
  if (shape.kind === 'block') {
    if (!Object.hasOwn(example, shape.key)) return { ok: false, error: `the example has no "${shape.key}" member` };
    value = { ...stripped.value, [shape.key]: example[shape.key] };
    added = 1;
  } else {
    const wanted = obj(example.hooks);
    if (!wanted) return { ok: false, error: 'the example has no "hooks" object' };
    const hooks: Json = { ...(obj(stripped.value.hooks) ?? {}) };
    for (const [event, list] of Object.entries(wanted)) {
      const entries = Array.isArray(list) ? list : [];
      hooks[event] = [...((hooks[event] as unknown[] | undefined) ?? []), ...entries];
      added += entries.length;
    }
    value = { ...stripped.value, hooks };
  }
  return { ok: true, value, text: render(value, formatOf(text)), removed: stripped.removed, added };
}

/** The file without our wiring. `text` is `undefined` when the file was missing. */
export function unwireJson(text: string | undefined, shape: JsonShape, ours: IsOurs): JsonResult {
  const parsed = parseSettings(text);
  if (!parsed.ok) return parsed;
  const stripped = strip(parsed.value, shape, ours);
  if (!stripped.ok) return stripped;
  const out = stripped.removed === 0 ? (text ?? '') : render(stripped.value, formatOf(text));
  return { ok: true, value: stripped.value, text: out, removed: stripped.removed, added: 0 };
}

/** Structural equality of JSON values (member order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  const oa = obj(a);
  const ob = obj(b);
  if (!oa || !ob) return false;
  const ka = Object.keys(oa);
  return ka.length === Object.keys(ob).length && ka.every((k) => Object.hasOwn(ob, k) && sameJson(oa[k], ob[k]));
}

/**
 * The exact bytes to restore: the first backup (newest first) whose settings equal `value`, so
 * a file we changed gets its own formatting back; else `undefined`.
 */
export function originalBytes(value: Json, backups: readonly string[]): string | undefined {
  for (const text of backups) {
    const p = parseSettings(text);
    if (p.ok && text.trim() !== '' && sameJson(p.value, value)) return text;
  }
  return undefined;
}
