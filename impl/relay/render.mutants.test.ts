/**
 * What a subscriber receives for one event at each capture ceiling (`renderAt`), byte for byte:
 * the received bytes wherever the ceiling does not bite (whatever their formatting), the exact
 * down-levelled text where it does, an over-declared event judged as `full`, and one down-level
 * per event and ceiling. Written to kill the mutants Stryker finds in `render.ts` (docs/mutation.md).
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

const { isCaptureLevel, renderAt } = await import('./render.js');

const HEAD = '"aep":"0.1","type":"tool.requested","time":"2026-11-30T06:00:00.000Z","source":"src","agent":"a","session":"s1","epoch":0';
const TOOL = '"tool":{"name":"Bash","call_id":"c1"}';

/** A record as ingest makes it: the text as received and its parse. */
const rec = (raw: string, overDeclared?: boolean): Received => (overDeclared === undefined ? { event: JSON.parse(raw), raw } : { event: JSON.parse(raw), raw, overDeclared });

/** `tool.requested` declared `redacted`, carrying `args_redacted` (a `redacted` field) and, when asked, `args` (a `full` one). */
const requested = (id: string, withArgs: boolean): string =>
  `{"id":"${id}",${HEAD},"seq":4,"capture":"redacted","data":{${TOOL},"args_redacted":{"command":"ls ~/x"}${withArgs ? ',"args":{"command":"CANARY"}' : ''}}}`;

/** `tool.completed` declared `full`, with a `full` result. */
const completed = (id: string, result = 'secret text'): string =>
  `{"aep":"0.1","id":"${id}","type":"tool.completed","time":"2026-11-30T06:00:00.000Z","source":"src","agent":"a","session":"s1","seq":3,"epoch":0,"capture":"full","data":{"tool":{"name":"Edit","call_id":"c"},"status":"success","result":"${result}"}}`;

describe('renderAt: the received bytes where the ceiling does not bite', () => {
  it('no ceiling and a full ceiling give the received bytes, even for an over-declared event', () => {
    const spaced = rec(`{ "id": "e1", ${HEAD.replace(/,/g, ', ')}, "seq": 4, "capture": "redacted", "data": { ${TOOL}, "args": { "command": "CANARY" } } }`, true);
    for (const ceiling of [undefined, 'full'] as const) {
      expect(renderAt(spaced, ceiling)).toBe(spaced.raw);
      const r = rec(requested('e2', true), true);
      expect(renderAt(r, ceiling)).toBe(r.raw);
    }
  });

  it('a ceiling at or above the declared level keeps the received formatting, escapes and spacing', () => {
    // Declared `metadata`, nothing above it: no ceiling bites, so the bytes pass as received.
    const raw = `{ "aep" : "0.1", "id": "e3", "type": "progress.status", "time": "2026-11-30T06:00:00.000Z", "source": "src", "agent": "a", "session": "s1", "seq": 1, "epoch": 0, "capture": "metadata", "data": { "phase": "w\\u00f6rking" } }`;
    const r = rec(raw);
    for (const ceiling of ['metadata', 'redacted', 'full', undefined] as const) expect(renderAt(r, ceiling)).toBe(raw);
  });

  it('a well-declared redacted event at a redacted ceiling passes as received (not judged as full)', () => {
    for (const r of [rec(requested('e4', false)), rec(requested('e5', false), false)]) {
      expect(renderAt(r, 'redacted')).toBe(r.raw);
    }
  });
});

describe('renderAt: the down-levelled text where the ceiling bites', () => {
  it('lowers a full event to exactly the envelope and the fields its ceiling allows', () => {
    const r = rec(completed('e6'));
    const envelope = '"aep":"0.1","id":"e6","type":"tool.completed","time":"2026-11-30T06:00:00.000Z","source":"src","agent":"a","session":"s1","seq":3,"epoch":0';
    const meta = `{${envelope},"capture":"metadata","data":{"tool":{"name":"Edit","call_id":"c"},"status":"success"}}`;
    expect(renderAt(r, 'metadata')).toBe(meta);
    // A mechanical hop never mints `redacted`: a redacted ceiling over a full event lands on metadata.
    expect(renderAt(r, 'redacted')).toBe(meta);
    expect(renderAt(r, 'none')).toBe(`{${envelope},"capture":"none"}`);
  });

  it('judges an over-declared event as full: a ceiling equal to its declared level still removes the full field', () => {
    const r = rec(requested('e7', true), true);
    const lowered = `{"id":"e7",${HEAD},"seq":4,"capture":"metadata","data":{${TOOL}}}`;
    expect(renderAt(r, 'redacted')).toBe(lowered);
    expect(renderAt(r, 'metadata')).toBe(lowered);
    // The same event not marked over-declared is judged at its declared level (the mark is what makes the difference).
    const unmarked = rec(requested('e8', true));
    expect(renderAt(unmarked, 'redacted')).toBe(`{"id":"e8",${HEAD},"seq":4,"capture":"redacted","data":{${TOOL},"args_redacted":{"command":"ls ~/x"}}}`);
  });

  it('renders each ceiling of one record on its own, and never gives one record the text of another', () => {
    const a = rec(completed('e9', 'first secret'));
    const b = rec(completed('e10', 'second secret'));
    expect(renderAt(a, 'none')).toContain('"id":"e9"');
    expect(renderAt(a, 'metadata')).toContain('"capture":"metadata"');
    expect(renderAt(a, 'none')).toContain('"capture":"none"');
    expect(renderAt(b, 'metadata')).toContain('"id":"e10"');
    expect(renderAt(b, 'none')).toContain('"id":"e10"');
    expect(renderAt(a, 'metadata')).toContain('"id":"e9"');
  });
});

describe('renderAt: one down-level per event and ceiling', () => {
  it('down-levels a record once per ceiling however often it is asked, and not at all without a biting ceiling', () => {
    const r = rec(completed('e11'));
    calls.downlevel = 0;
    renderAt(r, undefined);
    renderAt(r, 'full');
    expect(calls.downlevel).toBe(0);
    const first = renderAt(r, 'metadata');
    expect(calls.downlevel).toBe(1);
    expect(renderAt(r, 'metadata')).toBe(first);
    expect(calls.downlevel).toBe(1);
    renderAt(r, 'none');
    renderAt(r, 'none');
    renderAt(r, 'metadata');
    expect(calls.downlevel).toBe(2);
  });

  it('also remembers a ceiling that changed nothing (the received bytes)', () => {
    const r = rec(requested('e12', false));
    calls.downlevel = 0;
    expect(renderAt(r, 'redacted')).toBe(r.raw);
    expect(renderAt(r, 'redacted')).toBe(r.raw);
    expect(calls.downlevel).toBe(1);
  });
});

describe('isCaptureLevel', () => {
  it('accepts the four levels and nothing else', () => {
    for (const level of ['none', 'metadata', 'redacted', 'full']) expect(isCaptureLevel(level)).toBe(true);
    for (const other of ['', 'FULL', 'Full', 'redact', 'full ', 'x', undefined, null, 0, 3, ['full'], { level: 'full' }]) expect(isCaptureLevel(other)).toBe(false);
  });
});
