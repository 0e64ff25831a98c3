import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateSchemas, payloadJsonSchema } from './generate.js';
import { PAYLOAD_SCHEMAS } from './payloads/index.js';
import { TYPES } from './registry.js';

const dir = join(fileURLToPath(new URL('.', import.meta.url)), 'schemas');
const generated = generateSchemas();

describe('checked-in schemas', () => {
  it.each([...generated.keys()])('%s is up to date', (rel) => {
    const path = join(dir, rel);
    const onDisk = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
    if (onDisk !== generated.get(rel)) {
      expect.fail(`spec/schemas/${rel} is ${onDisk === undefined ? 'missing' : 'stale'}: run \`npm run gen:schemas\` and check the result in`);
    }
  });

  it('has no payload schema that the generator no longer produces', () => {
    const extra = readdirSync(join(dir, 'types')).filter((name) => !generated.has(`types/${name}`));
    expect(extra, 'stale files in spec/schemas/types: run `npm run gen:schemas`').toEqual([]);
  });
});

describe('generateSchemas', () => {
  it('is deterministic: two runs give identical text', () => {
    expect([...generateSchemas()]).toEqual([...generated]);
  });

  it('renders 2-space JSON with a trailing newline', () => {
    for (const [rel, text] of generated) {
      expect(text.endsWith('}\n'), rel).toBe(true);
      expect(text, rel).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    }
  });

  it('writes one payload schema per registered type with a payload, and none for reserved types', () => {
    const withPayload = TYPES.filter((t) => t.payload).map((t) => t.type).sort();
    expect(Object.keys(PAYLOAD_SCHEMAS).sort()).toEqual(withPayload);
    expect(withPayload).toHaveLength(44);
    for (const t of TYPES) expect(generated.has(`types/${t.type}.schema.json`), t.type).toBe(t.payload);
  });

  it('gives every payload schema a draft 2020-12 header and its own $id', () => {
    const ids = new Set<string>();
    for (const t of TYPES.filter((x) => x.payload)) {
      const s = payloadJsonSchema(t.type)!;
      expect(s.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(s.title).toContain(t.type);
      ids.add(String(s.$id));
    }
    expect(ids.size).toBe(44);
  });

  it('annotates every declared property with a capture level', () => {
    const missing: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const n = node as Record<string, unknown>;
      const props = n.properties as Record<string, Record<string, unknown>> | undefined;
      for (const [k, v] of Object.entries(props ?? {})) {
        if (!['metadata', 'redacted', 'full'].includes(String(v['x-aep-capture']))) missing.push(`${path}.${k}`);
        walk(v, `${path}.${k}`);
      }
      if (n.items !== undefined) walk(n.items, `${path}[]`);
    };
    for (const t of TYPES.filter((x) => x.payload)) walk(payloadJsonSchema(t.type), t.type);
    expect(missing).toEqual([]);
  });

  it('leaves no zod artefacts behind (safe-integer bounds, datetime regex, empty additionalProperties)', () => {
    for (const [rel, text] of generated) {
      expect(text, rel).not.toContain('9007199254740991');
      expect(text, rel).not.toContain('"additionalProperties": {}');
    }
  });
});
