/**
 * Capture ceilings against the standard's own annotations: for every field the standard's
 * type schemas gate at `redacted` or `full`, an event carrying a canary there at its gate level
 * must reach a `metadata`-ceiling subscriber without the canary and without claiming more than
 * `metadata` (AEP-0003 §6.4). Reads `../shared/aep-standard/schemas` at test time; skipped
 * without it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderAt } from './render.js';
import { makeEvent } from './test-utils/testing.js';
import { standardPath } from '../test-utils/standard.js';
import { skipped, WHY } from '../test-utils/skip.js';

const dir = standardPath('schemas', 'types');

interface Gated {
  readonly type: string;
  readonly path: string[];
  readonly level: 'redacted' | 'full';
  readonly kind: unknown;
}

function gatedFields(): Gated[] {
  const out: Gated[] = [];
  const walk = (type: string, s: any, path: string[]): void => {
    if (!s || typeof s !== 'object') return;
    const level = s['x-aep-capture'];
    if (level === 'redacted' || level === 'full') out.push({ type, path, level, kind: s.type });
    for (const [k, v] of Object.entries(s.properties ?? {})) walk(type, v, [...path, k]);
    if (s.items) walk(type, s.items, [...path, '[]']);
  };
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.schema.json'))) {
    const schema = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    walk(file.replace('.schema.json', ''), schema.properties?.data ?? schema, []);
  }
  return out;
}

function place(path: string[], leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const [head, ...rest] = path;
  return head === '[]' ? [place(rest, leaf)] : { [head!]: place(rest, leaf) };
}

describe.skipIf(!existsSync(dir))(`capture ceiling over every gated field of the standard${skipped(!existsSync(dir), WHY.standard)}`, () => {
  const fields = existsSync(dir) ? gatedFields() : [];
  it('finds gated fields to probe', () => expect(fields.length).toBeGreaterThan(20));
  it.each(fields.map((f) => [`${f.type} ${f.path.join('.')} (${f.level})`, f] as const))('%s never reaches a metadata ceiling', (_name, f) => {
    const canary = `CANARY-${f.type}-${f.path.join('-')}`;
    const kinds = Array.isArray(f.kind) ? f.kind : [f.kind];
    const leaf = kinds.includes('string') ? canary : kinds.includes('array') ? [canary] : { note: canary };
    const event = makeEvent({ type: f.type, capture: f.level, data: place(f.path, leaf) });
    const raw = JSON.stringify(event);
    const out = renderAt({ event: event as never, raw }, 'metadata');
    expect(out).not.toContain(canary);
    expect(JSON.parse(out).capture ?? 'metadata').toMatch(/^(none|metadata)$/);
  });
});
