/**
 * The link from a live record to the held record of the same event (`render-link.ts`): a record
 * renders through its held record's cache once linked, keeps its first link, works frozen, and
 * the link is invisible to copies and to JSON and cannot be changed. Written to kill the mutants
 * Stryker finds in `render-link.ts` (docs/mutation.md).
 */
import { describe, expect, it, vi } from 'vitest';
import type { Received } from './received.js';

const calls = vi.hoisted(() => ({ downlevel: 0 }));
vi.mock('../core/capture.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../core/capture.js')>();
  return {
    ...real,
    downlevel: (...args: Parameters<typeof real.downlevel>) => {
      calls.downlevel++;
      return real.downlevel(...args);
    },
  };
});

const { renderKey, shareRendering } = await import('./render-link.js');
const { renderAt } = await import('./render.js');
const { ReplayBuffer } = await import('./buffer.js');

let n = 0;
function rec(seq = 0): Received {
  const raw = `{"aep":"0.1","id":"e${++n}","type":"tool.completed","time":"2026-11-30T06:00:00.000Z","source":"src","agent":"a","session":"s1","seq":${seq},"epoch":0,"capture":"full","data":{"tool":{"name":"Edit","call_id":"c"},"status":"success","result":"secret"}}`;
  return { event: JSON.parse(raw), raw };
}

describe('shareRendering / renderKey', () => {
  it('an unlinked record renders through itself; a linked one through its target', () => {
    const from = rec();
    const to = rec();
    expect(renderKey(from)).toBe(from);
    shareRendering(from, to);
    expect(renderKey(from)).toBe(to);
    expect(renderKey(to)).toBe(to);
  });

  it('keeps the first link when linked again (an event admitted again after an eviction)', () => {
    const from = rec();
    const first = rec();
    const second = rec();
    shareRendering(from, first);
    expect(() => shareRendering(from, second)).not.toThrow();
    expect(renderKey(from)).toBe(first);
  });

  it('leaves a frozen or non-extensible record unlinked, without throwing', () => {
    for (const from of [Object.freeze(rec()), Object.preventExtensions(rec()), Object.seal(rec())]) {
      expect(() => shareRendering(from, rec())).not.toThrow();
      expect(renderKey(from)).toBe(from);
    }
  });

  it('is invisible to keys, JSON and copies, and cannot be changed or removed', () => {
    const from = rec();
    const before = { keys: Object.keys(from), json: JSON.stringify(from) };
    const to = rec();
    shareRendering(from, to);
    expect(Object.keys(from)).toEqual(before.keys);
    expect(JSON.stringify(from)).toBe(before.json);
    // A copy is a record of its own: it does not carry the link.
    const copy = { ...from };
    expect(renderKey(copy)).toBe(copy);
    expect(Object.getOwnPropertySymbols(copy)).toEqual([]);
    const [link] = Object.getOwnPropertySymbols(from);
    expect(link).toBeDefined();
    expect(Reflect.set(from, link!, rec())).toBe(false);
    expect(Reflect.deleteProperty(from, link!)).toBe(false);
    expect(Reflect.defineProperty(from, link!, { value: rec() })).toBe(false);
    expect(renderKey(from)).toBe(to);
  });
});

describe('through the buffer: the live and the held record share one down-level', () => {
  it('renders the held text for the live record after admission, down-levelling once', () => {
    const buffer = new ReplayBuffer(10, 10);
    const live = rec(1);
    const { held } = buffer.admit(live);
    calls.downlevel = 0;
    const text = renderAt(held!, 'metadata');
    expect(renderAt(live, 'metadata')).toBe(text);
    expect(calls.downlevel).toBe(1);
    expect(text).not.toContain('secret');
  });

  it('admits a frozen live record', () => {
    const buffer = new ReplayBuffer(10, 10);
    const live = Object.freeze(rec(2));
    expect(buffer.admit(live).buffered).toBe(true);
    expect(renderKey(live)).toBe(live);
  });

  it('a record admitted again after its eviction keeps rendering through its first held record', () => {
    const buffer = new ReplayBuffer(1, 10);
    const live = rec(5);
    const first = buffer.admit(live).held!;
    buffer.admit(rec(6)); // evicts it
    const again = buffer.admit(live); // new again, held (and evicted at once: below the window)
    expect(again.buffered).toBe(true);
    expect(renderKey(live)).toBe(first);
  });
});
