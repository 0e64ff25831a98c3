/**
 * `aep conformance --lint-corpus`: problems of a corpus that no run shows, because the payload
 * schemas are open and an adapter maps what it is given. Two kinds, each a finding with a stable
 * rule id, the file, a JSON path and a message saying how to fix it:
 * - `lint.pin.undeclared-member`: a pin (`expected`, `deltas_expected`, `companion`, `primary` of
 *   a mapping file) whose `data` carries a member its type's schema does not declare, at any depth
 *   the schema describes (a renamed member is caught here: an open schema accepts it);
 * - `lint.mapping.unlisted-hook`: an entry of a hook adapter's `hooks` section for a hook its
 *   descriptor does not list (the hooks its example configurations wire, its steering and form
 *   moments, and its per-hook neutral replies).
 * Pure, but for `lintCorpus`, which reads the files.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Descriptor } from '../../impl/integrations/descriptor.js';
import { schemaForType } from '../../impl/core/payload.js';
import { lookupType } from '../../spec/registry.js';
import { mappingSources } from './families/mappings.js';

export interface LintFinding {
  rule: 'lint.pin.undeclared-member' | 'lint.mapping.unlisted-hook';
  /** Relative to the corpus root: `mappings/codex.json`. */
  file: string;
  /** JSON path inside the file. */
  path: string;
  message: string;
}

export interface LintResult {
  findings: LintFinding[];
  /** One line per mapping file the hook rule could not judge, saying why. */
  notes: string[];
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const member = (path: string, key: string | number) =>
  typeof key === 'number' ? `${path}[${key}]` : /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;

/** The pin members of a mapping file: where the corpus says what an implementation must produce. */
const PIN_KEYS = new Set(['expected', 'deltas_expected', 'companion', 'primary']);

/** Every `{type, data}` pin under a pin member, with its path. */
function pins(value: unknown, path: string, inPin: boolean, out: { path: string; type: string; data: unknown }[]): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => pins(v, member(path, i), inPin, out));
    return;
  }
  if (!isObject(value)) return;
  if (inPin && typeof value.type === 'string' && 'data' in value) {
    out.push({ path: member(path, 'data'), type: value.type, data: value.data });
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    if (k.startsWith('$')) continue;
    pins(v, member(path, k), inPin || PIN_KEYS.has(k), out);
  }
}

/** The members a schema node declares (`properties`, through `allOf`/`anyOf`/`oneOf`); undefined when it does not say (no `properties` anywhere). */
function declared(schema: unknown): Map<string, unknown[]> | undefined {
  if (!isObject(schema)) return undefined;
  const out = new Map<string, unknown[]>();
  let says = false;
  if (isObject(schema.properties)) {
    says = true;
    for (const [k, v] of Object.entries(schema.properties)) out.set(k, [...(out.get(k) ?? []), v]);
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    for (const sub of list) {
      const inner = declared(sub);
      if (inner === undefined) continue;
      says = true;
      for (const [k, v] of inner) out.set(k, [...(out.get(k) ?? []), ...v]);
    }
  }
  // patternProperties or a schema for additional members: any name may be declared; do not judge names.
  if (isObject(schema.patternProperties) || isObject(schema.additionalProperties)) return undefined;
  return says ? out : undefined;
}

/** The item schemas of an array schema node. */
function itemSchemas(schema: unknown): unknown[] {
  if (!isObject(schema)) return [];
  const own = schema.items !== undefined && typeof schema.items !== 'boolean' ? [schema.items] : [];
  const subs = ['allOf', 'anyOf', 'oneOf'].flatMap((k) => (Array.isArray(schema[k]) ? (schema[k] as unknown[]).flatMap(itemSchemas) : []));
  return [...own, ...subs];
}

/** Members of `data` (recursively, where the schema describes them) that the schema does not declare. */
export function undeclaredMembers(data: unknown, schemas: readonly unknown[], path: string): { path: string; key: string; known: string[] }[] {
  const out: { path: string; key: string; known: string[] }[] = [];
  if (isObject(data)) {
    const maps = schemas.map(declared);
    if (maps.some((m) => m === undefined)) return out; // one alternative says nothing: any member may be right
    const merged = new Map<string, unknown[]>();
    for (const m of maps as Map<string, unknown[]>[]) for (const [k, v] of m) merged.set(k, [...(merged.get(k) ?? []), ...v]);
    if (merged.size === 0 && maps.length === 0) return out;
    for (const [k, v] of Object.entries(data)) {
      const sub = merged.get(k);
      if (sub === undefined) out.push({ path: member(path, k), key: k, known: [...merged.keys()] });
      else out.push(...undeclaredMembers(v, sub, member(path, k)));
    }
  } else if (Array.isArray(data)) {
    const items = schemas.flatMap(itemSchemas);
    if (items.length > 0) data.forEach((v, i) => out.push(...undeclaredMembers(v, items, member(path, i))));
  }
  return out;
}

/** The pin findings of one mapping file's parsed content. */
export function pinFindings(file: string, content: unknown, schemaOf: (type: string) => unknown = schemaForType): LintFinding[] {
  const found: { path: string; type: string; data: unknown }[] = [];
  pins(content, '$', false, found);
  const out: LintFinding[] = [];
  for (const pin of found) {
    if (lookupType(pin.type) === undefined) continue; // an unregistered type has its own rule (the validators')
    const schema = schemaOf(pin.type);
    if (schema === undefined) continue;
    for (const u of undeclaredMembers(pin.data, [schema], pin.path)) {
      const known = u.known.length ? `declared here: ${u.known.join(', ')}` : 'it declares no member here';
      out.push({
        rule: 'lint.pin.undeclared-member',
        file,
        path: u.path,
        message: `the ${pin.type} schema does not declare "${u.key}" (${known}); a renamed or misspelt member? Fix the pin, or declare the member in the schema (an x_-prefixed name marks a vendor extension)`,
      });
    }
  }
  return out;
}

