/**
 * Capture never leaks (issue 14, suite part 2): events with content at every capture level,
 * including shape-wrong, duplicate-member and prototype-key variants and vendor types, rendered
 * at every ceiling. No field above the ceiling reaches a subscriber, and no output claims more
 * than its ceiling. The pure path (admission + render, exactly what fan-out runs) takes the bulk
 * of the cases; a sample also goes over the wire, SSE and WebSocket.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CAPTURE_ANNOTATIONS } from '../impl/core/capture.js';
import { CAPTURE_ORDER, captureRank, type CaptureLevel } from '../impl/core/event.js';
import { parseEventText } from '../impl/relay/batch.js';
import { renderAt } from '../impl/relay/render.js';
import { startRelay } from '../impl/relay/server.js';
import { helloWs, openSse, post } from '../impl/relay/test-utils/testing.js';
import { CASES, CI, figures } from './test-utils/scale.js';

type Level = 'redacted' | 'full';
interface Probe {
  /** The event's JSON text (may carry a duplicate member). */
  readonly text: string;
  /** The canary and the lowest ceiling at which it may legitimately appear. */
  readonly canary: string;
  readonly level: Level;
  readonly variant: string;
}

const GATED: Array<{ type: string; path: string; level: Level }> = [];
for (const type of Object.keys(CAPTURE_ANNOTATIONS)) {
  for (const [path, level] of Object.entries(CAPTURE_ANNOTATIONS[type]!)) if (level === 'redacted' || level === 'full') GATED.push({ type, path, level });
}

/**
 * The steps of an annotation path: member names (which may themselves hold dots, like
 * `gen_ai.evaluation.name`: a step ends where the path so far is itself annotated) and `[]`.
 */
function steps(type: string, path: string): Array<string | null> {
  const ann = CAPTURE_ANNOTATIONS[type]!;
  const out: Array<string | null> = [];
  let prefix = '';
  let name = '';
  for (const token of path.split(/(\[\])|\./).filter((t) => t !== undefined && t !== '')) {
    if (token === '[]') {
      out.push(null);
      prefix += '[]';
      continue;
    }
    name = name === '' ? token : `${name}.${token}`;
    const full = prefix === '' ? name : `${prefix}.${name}`;
    if (Object.hasOwn(ann, full)) {
      out.push(name);
      prefix = full;
      name = '';
    }
  }
  if (name !== '') out.push(name);
  return out;
}

/** `data` holding `leaf` at the path; with `swap`, the first container below the top has the other shape. */
function place(type: string, path: string, leaf: unknown, swap: boolean): { data: Record<string, unknown>; swapped: boolean } {
  const s = steps(type, path);
  let node: unknown = leaf;
  let swapped = false;
  for (let i = s.length - 1; i >= 0; i--) {
    const step = s[i] as string | null;
    const wrapsContainer = i < s.length - 1;
    if (swap && i === 1 && wrapsContainer) {
      node = step === null ? { x: node } : [{ [step]: node }];
      swapped = true;
    } else node = step === null ? [node] : { [step]: node };
  }
  return { data: (Array.isArray(node) ? { list: node } : node) as Record<string, unknown>, swapped };
}

const envelope = (type: string, capture: string | undefined, n: number): Record<string, unknown> => ({
  aep: '0.1', id: `leak-${n}`, type, time: '2026-12-01T09:00:00Z', source: 'aep://leak/agent/l', agent: 'l', session: 'leak', seq: n, ...(capture === undefined ? {} : { capture }),
});

function probe(): fc.Arbitrary<Probe> {
  const declared = fc.constantFrom(undefined, 'none', 'metadata', 'redacted', 'full');
  return fc.tuple(fc.integer({ min: 0, max: GATED.length - 1 }), fc.integer({ min: 0, max: 5 }), declared, fc.nat(1_000_000)).map(([g, variant, capture, n]) => {
    const gate = GATED[g]!;
    const canary = `CANARY${n}X`;
    const at = (data: unknown): string => JSON.stringify({ ...envelope(gate.type, capture, n), data });
    switch (variant) {
      case 0:
        return { text: at(place(gate.type, gate.path, canary, false).data), canary, level: gate.level, variant: 'gated field' };
      case 1: {
        // A shape-wrong container is dropped whole; without a container to swap it is the gated field again.
        const { data, swapped } = place(gate.type, gate.path, canary, true);
        return { text: at(data), canary, level: swapped ? 'redacted' : gate.level, variant: 'shape-wrong container' };
      }
      case 2:
        return { text: at(JSON.parse(`{"__proto__":{"${gate.path.split(/[.[]/)[0]}":"${canary}"}}`)), canary, level: 'redacted', variant: 'prototype key' };
      case 3: {
        const good = at({});
        return { text: good.replace('"data":{}', `"data":{"kept":"${canary}"},"data":{}`), canary, level: 'redacted', variant: 'duplicate member' };
      }
      case 4:
        return { text: JSON.stringify({ ...envelope('x.leak.session.note', capture, n), data: { note: canary, n: 1 } }), canary, level: 'redacted', variant: 'vendor type' };
      default:
        return { text: at({ [`vendor_${n % 7}`]: canary }), canary, level: 'redacted', variant: 'unannotated member' };
    }
  });
}

