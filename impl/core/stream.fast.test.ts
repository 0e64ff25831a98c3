/**
 * The fast paths of stream.ts against their references: `parseJsonl` (no split, the shape
 * fast check) must report what the plain split + `scanJsonText` reading reports, for text and
 * bytes alike; the redelivery rule must judge the same whether a checker remembers values
 * (canonical forms only on a repeat) or digests (the default), and as the canonical-text rule.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical.js';
import { MAX_DEPTH, scanJsonText } from './json-shape.js';
import { parseJsonl, streamChecker, validateStream, type StreamEntry } from './stream.js';

/** The reading parseJsonl had before its fast paths: split, then JSON.parse, then scanJsonText. */
function reference(text: string): { events: StreamEntry[]; issues: Array<[number, string, string]> } {
  const events: StreamEntry[] = [];
  const issues: Array<[number, string, string]> = [];
  text.split('\n').forEach((l, i) => {
    const line = i + 1;
    let t = l.endsWith('\r') ? l.slice(0, -1) : l;
    if (line === 1 && t.charCodeAt(0) === 0xfeff) t = t.slice(1);
    if (t.trim() === '') return;
    if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(t)) return void issues.push([line, 'stream.line.encoding', '$']);
    let value: unknown;
    try {
      value = JSON.parse(t);
    } catch {
      return void issues.push([line, 'stream.line.json', '$']);
    }
    const problem = scanJsonText(t, MAX_DEPTH);
    if (problem) return void issues.push([line, problem.kind === 'duplicate' ? 'json.member.duplicate' : 'envelope.depth', problem.path]);
    events.push({ line, value });
  });
  return { events, issues };
}

const LINES = [
  '{"a":1}',
  '{"a":1,"a":2}',
  '{"a":{"b":1,"\\u0062":2}}',
  '{"__proto__":{"x":1},"k":"v:\\"w\\""}',
  '[1,{"x":[{"y":1,"y":2}]}]',
  `${'['.repeat(MAX_DEPTH + 1)}${']'.repeat(MAX_DEPTH + 1)}`,
  `{"d":${'['.repeat(MAX_DEPTH - 1)}${']'.repeat(MAX_DEPTH - 1)}}`,
  '{"e":"\uD83D\uDE00","f":"\\uD800"}',
  '{"lone":"\uDC00"}',
  '{"a":',
  '\u0001\u0002',
  '   ',
  '',
  '"scalar"',
  '{ "s" : [ 1 , 2 ] , "s" : null }',
  '{"q":"\\\\","r":"}\\"]"}',
  '\uFEFF{"bom":1}',
];

const jsonl = fc.tuple(fc.array(fc.constantFrom(...LINES), { maxLength: 12 }), fc.array(fc.constantFrom('\n', '\r\n'), { minLength: 1, maxLength: 4 }), fc.boolean());
const joinLines = ([lines, ends, trailing]: [string[], string[], boolean]): string => lines.map((l, i) => `${l}${i < lines.length - 1 || trailing ? ends[i % ends.length] : ''}`).join('');

