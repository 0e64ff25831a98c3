// Example tests that pin down what the bridge pin builders promise (issue 25). Every build
// runs inside a test, never while the file is collected, so a broken builder fails a test.
import { describe, expect, it } from 'vitest';
import type { AepEvent } from '../event.js';
import { toOcsf } from './ocsf.js';
import { toOtlp } from './otlp.js';
import { buildOcsfPins, buildOtlpPins, buildProjectPins, parseGolden } from './pin.js';

const SOURCE = 'aep://host/agent/a/session/s';

function event(id: string, type: string, seq: number, time = '2026-02-11T08:00:00.250Z'): AepEvent {
  return { aep: '0.1', id, type, time, source: SOURCE, agent: 'a', session: 's', seq };
}

// Index: 0 projected to OCSF, 1 not, 2 projected, 3 not and with a nanosecond time.
const golden: AepEvent[] = [
  event('e0', 'session.started', 0),
  event('e1', 'progress.status', 1),
  event('e2', 'session.ended', 2),
  event('e3', 'progress.status', 3, '2026-02-11T08:00:01.123456789Z'),
];
const lines = golden.map((e) => JSON.stringify(e));

/** The pretty-printed pin file the builders write: index → record, one trailing newline. */
function pinFile(entries: Array<[number, unknown]>): string {
  return JSON.stringify(Object.fromEntries(entries.map(([i, r]) => [String(i), r])), null, 2) + '\n';
}

describe('parseGolden', () => {
  it('reads one Event per line, in order', () => {
    expect(parseGolden(lines.join('\n'))).toStrictEqual(golden);
  });

  it('skips empty and whitespace-only lines, and tolerates CRLF line ends', () => {
    const text = `\n${lines[0]}\r\n  \n\t\r\n${lines[1]}\n\n${lines[2]}\n${lines[3]}\n`;
    expect(parseGolden(text)).toStrictEqual(golden);
  });

  it('reads nothing from an empty or blank text', () => {
    expect(parseGolden('')).toStrictEqual([]);
    expect(parseGolden('\n \n')).toStrictEqual([]);
  });
});

describe('buildOtlpPins', () => {
  it('writes the chosen Events keyed by golden index', () => {
    expect(buildOtlpPins(golden, [0, 2])).toBe(pinFile([[0, toOtlp(golden[0]!)], [2, toOtlp(golden[2]!)]]));
  });

  it('pins an Event whose time has whole milliseconds or whole seconds', () => {
    const coarse = [event('w', 'progress.status', 0, '2026-02-11T08:00:00Z')];
    expect(buildOtlpPins(coarse, [0])).toBe(pinFile([[0, toOtlp(coarse[0]!)]]));
  });

  it('refuses an Event whose nanosecond time a JSON number cannot hold exactly, naming it', () => {
    expect(() => buildOtlpPins(golden, [0, 3])).toThrow(
      new Error('golden[3].time 2026-02-11T08:00:01.123456789Z does not print exactly as a JSON number of nanoseconds; pin an Event with coarser time'),
    );
  });
});

describe('buildOcsfPins', () => {
  it('pins by default every Event in a projected family, and no other', () => {
    expect(buildOcsfPins(golden)).toBe(pinFile([[0, toOcsf(golden[0]!)], [2, toOcsf(golden[2]!)]]));
  });

  it('pins the chosen indexes', () => {
    expect(buildOcsfPins(golden, [2])).toBe(pinFile([[2, toOcsf(golden[2]!)]]));
  });

  it('refuses a chosen Event with no OCSF projection, naming it', () => {
    expect(() => buildOcsfPins(golden, [0, 1])).toThrow(new Error('golden[1] (progress.status) has no OCSF projection; do not pin it'));
  });

  it('writes an empty pin set for a golden with no projected Event', () => {
    expect(buildOcsfPins([golden[1]!])).toBe('{}\n');
  });
});

describe('buildProjectPins', () => {
  const text = lines.slice(0, 3).join('\n') + '\n';

  it('pins OTLP by id, including the first golden Event, and OCSF for every projected Event', () => {
    const pins = buildProjectPins(text, ['e2', 'e0']);
    expect(pins.otlpExpected).toBe(pinFile([[0, toOtlp(golden[0]!)], [2, toOtlp(golden[2]!)]]));
    expect(pins.ocsfExpected).toBe(pinFile([[0, toOcsf(golden[0]!)], [2, toOcsf(golden[2]!)]]));
    expect(pins.ceExpected.split('\n')).toHaveLength(4);
  });

  it('pins the first Event carrying an id', () => {
    const twice = `${lines[0]}\n${JSON.stringify({ ...golden[2]!, id: 'e0' })}\n`;
    expect(buildProjectPins(twice, ['e0']).otlpExpected).toBe(pinFile([[0, toOtlp(golden[0]!)]]));
  });

  it('names a pinned id that no golden Event has', () => {
    expect(() => buildProjectPins(text, ['e0', 'gone'])).toThrow(new Error('no golden Event has id gone; update PROJECT_OTLP_PIN_IDS'));
  });

  it('checks pinned Events in golden order, so the earliest unpinnable one is named', () => {
    const fine = event('fine', 'progress.status', 0);
    const nsAt1 = event('ns-1', 'progress.status', 1, '2026-02-11T08:00:02.000000001Z');
    const nsAt2 = event('ns-2', 'progress.status', 2, '2026-02-11T08:00:03.000000001Z');
    const nsAt3 = event('ns-3', 'progress.status', 3, '2026-02-11T08:00:04.000000001Z');
    const order = [fine, nsAt1, nsAt2, nsAt3].map((e) => JSON.stringify(e)).join('\n');
    expect(() => buildProjectPins(order, ['ns-2', 'ns-3', 'fine', 'ns-1'])).toThrow(/^golden\[1\]\.time 2026-02-11T08:00:02\.000000001Z /);
  });
});
