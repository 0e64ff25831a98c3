import { describe, expect, it } from 'vitest';
import { schemaInstance } from './schema-instance.js';

describe('schemaInstance', () => {
  it('builds an object with every property, in either type-name case', () => {
    expect(
      schemaInstance({
        type: 'OBJECT',
        properties: { reasoning: { type: 'STRING' }, score: { type: 'INTEGER' }, ok: { type: 'boolean' }, list: { type: 'array' }, who: { type: 'string', enum: ['user', 'model'] } },
      }),
    ).toEqual({ reasoning: 'scripted', score: 1, ok: false, list: [], who: 'user' });
  });

  it('honours a numeric minimum and survives junk', () => {
    expect(schemaInstance({ type: 'number', minimum: 5 })).toBe(5);
    expect(schemaInstance(null)).toBe(null);
    expect(schemaInstance({ type: 'mystery' })).toBe(null);
  });
});
