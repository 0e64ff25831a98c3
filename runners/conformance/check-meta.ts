/**
 * What a check name says about the check: its family, the adapter it exercises (mapping and
 * control-loop checks), the conformance class it counts toward, and the spec sections it
 * checks. Pure: derived from the `<family>/<case>` name alone, so every report can carry it.
 */

/** The conformance classes of the standard's conformance table. */
export const CLASSES = ['Emitter', 'Consumer', 'Collector/relay', 'Control-capable'] as const;
export type ConformanceClass = (typeof CLASSES)[number];

interface FamilyMeta {
  class: ConformanceClass;
  spec: readonly string[];
  /** Whether the second path segment of the check name is an adapter (source) name. */
  perAdapter: boolean;
}

/** Offline family name → class and spec references (live families share their offline one's). */
export const FAMILY_META: Readonly<Record<string, FamilyMeta>> = {
  golden: { class: 'Emitter', spec: ['AEP-0001 §5', 'AEP-0002'], perAdapter: false },
  invalid: { class: 'Consumer', spec: ['AEP-0001 §5', 'AEP-0002'], perAdapter: false },
  'attr-match': { class: 'Collector/relay', spec: ['AEP-0003 §6'], perAdapter: false },
  'ce-roundtrip': { class: 'Emitter', spec: ['AEP-0005 §2'], perAdapter: false },
  otlp: { class: 'Emitter', spec: ['AEP-0005 §3'], perAdapter: false },
  ocsf: { class: 'Emitter', spec: ['AEP-0005 §4'], perAdapter: false },
  redaction: { class: 'Emitter', spec: ['AEP-0003 §9.4'], perAdapter: false },
  'capture-gating': { class: 'Emitter', spec: ['AEP-0006', 'AEP-0001 §7'], perAdapter: false },
  downlevel: { class: 'Collector/relay', spec: ['AEP-0001 §8.2'], perAdapter: false },
  mappings: { class: 'Emitter', spec: ['AEP-0002 Annex A'], perAdapter: true },
  'control-loop': { class: 'Control-capable', spec: ['AEP-0004 §3', 'AEP-0004 §5', 'AEP-0004 §7', 'AEP-0006', 'AEP-0008'], perAdapter: true },
};

export interface CheckMeta {
  /** Family as run: `mappings`, or `live/mappings` for the live counterpart. */
  family: string;
  adapter?: string;
  class?: ConformanceClass;
  spec?: string[];
}

/** Splits `live/mappings/codex/x` or `golden/y` into its metadata. Unknown families get only `family`. */
export function checkMeta(name: string): CheckMeta {
  const parts = name.split('/');
  const live = parts[0] === 'live' && parts.length > 1;
  const base = live ? parts[1]! : parts[0]!;
  const rest = live ? parts.slice(2) : parts.slice(1);
  const family = live ? `live/${base}` : base;
  const meta = FAMILY_META[base];
  if (!meta) return { family };
  const out: CheckMeta = { family, class: meta.class, spec: [...meta.spec] };
  if (meta.perAdapter && rest.length >= 1 && !(rest.length === 1 && rest[0] === 'fixtures')) out.adapter = rest[0]!;
  return out;
}
