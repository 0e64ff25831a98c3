/**
 * `parseBatch`'s fast paths (a line starting with `{` is neither blank nor trimmed) keep the
 * exact rules: blank means `trim()`-blank (Unicode spaces included), the forwarded text is the
 * trimmed line, a line break inside an event's text forces a re-serialization, and the batch
 * bound counts only non-blank lines.
 */
import { describe, expect, it } from 'vitest';
import { parseBatch } from './batch.js';

const ev = (seq: number, spacing = ''): string =>
  `{"aep":"0.1","id":"b${seq}",${spacing}"type":"progress.status","time":"2026-12-02T04:00:00.000Z","source":"aep://h/agent/a/session/s","agent":"a","session":"s","seq":${seq},"data":{"phase":"p"}}`;

describe('parseBatch', () => {
  it('skips trim-blank lines, Unicode spaces included, and forwards each line trimmed', () => {
    const verdict = parseBatch(`\u00a0\n ${ev(1)} \r\n\u2028\n\t\n${ev(2)}\r\n\n`, 'ndjson', 2);
    expect(verdict.ok).toBe(true);
    if (!verdict.ok) return;
    expect(verdict.events.map((r) => r.raw)).toEqual([ev(1), ev(2)]);
    expect(verdict.events.map((r) => r.event.seq)).toEqual([1, 2]);
  });

  it('re-serializes an event whose text carries a carriage return between tokens', () => {
    const verdict = parseBatch(`${ev(3, '\r')}\n`, 'ndjson', 10);
    expect(verdict.ok && verdict.events[0]!.raw).toBe(JSON.stringify(JSON.parse(ev(3, '\r'))));
  });

  it('counts only non-blank lines against the batch bound, and names the line of a bad one', () => {
    expect(parseBatch(`${ev(1)}\n\u00a0\n${ev(2)}\n`, 'ndjson', 2).ok).toBe(true);
    const over = parseBatch(`${ev(1)}\n${ev(2)}\n${ev(3)}\n`, 'ndjson', 2);
    expect(over.ok || over.refusal.status).toBe(413);
    const bad = parseBatch(`${ev(1)}\n\n{"aep":"0.1","a":1,"a":2}\n`, 'ndjson', 10);
    expect(bad.ok || [bad.refusal.status, bad.refusal.body.line, (bad.refusal.body.issues as Array<{ rule: string }>)[0]!.rule]).toEqual([400, 3, 'json.member.duplicate']);
    const broken = parseBatch(`${ev(1)}\n{"aep":\n`, 'ndjson', 10);
    expect(broken.ok || [broken.refusal.body.line, (broken.refusal.body.issues as Array<{ rule: string }>)[0]!.rule]).toEqual([2, 'binding.json']);
  });

  it('takes a single JSON body spread over several lines, forwarding it on one line', () => {
    const verdict = parseBatch(`\uFEFF${JSON.stringify(JSON.parse(ev(4)), null, 2)}\n`, 'json', 1);
    expect(verdict.ok && verdict.events[0]!.raw).toBe(JSON.stringify(JSON.parse(ev(4))));
  });
});
