/**
 * Holds a descriptor against the code: every posture's hello `control.accepts` (steering off and
 * on), the default posture's `capabilities.emits`, the port, and the steering boundary, each
 * obtained from the real adapter definition (hello-facts.ts). Bridges are held by their own
 * tests (they have no adapter definition here); their descriptors are only shape-checked.
 * Every descriptor's deviation rows are shape-checked too (deviations.ts `rowProblems`).
 */
import type { Descriptor } from '../../impl/integrations/descriptor.js';
import { rowProblems } from './deviations.js';
import { helloFacts, type HelloFacts } from './hello-facts.js';

const same = (a: readonly string[] | null, b: readonly string[] | null) => JSON.stringify(a === null ? null : [...a].sort()) === JSON.stringify(b === null ? null : [...b].sort());
const show = (a: readonly string[] | null) => (a === null ? 'no control block' : `[${a.join(', ')}]`);

export type FactsOf = (name: string, env: Readonly<Record<string, string>>, instruct: boolean) => Promise<HelloFacts>;

/** Every way `d` contradicts the code, one line each; [] when it does not. */
export async function contradictions(d: Descriptor, facts: FactsOf = helloFacts): Promise<string[]> {
  const out: string[] = [...rowProblems(d)];
  if (!d.postures.some((p) => p.name === 'default' && Object.keys(p.env).length === 0)) out.push(`${d.name}: no 'default' posture with no variables`);
  if (d.kind === 'bridge') return out;
  const instructType = `x.${d.name}.control.instruct`;
  for (const p of d.postures) {
    const off = await facts(d.name, p.env, false);
    const on = await facts(d.name, p.env, true);
    if (!same(off.accepts, p.accepts)) out.push(`${d.name} (${p.name}): the descriptor claims control.accepts ${show(p.accepts)}, the hello declares ${show(off.accepts)}`);
    const steers = on.accepts?.includes(instructType) ?? false;
    if (steers !== d.steering.length > 0) {
      out.push(`${d.name} (${p.name}): the descriptor ${d.steering.length ? `claims steering on ${d.steering.join(', ')}` : 'claims no steering'}, but with AEP_INSTRUCT=1 the hello ${steers ? 'declares' : 'does not declare'} ${instructType}`);
    }
    if (p.name === 'default') {
      if (!same(off.emits, d.emits)) out.push(`${d.name}: the descriptor claims emits ${show(d.emits)}, the hello declares ${show(off.emits)}`);
      if (off.port !== d.port) out.push(`${d.name}: the descriptor claims port ${d.port}, the daemon's default is ${off.port}`);
    }
  }
  const controlCapable = d.postures.some((p) => (p.accepts?.length ?? 0) > 0) || d.steering.length > 0;
  if (d.classes.includes('Control-capable') !== controlCapable) out.push(`${d.name}: claims ${d.classes.join(', ')}, but ${controlCapable ? 'some posture accepts commands' : 'no posture accepts a command'}`);
  return out;
}
