import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AepEvent } from '../../core/event.js';
import { Cursor } from './cursor.js';
import { SseParser, type SseMessage } from '../../relay-client/sse-parser.js';
import { exportRequest, toAnyValue } from '../otlp/wire.js';
import { logsUrl } from '../otlp/exporter.js';

const ev = (id: string, session?: string, seq?: number, epoch?: number): AepEvent =>
  ({ aep: '0.1', id, type: 'progress.status', time: '2026-12-01T10:00:00.123Z', source: 'aep://h/a', agent: 'a', ...(session ? { session, seq, epoch } : {}) }) as unknown as AepEvent;

describe('SseParser', () => {
  it('parses messages split across chunks, CRLF, multi-line data and comments', () => {
    const msgs: SseMessage[] = [];
    const comments: string[] = [];
    const p = new SseParser();
    for (const chunk of ['id: s:0:1\r\nevent: run.sta', 'rted\r\ndata: {"a":\r\ndata: 1}\r\n\r\n: ping\n\n', 'data: x\n', '\n']) p.feed(chunk, (m) => msgs.push(m), (c) => comments.push(c));
    expect(msgs).toEqual([{ id: 's:0:1', event: 'run.started', data: '{"a":\n1}' }, { data: 'x' }]);
    expect(comments).toEqual(['ping']);
  });
});

describe('Cursor', () => {
  it('dedupes by (source, id) and by (source, session) position, and persists across instances', () => {
    const dir = mkdtempSync(join(tmpdir(), 'aep-cursor-'));
    try {
      const file = join(dir, 'sub', 'c.json');
      const c = new Cursor(file);
      expect(c.resumable).toBe(false);
      c.accept([ev('A', 's', 3, 1), ev('B')]);
      const again = new Cursor(file);
      expect(again.resumable).toBe(true);
      expect([ev('A2', 's', 3, 1), ev('x', 's', 2, 1), ev('y', 's', 9, 0), ev('B'), ev('n', 's', 4, 1), ev('m', 's', 0, 2), ev('o', 't', 0, 0)].map((e) => again.seen(e))).toEqual([true, true, true, true, false, false, false]);
      // Another source sharing the ids and the session is a different emitter: nothing of it was delivered.
      expect([ev('A', 's', 3, 1), ev('B'), ev('x', 's', 2, 1)].map((e) => again.seen({ ...e, source: 'aep://other' }))).toEqual([false, false, false]);
      const source = ev('A').source;
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 2, positions: { s: { [source]: { epoch: 1, seq: 3 } } }, recent: [[source, 'A'], [source, 'B']] });
      writeFileSync(file, '{not json');
      expect(() => new Cursor(file)).toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Cursor.gapBefore (the gap the relay no longer holds, judged as the relay judges a resume position)', () => {
  it('says nothing at, before or right after the position, nor for sessions or events without one; names both ends otherwise', () => {
    const c = new Cursor();
    c.accept([ev('A', 's', 7, 2)]);
    const judge = (e: AepEvent) => c.gapBefore(e) ?? null;
    expect([ev('x', 's', 8, 2), ev('x', 's', 7, 2), ev('x', 's', 3, 2), ev('x', 's', 40, 1), ev('x', 't', 50, 2), ev('x')].map(judge)).toEqual([null, null, null, null, null, null]);
    expect(judge(ev('x', 's', 9, 2))).toEqual({ after: { epoch: 2, seq: 7 }, earliest: { epoch: 2, seq: 9 } });
    expect(judge(ev('x', 's', 0, 3))).toEqual({ after: { epoch: 2, seq: 7 }, earliest: { epoch: 3, seq: 0 } }); // a new epoch: the relay says exhausted too
  });
});

describe('OTLP wire encoding', () => {
  it('encodes AnyValues and groups records by service, with the exact nanosecond time', () => {
    expect(toAnyValue({ s: 'x', i: 3, d: 0.5, b: true, a: [1], n: null })).toEqual({
      kvlistValue: { values: [
        { key: 's', value: { stringValue: 'x' } }, { key: 'i', value: { intValue: '3' } }, { key: 'd', value: { doubleValue: 0.5 } },
        { key: 'b', value: { boolValue: true } }, { key: 'a', value: { arrayValue: { values: [{ intValue: '1' }] } } }, { key: 'n', value: {} },
      ] },
    });
    const req = exportRequest([ev('A', 's', 0, 0), { ...ev('B'), agent: 'b' } as AepEvent, ev('C', 's', 1, 0)]) as { resourceLogs: { resource: unknown; scopeLogs: { logRecords: Record<string, unknown>[] }[] }[] };
    expect(req.resourceLogs.map((r) => r.resource)).toEqual([{ attributes: [{ key: 'service.name', value: { stringValue: 'a' } }] }, { attributes: [{ key: 'service.name', value: { stringValue: 'b' } }] }]);
    const first = req.resourceLogs[0]!.scopeLogs[0]!.logRecords;
    expect(first.map((r) => r.timeUnixNano)).toEqual(['1796119200123000000', '1796119200123000000']);
    expect(first[0]).toMatchObject({ severityNumber: 9, severityText: 'INFO', eventName: 'dev.aep.progress.status' });
    expect(logsUrl('http://c:4318')).toBe('http://c:4318/v1/logs');
    expect(logsUrl('http://c:4318/v1/logs')).toBe('http://c:4318/v1/logs');
  });
});