describe('capture never leaks', () => {
  it(`${CASES} generated events x every ceiling, through admission and fan-out rendering`, () => {
    const counts: Record<string, number> = { refused: 0, rendered: 0, leaks: 0 };
    fc.assert(
      fc.property(probe(), ({ text, canary, level }) => {
        const admitted = parseEventText(text, 1);
        if (!admitted.ok) {
          counts.refused!++;
          return;
        }
        for (const ceiling of CAPTURE_ORDER.slice(0, 3) as CaptureLevel[]) {
          const out = renderAt(admitted.rec, ceiling);
          counts.rendered!++;
          const claimed = (JSON.parse(out) as { capture?: CaptureLevel }).capture ?? 'metadata';
          expect(captureRank(claimed), `${ceiling}: ${out}`).toBeLessThanOrEqual(captureRank(ceiling));
          if (captureRank(level) > captureRank(ceiling) && out.includes(canary)) counts.leaks!++;
          expect(captureRank(level) > captureRank(ceiling) ? out.includes(canary) : false, `${ceiling} leaked: ${out}`).toBe(false);
        }
      }),
      { numRuns: CASES },
    );
    figures('capture-pure', { cases: CASES, ...counts });
  });

  it('a sample over the wire: SSE and WebSocket subscribers at none, metadata and redacted, live and replayed', async () => {
    const relay = await startRelay({ port: 0, buffer: 100_000 });
    const ceilings: CaptureLevel[] = ['none', 'metadata', 'redacted'];
    const sse = await Promise.all(ceilings.map((c) => openSse(`${relay.url}/stream?capture=${c}`)));
    const ws = await Promise.all(ceilings.map((c) => helloWs(relay.url)));
    try {
      for (const [i, c] of ceilings.entries()) {
        ws[i]!.send({ type: 'subscribe', id: c, capture: c });
        await ws[i]!.waitFor((f) => f?.type === 'subscribed');
      }
      // Unique canaries, ids and seqs across the sample (generated ones may repeat).
      const sample = fc.sample(probe(), CI ? 200 : 1_000).map((p, i) => {
        const n = /"id":"leak-(\d+)"/.exec(p.text)![1]!;
        const canary = `WIRE${i}CANARY`;
        const text = p.text.split(p.canary).join(canary).replace(`"id":"leak-${n}"`, `"id":"wire-${i}"`).replace(`"seq":${n}`, `"seq":${i}`);
        return { ...p, text, canary };
      });
      let accepted = 0;
      for (let i = 0; i < sample.length; i += 50) {
        const batch = sample.slice(i, i + 50).filter((p) => parseEventText(p.text, 1).ok);
        accepted += batch.length;
        if (batch.length > 0) expect((await post(relay.url, batch.map((p) => p.text))).status).toBe(202);
      }
      const marker = JSON.stringify({ ...envelope('progress.status', undefined, 9_999_999), session: 'end', data: {} });
      await post(relay.url, marker);
      await Promise.all(sse.map((s) => s.waitFor((t) => t.includes('id: end:'), 20_000)));
      await Promise.all(ws.map((w) => w.waitFor((f) => f?.session === 'end', 20_000)));
      const replays = await Promise.all(ceilings.map(async (c) => (await fetch(`${relay.url}/stream?capture=${c}&from=all&live=0`)).text()));
      let leaks = 0;
      for (const p of sample) {
        for (const [i, c] of ceilings.entries()) {
          if (captureRank(p.level) <= captureRank(c)) continue;
          for (const seen of [sse[i]!.text(), replays[i]!, ws[i]!.frames.join('\n')]) if (seen.includes(p.canary)) leaks++;
        }
      }
      expect(leaks).toBe(0);
      figures('capture-wire', { events: sample.length, accepted, subscribers: 6, leaks });
    } finally {
      for (const s of sse) s.close();
      for (const w of ws) w.ws.terminate();
      await relay.close();
    }
  });
});
