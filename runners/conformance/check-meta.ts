/**
 * What a report says about a check: its family, the integration it exercises, the conformance
 * class it counts toward, and the spec sections it checks. Pure. Family, class and spec come
 * from the `<family>/<case>` name; the integration is the check's own `integration`, set by the
 * family that made it (types.ts), or `core` when it names none.
 */

import type { CheckBasis, CheckRule } from './types.js';
import { earlierNames } from '../../impl/integrations/registry.js';

/** The three bases, strictest first: what a `--target` run certifies (`must`, `pin`) and what it leaves to `--reference-parity`. */
export const BASES: readonly CheckBasis[] = ['must', 'pin', 'reference'];

/** The conformance classes of the standard's conformance table. */
export const CLASSES = ['Emitter', 'Consumer', 'Collector/relay', 'Control-capable'] as const;
export type ConformanceClass = (typeof CLASSES)[number];

interface FamilyMeta {
  class: ConformanceClass;
  spec: readonly string[];
  /**
   * Whether the family's checks exercise one integration each. Such a family sets `integration`
   * on its checks; a check of it that does not (a live family not yet attributing its checks) is
   * attributed by its name's second segment, the adapter its scenario or mapping file names.
   */
  perAdapter: boolean;
  /** The basis and rule of a check of this family that names none itself. */
  basis: CheckBasis;
  rule: CheckRule;
}

/** Offline family name → class and spec references (live families share their offline one's). */
export const FAMILY_META: Readonly<Record<string, FamilyMeta>> = {
  golden: { class: 'Emitter', spec: ['AEP-0001 §5', 'AEP-0002'], perAdapter: false, basis: 'must', rule: { id: 'event.valid', section: 'AEP-0001 §5' } },
  invalid: { class: 'Consumer', spec: ['AEP-0001 §5', 'AEP-0002'], perAdapter: false, basis: 'must', rule: { id: 'event.invalid-rejected', section: 'AEP-0001 §5' } },
  'attr-match': { class: 'Collector/relay', spec: ['AEP-0003 §6'], perAdapter: false, basis: 'must', rule: { id: 'filter.attr-match', section: 'AEP-0003 §6' } },
  'ce-roundtrip': { class: 'Emitter', spec: ['AEP-0005 §2'], perAdapter: false, basis: 'must', rule: { id: 'projection.cloudevents', section: 'AEP-0005 §2' } },
  otlp: { class: 'Emitter', spec: ['AEP-0005 §3'], perAdapter: false, basis: 'must', rule: { id: 'projection.otlp', section: 'AEP-0005 §3' } },
  ocsf: { class: 'Emitter', spec: ['AEP-0005 §4'], perAdapter: false, basis: 'must', rule: { id: 'projection.ocsf', section: 'AEP-0005 §4' } },
  redaction: { class: 'Emitter', spec: ['AEP-0003 §9.4'], perAdapter: false, basis: 'must', rule: { id: 'capture.redaction-pipeline', section: 'AEP-0003 §9.4' } },
  'capture-gating': { class: 'Emitter', spec: ['AEP-0006', 'AEP-0001 §7'], perAdapter: false, basis: 'must', rule: { id: 'capture.form-values', section: 'AEP-0006' } },
  downlevel: { class: 'Collector/relay', spec: ['AEP-0001 §8.2'], perAdapter: false, basis: 'must', rule: { id: 'capture.downlevel', section: 'AEP-0001 §8.2' } },
  mappings: { class: 'Emitter', spec: ['AEP-0002 Annex A'], perAdapter: true, basis: 'reference', rule: { id: 'mapping.reference-pin', section: 'AEP-0002 Annex A' } },
  'bridge-mappings': { class: 'Emitter', spec: ['AEP-0002 Annex A'], perAdapter: true, basis: 'reference', rule: { id: 'mapping.reference-pin', section: 'AEP-0002 Annex A' } },
  'control-loop': { class: 'Control-capable', spec: ['AEP-0004 §3', 'AEP-0004 §5', 'AEP-0004 §7', 'AEP-0006', 'AEP-0008'], perAdapter: true, basis: 'reference', rule: { id: 'control-loop.scenario', section: 'AEP-0004 §7' } },
};

/** `[must AEP-0004 §3 control.ack.one]`: a check's basis and rule, as the console line shows them; '' when it names neither. */
export function basisTag(check: { name: string; integration?: string; basis?: CheckBasis; rule?: CheckRule }): string {
  const m = checkMeta(check);
  if (!m.basis && !m.rule) return '';
  return `[${[m.basis, m.rule ? `${m.rule.id}, ${m.rule.section}` : undefined].filter((x) => x !== undefined).join(' ')}]`;
}

/** Where checks that exercise no single integration (the core library's own checks) are filed. */
export const CORE = 'core';

/**
 * Names earlier reports and captures used for an integration, mapped to its one name today (the
 * descriptors' `aliases`: the real-vendors lane said `gemini` for `gemini-cli`, Kimi's web bridge
 * was `kimi-code-web`). Read so an earlier report still diffs (`aep conformance diff`) and an
 * earlier capture still replays.
 */
export const EARLIER_NAMES: Readonly<Record<string, string>> = earlierNames();

export interface CheckMeta {
  /** Family as run: `mappings`, or `live/mappings` for the live counterpart. */
  family: string;
  /** The integration's descriptor name, or `core`. */
  integration: string;
  class?: ConformanceClass;
  spec?: string[];
  basis?: CheckBasis;
  rule?: CheckRule;
}

/**
 * The metadata of one check: `{name, integration?}` as a family made it. Unknown families get
 * only `family` and `integration`.
 */
export function checkMeta(check: { name: string; integration?: string; basis?: CheckBasis; rule?: CheckRule }): CheckMeta {
  const name = check.name;
  const parts = name.split('/');
  const live = parts[0] === 'live' && parts.length > 1;
  const base = live ? parts[1]! : parts[0]!;
  const rest = live ? parts.slice(2) : parts.slice(1);
  const family = live ? `live/${base}` : base;
  const meta = FAMILY_META[base];
  const integration = check.integration ?? unattributed(base, rest);
  const own = { ...(check.basis ? { basis: check.basis } : {}), ...(check.rule ? { rule: { id: check.rule.id, section: check.rule.section } } : {}) };
  if (!meta) return { family, integration, ...own };
  return { family, integration, class: meta.class, spec: [...meta.spec], basis: meta.basis, rule: { ...meta.rule }, ...own };
}

/** The integration of a check its family did not attribute: `core`, or, for a per-integration family's check, the adapter its name carries. */
function unattributed(base: string, rest: readonly string[]): string {
  const perAdapter = base === 'vendors' || FAMILY_META[base]?.perAdapter === true;
  if (!perAdapter || rest.length === 0 || (rest.length === 1 && rest[0] === 'fixtures')) return CORE;
  return EARLIER_NAMES[rest[0]!] ?? rest[0]!;
}