/** The hook names a descriptor lists: those its example configurations wire, plus its steering, form and neutral-reply moments. */
export function descriptorHooks(d: Descriptor, readConfig: (rel: string) => { kind: 'dir'; names: string[] } | { kind: 'file'; text: string } | undefined): string[] | undefined {
  // A form moment may name its hook in parentheses: `AskUserQuestion (PermissionRequest)`.
  const forms = d.forms.flatMap((f) => f.split(/[()]/).map((p) => p.trim()).filter(Boolean));
  const names = new Set<string>([...d.steering, ...forms, ...Object.keys(d.neutral?.byHook ?? {})]);
  let wired = false;
  for (const rel of d.configs) {
    const got = readConfig(rel);
    if (got === undefined) continue;
    if (got.kind === 'dir') {
      got.names.forEach((n) => names.add(n));
      wired = true;
    } else if (rel.endsWith('.json')) {
      const hooks = hooksObject(safeParse(got.text));
      if (hooks) {
        Object.keys(hooks).forEach((n) => names.add(n));
        wired = true;
      }
    }
  }
  return wired ? [...names] : undefined;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The first object member named `hooks`, breadth first. */
function hooksObject(value: unknown): Obj | undefined {
  const queue: unknown[] = [value];
  while (queue.length) {
    const v = queue.shift();
    if (!isObject(v)) continue;
    if (isObject(v.hooks)) return v.hooks;
    queue.push(...Object.values(v));
  }
  return undefined;
}

/** The hook an entry is for: its `hook` member, the hook name its input carries, or its label before ` (`. */
export function entryHook(label: string, entry: unknown): string {
  if (isObject(entry)) {
    if (typeof entry.hook === 'string') return entry.hook;
    const input = entry.input;
    if (isObject(input)) {
      for (const k of ['hook_event_name', 'hookEventName', 'hook_name', 'hookName']) if (typeof input[k] === 'string') return input[k] as string;
    }
  }
  return label.split(' (')[0]!;
}

/** The hook findings of one hook adapter's mapping file. */
export function hookFindings(file: string, content: unknown, integration: string, hooks: readonly string[]): LintFinding[] {
  if (!isObject(content) || !isObject(content.hooks)) return [];
  const listed = new Set(hooks);
  const out: LintFinding[] = [];
  for (const [label, entry] of Object.entries(content.hooks)) {
    if (label.startsWith('$')) continue;
    const hook = entryHook(label, entry);
    if (listed.has(hook)) continue;
    out.push({
      rule: 'lint.mapping.unlisted-hook',
      file,
      path: member('$.hooks', label),
      message: `hook "${hook}" is not listed by the ${integration} descriptor (its example configurations wire ${[...listed].sort().join(', ')}); wire it in the example configuration, or drop the entry`,
    });
  }
  return out;
}

function readConfigAt(root: string): (rel: string) => { kind: 'dir'; names: string[] } | { kind: 'file'; text: string } | undefined {
  return (rel) => {
    const path = join(root, rel);
    try {
      if (statSync(path).isDirectory()) return { kind: 'dir', names: readdirSync(path).filter((n) => !n.startsWith('.')) };
      return { kind: 'file', text: readFileSync(path, 'utf8') };
    } catch {
      return undefined;
    }
  };
}

/** Lints every mapping file of a corpus against the schemas and the descriptors (read from `packageDir`). */
export function lintCorpus(corpusDir: string, descriptors: readonly Descriptor[], packageDir: string): LintResult {
  const findings: LintFinding[] = [];
  const notes: string[] = [];
  const read = readConfigAt(packageDir);
  for (const source of mappingSources(corpusDir)) {
    const file = `mappings/${source}.json`;
    let content: unknown;
    try {
      content = JSON.parse(readFileSync(join(corpusDir, file), 'utf8'));
    } catch (err) {
      notes.push(`${file}: not linted: ${(err as Error).message}`);
      continue;
    }
    findings.push(...pinFindings(file, content));
    if (!isObject(content) || !isObject(content.hooks)) continue;
    const d = descriptors.find((x) => x.kind === 'adapter' && x.name === source);
    if (d === undefined) {
      notes.push(`${file}: hooks not held to a descriptor: no adapter is named ${source}`);
      continue;
    }
    const hooks = descriptorHooks(d, read);
    if (hooks === undefined) notes.push(`${file}: hooks not held to a descriptor: the ${source} descriptor's configurations (${d.configs.join(', ') || 'none'}) wire no hook this lint can read`);
    else findings.push(...hookFindings(file, content, source, hooks));
  }
  if (!existsSync(join(corpusDir, 'mappings'))) notes.push('no mappings/ folder in the corpus: nothing to lint');
  return { findings, notes };
}

/** `mappings/codex.json $.hooks.Stop.expected.data.origin [lint.pin.undeclared-member] message` */
export function renderFinding(f: LintFinding): string {
  return `${f.file} ${f.path} [${f.rule}] ${f.message}`;
}
