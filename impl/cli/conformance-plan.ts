/**
 * `aep conformance`, decided before anything is done (pure): which families and cases a run
 * selects, where its outputs go, which targets it certifies, and the `run` record of its report.
 * Each step returns data or an `Issue` (the verb turns one into its usage error); the verb
 * (conformance.ts) does the I/O in between, in the order the checks have always been made.
 */
import { resolve } from 'node:path';
import { issue, type Issue } from '../core/issue.js';
import type { BaselineScope } from '../../runners/conformance/baseline.js';
import type { Profile } from '../../runners/conformance/report.js';
import { parseTarget, type ExternalTarget } from '../../runners/live/external.js';

type Values = Record<string, unknown>;

const SECTION = 'aep conformance --help';
const usage = (flag: string, message: string): Issue => issue(`cli.conformance.${flag}`, SECTION, `$.--${flag}`, message);

/** Whether check `name` is selected by `--case` value `sel` (exact, or `sel` is a `/`-prefix of it). */
export const caseMatches = (name: string, sel: string): boolean => name === sel || name.startsWith(sel.endsWith('/') ? sel : `${sel}/`);

/** The offline family a case name belongs to (`live/mappings/x` → `mappings`). */
export function familyOfCase(name: string): string {
  const parts = name.split('/');
  return parts[0] === 'live' && parts.length > 1 ? parts[1]! : parts[0]!;
}

/** What a run selects: family names, `--case` values, and how the families are found. */
export interface Selection {
  /** `--require-revision`, checked for form. */
  required?: string;
  /** `--case` values, trimmed. */
  cases: string[];
  /** The families named (flags, positionals, or the families of the `--case` values). */
  wanted: string[];
  wantsLive: boolean;
  /** A `--target` run selects by name, corpus or not (not for `--list`). */
  byName: boolean;
  /** `--case` as one predicate; absent without `--case`. */
  selects?: (checkName: string) => boolean;
}

export function planSelection(values: Values, positionals: readonly string[], familyNames: readonly string[]): Selection | Issue {
  const required = typeof values['require-revision'] === 'string' ? values['require-revision'].trim() : undefined;
  if (required !== undefined && !/^sha256:[0-9a-f]{64}$/.test(required)) {
    return usage('require-revision', `--require-revision takes a corpus revision as a report records it (run.revision): sha256: and 64 lowercase hex digits, got '${required}'`);
  }
  const requested = [...((values.family as string[] | undefined) ?? []), ...positionals]
    .flatMap((n) => n.split(','))
    .map((n) => n.trim())
    .filter((n) => n !== '');
  const cases = ((values.case as string[] | undefined) ?? []).map((c) => c.trim()).filter((c) => c !== '');
  // A --case whose first part names no family selects nothing: say so in those words, before any run.
  const noFamily = cases.filter((c) => !familyNames.includes(familyOfCase(c)));
  if (noFamily.length) {
    return usage('case', `no check matches --case ${noFamily.map((c) => `'${c}'`).join(', ')}: a case name starts with its family (${familyNames.join(', ')}); 'aep conformance --list' lists every case`);
  }
  const caseFamilies = [...new Set(cases.map(familyOfCase))];
  const targeting = ((values.target as string[] | undefined) ?? []).length > 0;
  return {
    ...(required !== undefined ? { required } : {}),
    cases,
    wanted: requested.length === 0 && caseFamilies.length > 0 ? caseFamilies : requested,
    wantsLive: values.live === true || cases.some((c) => c.startsWith('live/')),
    // A --target run certifies through the live families, whatever offline files the corpus holds (the standard's has no scenarios).
    byName: targeting && values.list !== true,
    ...(cases.length ? { selects: (name: string) => cases.some((sel) => caseMatches(name, sel)) } : {}),
  };
}

