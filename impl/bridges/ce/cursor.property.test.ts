/**
 * The ce/otlp sidecars' delivery core (cursor.ts: `Cursor` and `Intake`) against streams from
 * several sources that share ids and session names: redeliveries, sink failures (the sidecar
 * resubscribes with `from=all` and the cursor drops what the sink has), and restarts from the
 * cursor file. Every distinct (source, id) reaches the sink exactly once.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { AepEvent } from '../../core/event.js';
import { Cursor, Intake } from './cursor.js';
import { startSidecar } from './sidecar.js';
import { SOURCES, distinct, emit, relayReplay, repeated, script, type Ev } from '../../operator/test-utils/identity-streams.js';

const dir = mkdtempSync(join(tmpdir(), 'aep-cursor-prop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let runs = 0;

/** `fail[i]`: the delivery attempted after step i fails once (the sink was down). */
function runSidecar(steps: Parameters<typeof emit>[0], fail: readonly boolean[], batch: number): Ev[] {
  const file = join(dir, `c${runs++}.json`);
  const events = emit(steps);
  const held: Ev[] = [];
  const sink: Ev[] = [];
  let cursor = new Cursor(file);
  let intake = new Intake(cursor);
  const offer = (e: Ev): void => void intake.offer(e as unknown as AepEvent);
  const drain = (): void => {
    while (intake.queue.length > 0) {
      sink.push(...(intake.queue.slice(0, batch) as unknown as Ev[]));
      intake.accepted(Math.min(batch, intake.queue.length));
    }
  };
  events.forEach((e, i) => {
    const s = steps[i]!;
    held.push(e);
    if (s.restart) {
      // Stopped with events pending (never accepted), started again from the file: from=all.
      cursor = new Cursor(file);
      intake = new Intake(cursor);
      for (const r of relayReplay(held, 'all')) offer(r);
    } else offer(e);
    if (s.dup !== null && i - s.dup >= 0) offer(events[i - s.dup]!);
    if (fail[i]) {
      // The delivery failed: the subscription is closed, pending goes out once the sink is back, then from=all.
      drain();
      for (const r of relayReplay(held, 'all')) offer(r);
    } else if (intake.queue.length >= batch) {
      sink.push(...(intake.queue.slice(0, batch) as unknown as Ev[]));
      intake.accepted(batch);
    }
  });
  drain();
  return sink;
}

describe('sidecar delivery core: sources sharing ids and sessions', () => {
  it('the sink receives every (source, id) exactly once across redeliveries, sink failures and restarts', () => {
    fc.assert(
      fc.property(script({ loose: true }), fc.array(fc.boolean(), { maxLength: 40 }), fc.integer({ min: 1, max: 4 }), (steps, fail, batch) => {
        const events = emit(steps);
        const sink = runSidecar(steps, fail, batch);
        expect(repeated(sink)).toEqual([]);
        expect([...distinct(sink)].sort()).toEqual([...distinct(events)].sort());
      }),
      { numRuns: 150 },
    );
  });

  it('a known case: four events, two sharing an id, two sharing a session, all delivered; none again after a restart', () => {
    const [a, b, c] = SOURCES;
    const four = [
      { id: 'same', source: a, session: 'x', epoch: 1, seq: 0 },
      { id: 'same', source: b, session: 'y', epoch: 1, seq: 0 },
      { id: 'one', source: a, session: 'z', epoch: 1, seq: 5 },
      { id: 'two', source: c, session: 'z', epoch: 1, seq: 1 },
    ] as unknown as AepEvent[];
    const file = join(dir, 'known.json');
    const first = new Intake(new Cursor(file));
    expect(four.map((e) => first.offer(e))).toEqual([true, true, true, true]);
    first.accepted(4);
    const again = new Intake(new Cursor(file));
    expect(four.map((e) => again.offer(e))).toEqual([false, false, false, false]);
    expect(again.offer({ ...four[3]!, id: 'three', seq: 2 } as AepEvent)).toBe(true);
  });

  it('judges a gap per (source, session): the other source of a shared session neither hides nor fakes one', () => {
    const c = new Cursor();
    const at = (src: number, seq: number) => ({ id: `e${seq}`, source: SOURCES[src], session: 's', epoch: 1, seq }) as unknown as AepEvent;
    c.accept([at(0, 9), at(1, 3)]);
    expect(c.gapBefore(at(1, 4))).toBeUndefined();
    expect(c.gapBefore(at(1, 7))).toEqual({ after: { epoch: 1, seq: 3 }, earliest: { epoch: 1, seq: 7 } });
    expect(c.gapBefore({ id: 'b0', source: SOURCES[2], session: 's', epoch: 1, seq: 0 } as unknown as AepEvent)).toBeUndefined();
    expect(c.gapBefore({ id: 'a12', source: SOURCES[0], session: 's', epoch: 1, seq: 12 } as unknown as AepEvent)).toEqual({ after: { epoch: 1, seq: 9 }, earliest: { epoch: 1, seq: 12 } });
  });

  it('a version-1 cursor file (bare sessions and ids) is resumable but drops nothing, and is rewritten as version 2', () => {
    const file = join(dir, 'v1.json');
    writeFileSync(file, JSON.stringify({ positions: { s: { epoch: 1, seq: 9 } }, recentIds: ['e1'] }));
    const c = new Cursor(file);
    expect([c.legacy, c.resumable]).toEqual([true, true]);
    const e = { id: 'e1', source: SOURCES[1], session: 's', epoch: 1, seq: 2 } as unknown as AepEvent;
    expect(c.seen(e)).toBe(false);
    c.accept([e]);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 2, positions: { s: { [SOURCES[1]]: { epoch: 1, seq: 2 } } }, recent: [[SOURCES[1], 'e1']] });
    expect(new Cursor(file).legacy).toBe(false);
  });

  it('the sidecar says so when it starts from a version-1 cursor file', async () => {
    const file = join(dir, 'v1-start.json');
    writeFileSync(file, JSON.stringify({ positions: { s: { epoch: 1, seq: 9 } }, recentIds: ['e1'] }));
    const log: string[] = [];
    const side = startSidecar({ relay: 'http://127.0.0.1:9', statePath: file, batchSize: 1, batchMs: 0, initialBackoffMs: 10_000, deliver: async () => undefined, log: (l) => log.push(l) });
    await side.close();
    expect(log[0]).toBe(`cursor ${file} was written by an older aep (positions per bare session, ids without their source): it cannot tell sources apart, so it is not used to skip anything; what the relay still holds is delivered again once, and the cursor is rewritten in the new format`);
  });
});
