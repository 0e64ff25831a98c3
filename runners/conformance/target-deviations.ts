/**
 * A `--target`'s documented deviations (`aep conformance --deviations FILE`): the pin members its
 * adapter deliberately does not follow, each with its reason (AEP-0002 Annex A: pins are SHOULDs,
 * a deviation is allowed when documented). A `pin` check failing only on declared members is
 * reported as "deviation (documented)", a skip excused by the file; an undeclared member fails.
 *
 * File: `{"<member>": "<reason>", ...}` or `{"deviations": [{"member": "...", "reason": "..."}]}`.
 * A member is `<source>/<entry>` (a whole mapping entry: `claude-code/elicitation`), with
 * `#<path>` for one member of it (`claude-code/elicitation#$.data.fields[0].label`, and every
 * member under that path), or `<agent>/<HookEvent>#reply` (a hook reply's meaning). Pure but for
 * `readTargetDeviations`.
 */
import { readFileSync } from 'node:fs';

export type TargetDeviations = ReadonlyMap<string, string>;

/** Parses the file's text; throws an Error saying what is wrong and how to write it. */
export function parseTargetDeviations(text: string, path: string): TargetDeviations {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`--deviations ${path}: malformed JSON (${(err as Error).message}); expected {"<pin member>": "<reason>", ...}`);
  }
  const out = new Map<string, string>();
  const add = (member: unknown, reason: unknown, where: string): void => {
    if (typeof member !== 'string' || !/^[^/#\s]+\/[^#]+(#.+)?$/.test(member)) throw new Error(`--deviations ${path}: ${where} names no pin member; write "<source>/<entry>" or "<source>/<entry>#<path>", e.g. "claude-code/elicitation#$.data.prompt"`);
    if (typeof reason !== 'string' || reason.trim() === '') throw new Error(`--deviations ${path}: "${member}" needs its reason (a non-empty string): a deviation is excused only when documented`);
    out.set(member, reason);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`--deviations ${path}: expected a JSON object {"<pin member>": "<reason>", ...}`);
  const list = (value as Record<string, unknown>).deviations;
  if (Array.isArray(list)) {
    list.forEach((d, i) => add((d as Record<string, unknown> | null)?.member, (d as Record<string, unknown> | null)?.reason, `deviations[${i}]`));
    return out;
  }
  for (const [member, reason] of Object.entries(value)) if (!member.startsWith('$')) add(member, reason, `"${member}"`);
  return out;
}

export function readTargetDeviations(path: string): TargetDeviations {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read the deviations file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return parseTargetDeviations(text, path);
}

/** The declared member excusing `member` (itself, its entry, or a path above it), with its reason; undefined when undeclared. */
export function declaredDeviation(deviations: TargetDeviations | undefined, member: string): { member: string; reason: string } | undefined {
  if (!deviations) return undefined;
  for (const [declared, reason] of deviations) {
    if (member === declared) return { member: declared, reason };
    const [entry] = member.split('#');
    if (declared === entry) return { member: declared, reason };
    if (declared.includes('#') && (member.startsWith(`${declared}.`) || member.startsWith(`${declared}[`))) return { member: declared, reason };
  }
  return undefined;
}