/** Where a run writes, every path resolved against the working directory. */
export interface Outputs {
  /** `--json`: '-' (stdout), a resolved path, or absent. */
  json?: string;
  report?: string;
  junit?: string;
  writeBaseline?: string;
  readBaseline?: string;
  /** The files checked writable before the run, with their flags. */
  files: Array<[flag: string, path: string]>;
}

export function planOutputs(values: Values, cwd: string): Outputs {
  const path = (flag: string): string | undefined => (typeof values[flag] === 'string' ? resolve(cwd, values[flag]) : undefined);
  const json = values.json as string | undefined;
  const out: Outputs = { files: [] };
  if (json !== undefined) out.json = json === '-' ? '-' : resolve(cwd, json);
  for (const [key, flag] of [['report', 'report'], ['junit', 'junit'], ['writeBaseline', 'write-expected-failures'], ['readBaseline', 'expected-failures']] as const) {
    const p = path(flag);
    if (p !== undefined) out[key] = p;
  }
  for (const [flag, p] of [['--json', out.json], ['--junit', out.junit], ['--write-expected-failures', out.writeBaseline]] as const) {
    if (p !== undefined && p !== '-') out.files.push([flag, p]);
  }
  return out;
}

/** What a `--target` run certifies, and how. */
export interface TargetPlan {
  targets: ExternalTarget[];
  profile: Profile;
  deviationsFile?: string;
  /** `AEP_TARGET_RELAY_PORT` (0: a free port). */
  relayPort: number;
}

export function planTargets(values: Values, wantsLive: boolean, cwd: string, env: Readonly<Record<string, string | undefined>>): TargetPlan | Issue {
  const targets: ExternalTarget[] = [];
  for (const v of (values.target as string[] | undefined) ?? []) {
    const t = parseTarget(v);
    if (typeof t === 'string') return usage('target', t);
    targets.push(t);
  }
  if (targets.length > 0 && !wantsLive) return usage('target', '--target certifies a daemon through the live families: add --live');
  if (targets.length === 0 && (values['reference-parity'] === true || typeof values.deviations === 'string')) {
    const flag = values['reference-parity'] === true ? '--reference-parity' : '--deviations';
    return usage(flag.slice(2), `${flag} judges a --target daemon: add --target AGENT=URL|COMMAND (our own adapters are always held to every check)`);
  }
  return {
    targets,
    profile: values['reference-parity'] === true ? 'reference-parity' : 'standard',
    ...(typeof values.deviations === 'string' ? { deviationsFile: resolve(cwd, values.deviations) } : {}),
    relayPort: env.AEP_TARGET_RELAY_PORT ? Number(env.AEP_TARGET_RELAY_PORT) : 0,
  };
}

/** The relay port problem of a targeted run that starts its own live families, or null. */
export function relayPortIssue(plan: TargetPlan, env: Readonly<Record<string, string | undefined>>): Issue | null {
  const p = plan.relayPort;
  return Number.isInteger(p) && p >= 0 && p <= 65535 ? null : issue('cli.conformance.env', SECTION, '$.AEP_TARGET_RELAY_PORT', `AEP_TARGET_RELAY_PORT must be a port number, got '${env.AEP_TARGET_RELAY_PORT}'`);
}

/** The one-line names of the targets (`agent=url`), or null without one. */
export function targetText(targets: readonly ExternalTarget[]): string | null {
  return targets.length ? targets.map((t) => `${t.agent}=${t.url ?? t.command}`).join(', ') : null;
}

/** The baseline's scope: which families ran, which names a baseline may know, the `--case` selection. */
export function baselineScope(familyNames: readonly string[], ran: readonly string[], selection: Selection): BaselineScope {
  return {
    ran: [...ran],
    known: [...new Set([...familyNames, ...familyNames.map((n) => `live/${n}`), 'vendors', ...ran])],
    ...(selection.selects ? { selects: selection.selects } : {}),
  };
}

export function isIssue(value: object): value is Issue {
  return 'rule' in value && 'message' in value && 'section' in value;
}
