/**
 * `aep sink`'s writer (SinkWriter: dedupe, positions, files, crash repair) against streams from
 * several sources that share ids and session names, redelivered, with restarts (clean, and
 * crashes that leave a torn line) each followed by the relay's `from=all` replay. Every distinct
 * (source, id) ends up on disk exactly once, whatever file it shares.
 */
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SinkWriter } from './sink-writer.js';
import { parseName } from './sink-files.js';
import { SOURCES, distinct, emit, relayReplay, repeated, script, type Ev } from './test-utils/identity-streams.js';

function onDisk(dir: string): Ev[] {
  return readdirSync(dir)
    .filter((f) => parseName(f) !== undefined)
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter((l) => l !== ''))
    .map((l) => JSON.parse(l) as Ev);
}

function runSink(steps: Parameters<typeof emit>[0], torn: readonly boolean[], rotate: boolean, batch: number): Ev[] {
  const dir = mkdtempSync(join(tmpdir(), 'aep-sink-prop-'));
  try {
    const events = emit(steps);
    const held: Ev[] = [];
    const open = (): SinkWriter => {
      const w = new SinkWriter({ dir, batch, flushMs: 60_000, ...(rotate ? { rotateBytes: 700 } : {}), now: () => 1_000 });
      w.recover();
      for (const r of relayReplay(held, 'all')) w.accept(JSON.stringify(r), r);
      return w;
    };
    let w = open();
    events.forEach((e, i) => {
      const s = steps[i]!;
      held.push(e);
      if (s.restart) {
        w.close();
        // A crash mid-write: part of a line after the last durable one.
        if (torn[i]) appendFileSync(join(dir, 'shared.jsonl'), JSON.stringify(e).slice(0, 25));
        w = open();
      } else w.accept(JSON.stringify(e), e);
      if (s.dup !== null && i - s.dup >= 0) w.accept(JSON.stringify(events[i - s.dup]), events[i - s.dup]!);
    });
    w.close();
    return onDisk(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('aep sink writer: sources sharing ids and sessions', () => {
  it('writes every (source, id) exactly once across redeliveries, rotations, restarts and torn lines', () => {
    fc.assert(
      fc.property(script({ loose: true, max: 30 }), fc.array(fc.boolean(), { maxLength: 30 }), fc.boolean(), fc.integer({ min: 1, max: 8 }), (steps, torn, rotate, batch) => {
        const events = emit(steps);
        const disk = runSink(steps, torn, rotate, batch);
        expect(repeated(disk)).toEqual([]);
        expect([...distinct(disk)].sort()).toEqual([...distinct(events)].sort());
      }),
      { numRuns: 40 },
    );
  });

  it('a known case: two sources in one session, the second behind the first, both written; a restart drops only the overlap', () => {
    const dir = mkdtempSync(join(tmpdir(), 'aep-sink-known-'));
    try {
      const at = (src: number, seq: number): Ev => ({ id: `e${seq}`, source: SOURCES[src]!, session: 'shared', epoch: 1, seq });
      const w = new SinkWriter({ dir });
      expect([at(0, 0), at(0, 1), at(0, 2), at(1, 0), at(1, 1)].map((e) => w.accept(JSON.stringify(e), e))).toEqual([true, true, true, true, true]);
      w.close();
      const again = new SinkWriter({ dir });
      again.recover();
      expect([at(0, 2), at(1, 1), at(1, 2), at(0, 3)].map((e) => again.accept(JSON.stringify(e), e))).toEqual([false, false, true, true]);
      again.close();
      expect(JSON.parse(readFileSync(join(dir, '.sink-state.json'), 'utf8'))).toEqual({ version: 2, positions: { shared: { [SOURCES[0]]: { epoch: 1, seq: 3 }, [SOURCES[1]]: { epoch: 1, seq: 2 } } } });
      expect(onDisk(dir).map((e) => `${e.source.split('/').pop()} ${e.seq}`)).toEqual(['alpha 0', 'alpha 1', 'alpha 2', 'beta 0', 'beta 1', 'beta 2', 'alpha 3']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
