import { describe, expect, it } from 'vitest';
import { MAX_DEPTH, cloneJson, defineMember, scanJsonText, tooDeepAt } from './json-shape.js';

const nest = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

describe('scanJsonText', () => {
  it('finds a duplicate member in the envelope and names it', () => {
    expect(scanJsonText('{"type":"control.cancel","type":"tool.completed"}')).toEqual({ kind: 'duplicate', path: '$.type', key: 'type' });
  });
  it('finds a duplicate inside data, through arrays, and compares names decoded', () => {
    expect(scanJsonText('{"data":{"a":[{"x":1},{"x":2,"y":{"r":1,"r\\u0020":2,"\\u0072":3}}]}}')).toEqual({ kind: 'duplicate', path: '$.data.a[1].y.r', key: 'r' });
  });
  it('is not fooled by quotes, brackets and commas inside strings', () => {
    expect(scanJsonText('{"a":"x\\",\\"a\\":{[","b":"\\\\","c":"}]"}')).toBeNull();
    expect(scanJsonText('{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}')).toBeNull();
  });
  it('finds two data members (the last one is what JSON.parse keeps)', () => {
    const text = '{"data":{"result":"S3CR3T"},"data":{"ok":true}}';
    expect(JSON.parse(text)).toEqual({ data: { ok: true } });
    expect(scanJsonText(text)).toEqual({ kind: 'duplicate', path: '$.data', key: 'data' });
  });
  it('bounds nesting: the top value is level 1', () => {
    expect(scanJsonText(nest(MAX_DEPTH))).toBeNull();
    expect(scanJsonText(nest(MAX_DEPTH + 1))).toEqual({ kind: 'depth', path: `$${'[0]'.repeat(MAX_DEPTH)}` });
    expect(scanJsonText(nest(100_000))?.kind).toBe('depth');
  });
});

describe('tooDeepAt', () => {
  it('names the first container past the bound, without recursion', () => {
    let deep: unknown = {};
    for (let i = 0; i < 200_000; i++) deep = { a: deep };
    expect(tooDeepAt(deep, 3)).toBe('$.a.a.a');
    expect(tooDeepAt(deep)).toBe(`$${'.a'.repeat(MAX_DEPTH)}`);
    expect(tooDeepAt({ a: [[1]] }, 3)).toBeUndefined();
    expect(tooDeepAt('text')).toBeUndefined();
  });
});

describe('cloneJson and defineMember', () => {
  it('copies __proto__, constructor and prototype as own members, never as prototype links', () => {
    const input = JSON.parse('{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":2}},"prototype":3}') as Record<string, unknown>;
    const copy = cloneJson(input);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'constructor', 'prototype']);
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":2}},"prototype":3}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const target: Record<string, unknown> = {};
    defineMember(target, '__proto__', { y: 1 });
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
    expect(JSON.stringify(target)).toBe('{"__proto__":{"y":1}}');
  });
  it('copies deeply, shares nothing, and drops what lies past the bound (fail closed)', () => {
    const input = { a: [1, { b: 'c' }], d: null, u: undefined };
    const copy = cloneJson(input);
    expect(copy).toEqual({ a: [1, { b: 'c' }], d: null });
    expect(copy.a).not.toBe(input.a);
    let deep: unknown = { end: true };
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(tooDeepAt(cloneJson(deep))).toBeUndefined();
    expect(cloneJson({ a: { b: { c: 1 } } }, 2)).toEqual({ a: {} });
  });
});
