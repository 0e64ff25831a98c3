/**
 * A small valid instance of a JSON schema (pure), for side requests that ask for structured output
 * (Gemini CLI's routing and next-speaker checks send `responseMimeType: "application/json"` with a
 * schema, and retry when the answer does not parse). Handles the subset those schemas use: object
 * with properties/required, array, string (first enum value), integer, number, boolean; type names
 * in either case (`OBJECT`, `object`).
 */
export function schemaInstance(schema: unknown, depth = 0): unknown {
  if (typeof schema !== 'object' || schema === null || depth > 8) return null;
  const s = schema as { type?: unknown; properties?: Record<string, unknown>; required?: unknown; enum?: unknown; items?: unknown; minimum?: unknown };
  const type = typeof s.type === 'string' ? s.type.toLowerCase() : Array.isArray(s.type) ? String(s.type[0]).toLowerCase() : s.properties ? 'object' : '';
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries(s.properties ?? {})) out[key] = schemaInstance(sub, depth + 1);
      return out;
    }
    case 'array':
      return [];
    case 'string':
      return 'scripted';
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 1;
    case 'boolean':
      return false;
    default:
      return null;
  }
}
