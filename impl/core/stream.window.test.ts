/**
 * The checker's bounded memory: within its window of remembered keys every rule is exact (the
 * same issues as a checker that forgets nothing); past it the oldest keys are forgotten, with the
 * consequences `StreamCheckerOptions.window` documents.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { KeyWindow } from './key-window.js';
import { MAX_REMEMBERED_KEYS, streamChecker, validateStream } from './stream.js';

const SRC = 'aep://box/agent/tern';
const ev = (session: string, seq: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  aep: '0.1', id: `${session}-${seq}`, type: 'progress.status', time: '2026-11-12T10:00:00Z', source: SRC, agent: 'tern', session, epoch: 1, seq, data: {}, ...extra,
});
const EVERYTHING = Number.MAX_SAFE_INTEGER;

describe('KeyWindow', () => {
  it('forgets the oldest key once full, from the map it was put in, and tells the owner', () => {
    const a = new Map<string, number>();
    const b = new Set<string>();
    const told: string[] = [];
    const w = new KeyWindow<string>(3, (_m, key, owner) => told.push(`${owner}:${key}`));
    for (const [map, key] of [[a, 'k1'], [b, 'k2'], [a, 'k3']] as const) {
      if (map instanceof Map) map.set(key, 1);
      else map.add(key);
      w.remember(map, key, map === a ? 'a' : 'b');
    }
    expect(w.forgotten).toBe(0);
    b.add('k4');
    w.remember(b, 'k4', 'b');
    expect([...a.keys()]).toEqual(['k3']);
    expect([...b]).toEqual(['k2', 'k4']);
    expect(told).toEqual(['a:k1']);
    a.set('k5', 1);
    w.remember(a, 'k5');
    expect([...b]).toEqual(['k4']);
    expect(told).toEqual(['a:k1', 'b:k2']);
    expect(w.forgotten).toBe(2);
    b.add('k6');
    w.remember(b, 'k6');
    b.add('k7');
    w.remember(b, 'k7');
    w.remember(b, 'k8'); // k5, remembered without an owner, goes: nobody to tell
    expect(a.size).toBe(0);
    expect(told).toEqual(['a:k1', 'b:k2', 'a:k3', 'b:k4']);
  });

  it('refuses a capacity below one', () => {
    expect(() => new KeyWindow(0)).toThrow(RangeError);
    expect(() => new KeyWindow(1.5)).toThrow(RangeError);
  });

  it('never holds more than its capacity, whatever is remembered', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.string({ maxLength: 3 })), { maxLength: 200 }), (cap, puts) => {
        const maps = [new Map<string, true>(), new Map<string, true>(), new Map<string, true>(), new Map<string, true>()];
        const w = new KeyWindow(cap);
        for (const [m, k] of puts) {
          if (maps[m]!.has(k)) continue; // a caller remembers a key when it adds it, not again
          maps[m]!.set(k, true);
          w.remember(maps[m]!, k);
        }
        expect(maps.reduce((n, m) => n + m.size, 0)).toBeLessThanOrEqual(cap);
      }),
    );
  });
});

describe('the checker within its window: exactly as strict as a checker that forgets nothing', () => {
  // Streams of a few sessions with repeats (redeliveries and collisions), out-of-order seqs, terminals and acks.
  const event = fc.record({
    session: fc.constantFrom('a', 'b', 'c'),
    seq: fc.integer({ min: 0, max: 12 }),
    kind: fc.constantFrom('status', 'run.finished', 'run.failed', 'tool.completed', 'control.accepted', 'attention.requested', 'attention.resolved', 'session.ended'),
    variant: fc.integer({ min: 0, max: 1 }),
  });
  const build = (e: { session: string; seq: number; kind: string; variant: number }): Record<string, unknown> => {
    const base = ev(e.session, e.seq, { data: { note: e.variant } });
    switch (e.kind) {
      case 'run.finished':
      case 'run.failed':
        return { ...base, type: e.kind, run: 'r1', data: e.kind === 'run.failed' ? { error: { message: 'x' } } : {} };
      case 'tool.completed':
        return { ...base, type: e.kind, run: 'r1', data: { tool: { name: 'Bash', call_id: `c${e.variant}` } } };
      case 'control.accepted':
        return { ...base, type: e.kind, cause: `cmd${e.variant}`, data: {} };
      case 'attention.requested':
        return { ...base, type: e.kind, data: { kind: 'permission', prompt: 'p' } };
      case 'attention.resolved':
        return { ...base, type: e.kind, subject: `${e.session}-${e.variant}`, data: { resolution: 'dismissed' } };
      case 'session.ended':
        return { ...base, type: e.kind, data: {} };
      default:
        return base;
    }
  };

  it('gives the same issues when the stream holds no more keys than the window', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), (raw) => {
        const events = raw.map(build);
        const all = validateStream(events, { window: EVERYTHING });
        // 40 Events hold at most 40 ids + 3 sessions + 3 views + 40 other keys.
        expect(validateStream(events, { window: 100 })).toEqual(all);
        expect(validateStream(events)).toEqual(all);
        const digests = streamChecker({ window: 100 });
        expect(events.flatMap((value, i) => digests.check({ line: i + 1, value }))).toEqual(all);
      }),
    );
  });

  it('defaults to a window of 131,072 keys', () => {
    expect(MAX_REMEMBERED_KEYS).toBe(131_072);
  });
});

describe('the checker past its window', () => {
  // Session s: 6 Events (6 ids + the session + its view = 8 keys), then line 2 again.
  const stream = [0, 1, 2, 3, 4, 5].map((seq) => ev('s', seq));
  const late = [...stream, stream[1]];

  it('a redelivery within the window is legal', () => {
    expect(validateStream(late, { window: 8 })).toEqual([]);
  });

  it('a late redelivery of a forgotten Event is reported by the order rule, whose message says the window was outgrown and how to tell', () => {
    const found = validateStream(late, { window: 4 });
    expect(found).toHaveLength(1);
    const [issue] = found;
    expect(issue).toMatchObject({ rule: 'stream.seq.order', section: 'AEP-0001 §7', path: '$.seq', line: 7 });
    expect(issue!.message).toContain('seq 1 is not above seq 5 (line 6)');
    expect(issue!.message).toContain("outgrew the validator's window of 4 remembered keys");
    expect(issue!.message).toContain("validate this session's lines on their own");
    // The digest checker (what `aep validate` runs) says the same.
    const checker = streamChecker({ window: 4 });
    expect(late.flatMap((value, i) => checker.check({ line: i + 1, value }))).toEqual(found);
  });

  it('an order violation before anything is forgotten carries no note', () => {
    const found = validateStream([ev('s', 2), ev('s', 1)], { window: 100 });
    expect(found.map((i) => i.rule)).toEqual(['stream.seq.order']);
    expect(found[0]!.message).not.toContain('window');
  });

  it('a collision with a forgotten (source, id) is not seen (the documented consequence)', () => {
    const clash = { ...ev('t', 0), id: 's-0', data: { other: true } }; // same (source, id) as line 1, different Event
    expect(validateStream([...stream, clash], { window: 100 }).map((i) => i.rule)).toEqual(['stream.id.collision']);
    expect(validateStream([...stream, clash], { window: 4 })).toEqual([]);
  });

  it('a forgotten terminal no longer conflicts, and a request forgotten while open is not reported at session.ended', () => {
    const finish = (seq: number) => ({ ...ev('s', seq), type: 'run.finished', run: 'r1' });
    const twice = [finish(0), ...[1, 2, 3, 4].map((seq) => ev('s', seq)), finish(5)];
    expect(validateStream(twice, { window: 100 }).map((i) => i.rule)).toEqual(['stream.run.terminal']);
    expect(validateStream(twice, { window: 4 })).toEqual([]);
    const open = [{ ...ev('s', 0), type: 'attention.requested', data: { kind: 'permission', prompt: 'p' } }, ...[1, 2, 3, 4].map((seq) => ev('s', seq)), { ...ev('s', 5), type: 'session.ended' }];
    expect(validateStream(open, { window: 100 }).map((i) => i.rule)).toEqual(['stream.attention.open']);
    expect(validateStream(open, { window: 4 })).toEqual([]);
  });

  it('keeps checking what it still remembers: an order violation within the window is still found', () => {
    const many = Array.from({ length: 50 }, (_, seq) => ev('s', seq));
    const found = validateStream([...many, ev('s', 49, { id: 'new' })], { window: 8 });
    expect(found.map((i) => [i.line, i.rule])).toEqual([[51, 'stream.seq.order']]);
  });
});
