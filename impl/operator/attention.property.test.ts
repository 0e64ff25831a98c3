/**
 * `aep tail --attention`'s inbox core (openRequests) when sources share session names and mint
 * the same request ids: each source's requests open and close on their own; a foreign answer
 * (another party recording the answer) still closes the request it names.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openRequests } from './attention.js';
import { SESSIONS, SOURCES } from './test-utils/identity-streams.js';

type Json = Record<string, unknown>;
const op = fc.record({ src: fc.nat(SOURCES.length - 1), ses: fc.nat(SESSIONS.length - 1), kind: fc.constantFrom('req', 'req', 'close', 'end'), pick: fc.nat() });

describe('the inbox: sources sharing sessions and request ids', () => {
  it('lists exactly the requests each source left open', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const events: Json[] = [];
        const open: string[] = [];
        const next = new Map<number, number>();
        let n = 0;
        for (const o of ops) {
          const source = SOURCES[o.src]!;
          const session = SESSIONS[o.ses]!;
          const base = { aep: '0.1', source, agent: 'a', session, time: `2026-01-01T00:00:${String(n % 60).padStart(2, '0')}Z`, data: {} };
          if (o.kind === 'req') {
            const id = `q${next.get(o.src) ?? 0}`;
            next.set(o.src, (next.get(o.src) ?? 0) + 1);
            events.push({ ...base, id, type: 'attention.requested', data: { kind: 'question', prompt: 'ok?' } });
            open.push(`${source} ${session} ${id}`);
          } else if (o.kind === 'close') {
            const mine = open.filter((k) => k.startsWith(`${source} ${session} `));
            if (mine.length === 0) continue;
            const key = mine[o.pick % mine.length]!;
            events.push({ ...base, id: `r${n++}`, type: 'attention.resolved', subject: key.split(' ')[2], data: { resolution: 'answered' } });
            open.splice(open.indexOf(key), 1);
          } else {
            events.push({ ...base, id: `x${n++}`, type: 'session.ended', data: {} });
            for (const key of open.filter((k) => k.startsWith(`${source} ${session} `))) open.splice(open.indexOf(key), 1);
          }
        }
        const listed = openRequests(events).map((r) => `${r.source} ${r.session} ${r.id}`);
        expect(listed.sort()).toEqual([...open].sort());
      }),
      { numRuns: 300 },
    );
  });

  it('an answer recorded by another party closes the request it names', () => {
    const req = { source: SOURCES[0], session: 's', id: 'q0', type: 'attention.requested', data: {} };
    const answer = { source: 'aep://operator', session: 's', id: 'a1', type: 'attention.answered', subject: 'q0', data: {} };
    expect(openRequests([req, answer])).toEqual([]);
  });
});