describe('parseJsonl fast paths', () => {
  it('reports what the split + scanJsonText reading reports, line for line', () => {
    fc.assert(
      fc.property(jsonl, (parts) => {
        const text = joinLines(parts);
        const got = parseJsonl(text);
        const want = reference(text);
        expect(got.events).toEqual(want.events);
        expect(got.issues.map((i) => [i.line, i.rule, i.path])).toEqual(want.issues);
      }),
      { numRuns: 1500 },
    );
  });

  it('says the same for the UTF-8 bytes of a text without lone surrogates, a BOM past line 1 included', () => {
    fc.assert(
      fc.property(jsonl, (parts) => {
        const text = joinLines(parts);
        if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text)) return;
        const fromText = parseJsonl(text);
        const fromBytes = parseJsonl(new TextEncoder().encode(text));
        expect(fromBytes.events).toEqual(fromText.events);
        expect(fromBytes.issues).toEqual(fromText.issues);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('redelivery: remembered values, digests and canonical text agree', () => {
  const SRC = 'aep://box/agent/tern/session/s-1';
  const base = (id: string, seq: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    aep: '0.1', id, type: 'progress.status', time: '2026-11-12T10:00:00Z', source: SRC, agent: 'tern', session: 's-1', seq, data: { phase: 'p', percent: seq }, ...extra,
  });
  /** One step of a generated stream: a new Event, or a repeat of an earlier one (copied, reordered, altered or unserializable). */
  const step = fc.tuple(fc.constantFrom('new', 'same', 'copy', 'reordered', 'altered', 'bigint'), fc.nat());

  /** The rule as it was: compare canonical texts, unserializable Events never match. */
  function collisions(events: Record<string, unknown>[]): number[] {
    const seen = new Map<string, string | undefined>();
    const out: number[] = [];
    events.forEach((e, i) => {
      let form: string | undefined;
      try {
        form = canonicalJson(e);
      } catch {
        form = undefined;
      }
      const key = `${String(e.source)}\u0000${String(e.id)}`;
      if (seen.has(key)) {
        if (form === undefined || seen.get(key) !== form) out.push(i + 1);
      } else seen.set(key, form);
    });
    return out;
  }

  it('on generated streams of repeats', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 30 }), (steps) => {
        const events: Record<string, unknown>[] = [];
        let seq = 0;
        for (const [kind, pick] of steps) {
          const earlier = events.length > 0 ? events[pick % events.length]! : undefined;
          if (kind === 'new' || earlier === undefined) events.push(base(`e-${seq}`, seq++));
          else if (kind === 'same') events.push(earlier);
          else if (kind === 'copy') events.push(JSON.parse(JSON.stringify(earlier, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) as Record<string, unknown>);
          else if (kind === 'reordered') events.push(Object.fromEntries(Object.entries(earlier).reverse()));
          else if (kind === 'altered') events.push({ ...earlier, data: { phase: 'other' } });
          else events.push({ ...earlier, big: 1n });
        }
        const want = collisions(events);
        const byRule = (issues: ReturnType<typeof validateStream>): number[] => issues.filter((i) => i.rule === 'stream.id.collision').map((i) => i.line!);
        expect(byRule(validateStream(events))).toEqual(want);
        for (const checker of [streamChecker(), streamChecker({ remember: 'digest' }), streamChecker({ remember: 'value' })]) {
          const issues = events.flatMap((value, i) => checker.check({ line: i + 1, value }));
          expect(byRule(issues)).toEqual(want);
        }
        expect(validateStream(events)).toEqual(events.flatMap(((c) => (value: unknown, i: number) => c.check({ line: i + 1, value }))(streamChecker())));
      }),
      { numRuns: 1000 },
    );
  });

  it('the default checker remembers a digest, not the Event: changing an Event after its check changes nothing', () => {
    const checker = streamChecker();
    const first = base('x', 0);
    const original = JSON.parse(JSON.stringify(first)) as Record<string, unknown>;
    expect(checker.check({ line: 1, value: first })).toEqual([]);
    (first.data as Record<string, unknown>).phase = 'mutated';
    expect(checker.check({ line: 2, value: original })).toEqual([]);
    expect(checker.check({ line: 3, value: first }).map((i) => i.rule)).toEqual(['stream.id.collision']);
  });

  it('an Event that cannot be serialized is never a redelivery, not even of itself', () => {
    const weird = base('w', 0, { big: 1n });
    for (const checker of [streamChecker(), streamChecker({ remember: 'value' })]) {
      checker.check({ line: 1, value: weird });
      expect(checker.check({ line: 2, value: weird }).map((i) => i.rule)).toEqual(['ext.value.type', 'stream.id.collision']);
      expect(checker.check({ line: 3, value: weird }).map((i) => i.rule)).toEqual(['ext.value.type', 'stream.id.collision']);
    }
  });
});

describe('validateStream tells entries from raw values as before', () => {
  it('only objects whose own enumerable names are exactly line and value are entries', () => {
    const event = { aep: '0.1', id: 'x', type: 'progress.status', time: '2026-11-12T10:00:00Z', source: 'aep://box/a', agent: 'a', session: 's', seq: 0 };
    expect(validateStream([{ line: 7, value: event }]).map((i) => i.line)).toEqual([]);
    expect(validateStream([{ line: 7, value: { ...event, aep: '9' } }]).map((i) => i.line)).toEqual([7]);
    // Three names, or a hidden second name: a raw value (an invalid Event at position 1), as Object.keys decides.
    expect(validateStream([{ line: 7, value: event, extra: 1 }])[0]!.line).toBe(1);
    const hidden = Object.defineProperty({ line: 7 }, 'value', { value: event, enumerable: false });
    expect(validateStream([hidden])[0]!.line).toBe(1);
    const inherited = Object.assign(Object.create({ value: event }) as object, { line: 7 });
    expect(validateStream([inherited]).length).toBeGreaterThan(0);
    expect(validateStream([inherited])[0]!.line).toBe(1);
  });
});
