/**
 * `POST /events` end to end, against the reference path: what each SSE subscriber (no ceiling,
 * `metadata`, `redacted`, `full`) receives for NDJSON bodies read as lines in pieces
 * (`body-lines.ts`) and written as batch bytes in parts (`sse-bytes.ts`) is exactly the UTF-8 of
 * `sseEvent(event, renderAt(rec, ceiling))` over `parseBatch` of the decoded body, for bodies that
 * are ASCII or not, with CRLF line ends, blank lines, a byte order mark, duplicates, lines longer
 * than a piece and batches larger than a socket read; bodies with an invalid line mixed in are
 * refused as the reference refuses them and deliver nothing.
 */
import { describe, expect, it } from 'vitest';
import { parseBatch } from './batch.js';
import { PIECE } from './body-lines.js';
import { renderAt } from './render.js';
import { sseEvent } from './sse-format.js';
import { openSse, post } from './test-utils/testing.js';
import { useRelay } from './test-utils/use-relay.js';

const harness = useRelay();
const CEILINGS = [undefined, 'metadata', 'redacted', 'full'] as const;

let next = 0;
function line(text: string, capture = 'full'): string {
  next++;
  return JSON.stringify({ aep: '0.1', id: `ib-${next}`, type: 'tool.completed', time: '2026-11-30T06:00:00.000Z', source: 'aep://h/agent/a/session/s', agent: 'a', session: 'ib', epoch: 0, seq: next, capture, data: { tool: { name: 'Edit', call_id: `k${next}` }, status: 'success', result: text } });
}

function bodies(): string[] {
  const ascii = Array.from({ length: 1000 }, (_, i) => line(`step ${i} of the batch`)).join('\n') + '\n';
  const mixed = Array.from({ length: 700 }, (_, i) => line(i % 50 === 7 ? `caf\u00e9 \u{1F600} \u0141 ${i}` : `plain ${i}`, i % 3 === 0 ? 'redacted' : 'full'));
  const withDup = [line('one'), line('two')];
  withDup.push(withDup[0]!);
  return [
    ascii,
    `${mixed.join('\r\n')}\r\n`,
    `\uFEFF${line('after a byte order mark')}\n\n  \n${line('x'.repeat(PIECE * 2))}\n${line('\u00e9'.repeat(PIECE))}`,
    `${withDup.join('\n')}\n`,
    `${line('fine')}\n{"aep":"0.1",\n${line('never delivered')}\n`, // refused: not JSON on line 2
    `${line('fine')}\n${JSON.stringify({ aep: '0.1', type: 'bad' })}\n`, // refused: not an event
    ascii, // all duplicates: delivered again
  ];
}

describe('POST /events, read as lines and written as batch bytes', () => {
  it('delivers exactly the reference bytes at every ceiling and refuses as the reference does', async () => {
    const base = await harness.start({ maxBatch: 5000 });
    const readers = await Promise.all(CEILINGS.map((c) => openSse(`${base}/stream${c ? `?capture=${c}` : ''}`)));
    const before = readers.map((r) => r.text().length);
    const expected = CEILINGS.map(() => [] as string[]);
    for (const text of bodies()) {
      const reference = parseBatch(text, 'ndjson', 5000);
      const reply = await post(base, text, { type: 'application/x-ndjson' });
      if (!reference.ok) {
        expect([reply.status, reply.body]).toEqual([reference.refusal.status, reference.refusal.body]);
        continue;
      }
      expect(reply.status).toBe(202);
      expect(reply.body.accepted).toBe(reference.events.length);
      CEILINGS.forEach((c, i) => expected[i]!.push(...reference.events.map((r) => sseEvent(r.event, renderAt(r, c)))));
    }
    for (let i = 0; i < readers.length; i++) {
      const want = expected[i]!.join('');
      const got = await readers[i]!.waitFor((t) => t.length - before[i]! >= want.length, 10_000);
      expect(Buffer.from(got.slice(before[i]), 'utf8').equals(Buffer.from(want, 'utf8'))).toBe(true);
      readers[i]!.close();
    }
  }, 30_000);
});
