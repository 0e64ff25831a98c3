/**
 * `readBodyLines` / `linesOf` against the reference path, `readBody` then `parseBatch`: the same
 * lines (`text.split('\n')`), the same verdicts (events, refusals, the first bad UTF-8 byte) for
 * bodies of every kind (ASCII, non-ASCII, CRLF, blank lines, a byte order mark, lines longer
 * than a piece, invalid lines, invalid UTF-8) cut into chunks anywhere, multi-byte characters
 * included.
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { readBody } from '../http/body.js';
import { parseBatch, parseLines } from './batch.js';
import { linesOf, PIECE, readBodyLines } from './body-lines.js';

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TEXTS = ['plain', 'caf\u00e9', '\u0141\u00f3d\u017a', 'emoji \u{1F600} end', 'x'.repeat(PIECE + 100), '\u00ff\u0100', 'tab\there'];

function event(i: number, text: string): string {
  return JSON.stringify({ aep: '0.1', id: `e-${i}`, type: 'progress.status', time: '2026-11-30T06:00:00.000Z', source: 'aep://h/agent/a/session/s', agent: 'a', session: 's', epoch: 0, seq: i, capture: 'full', data: { phase: 'working', message: text } });
}

/** A body of `n` lines drawn by `next`: events, blank and whitespace lines, CRLF ends, invalid lines. */
function body(next: () => number, n: number, invalid: boolean): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = next();
    const text = TEXTS[Math.floor(next() * TEXTS.length)]!;
    if (r < 0.05) lines.push('');
    else if (r < 0.08) lines.push('  \t');
    else if (invalid && r < 0.1) lines.push('{"aep":"0.1",');
    else if (invalid && r < 0.12) lines.push(JSON.stringify({ aep: '0.1', type: 'nope' }));
    else if (r < 0.2) lines.push(`${event(i, text)}\r`);
    else if (r < 0.23) lines.push(`  ${event(i, text)}  `);
    else lines.push(event(i % 7 === 3 ? 3 : i, text)); // duplicates of one event among the others
  }
  const joined = lines.join('\n') + (next() < 0.7 ? '\n' : '');
  return next() < 0.1 ? `\uFEFF${joined}` : joined;
}

/** `bytes` cut at random places into chunks (sizes from 1 byte to past a piece). */
function chunked(bytes: Buffer, next: () => number): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; ) {
    const r = next();
    const size = r < 0.2 ? 1 + Math.floor(next() * 8) : r < 0.6 ? 1 + Math.floor(next() * 4096) : 1 + Math.floor(next() * 3 * PIECE);
    out.push(bytes.subarray(at, at + size));
    at += size;
  }
  return out;
}

function request(chunks: readonly Buffer[]): IncomingMessage {
  const req = Object.assign(new EventEmitter(), { headers: {} });
  queueMicrotask(() => {
    for (const c of chunks) req.emit('data', c);
    req.emit('end');
  });
  return req as unknown as IncomingMessage;
}

/** A verdict with each event as its text and parsed value: comparable across paths. */
function comparable(v: ReturnType<typeof parseBatch>): unknown {
  return v.ok ? { ok: true, events: v.events.map((r) => [r.raw, r.event, r.overDeclared]) } : v;
}

describe('readBodyLines', () => {
  it('gives the lines and the verdict of readBody then parseBatch, for 300 bodies in random chunks', async () => {
    const next = random(33);
    for (let k = 0; k < 300; k++) {
      const text = body(next, 1 + Math.floor(next() * 60), k % 3 === 0);
      const bytes = Buffer.from(text, 'utf8');
      const chunks = chunked(bytes, next);
      expect(linesOf(chunks)).toEqual(text.split('\n'));
      const reference = await readBody(request(chunks), 1 << 30);
      const lines = await readBodyLines(request(chunks), 1 << 30);
      expect(reference.ok && lines.ok).toBe(true);
      if (!reference.ok || !lines.ok) continue;
      for (const max of [1000, 5]) expect(comparable(parseLines(lines.lines, max))).toEqual(comparable(parseBatch(reference.text, 'ndjson', max)));
    }
  });

  it('keeps every line whole across chunk and piece boundaries, multi-byte characters included', () => {
    const text = `${'\u00e9'.repeat(PIECE)}\n${'a'.repeat(3 * PIECE)}\n\u{1F600}\n\n${'\u0141'.repeat(10)}`;
    const bytes = Buffer.from(text, 'utf8');
    for (const size of [1, 2, 3, 7, 1000, PIECE - 1, PIECE, PIECE + 1, bytes.length]) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
      expect(linesOf(chunks)).toEqual(text.split('\n'));
    }
    expect(linesOf([])).toEqual(['']);
    expect(linesOf([Buffer.from('\n')])).toEqual(['', '']);
  });

  it('refuses invalid UTF-8 naming the same first bad byte as readBody, and the same bounds', async () => {
    const next = random(7);
    const bads = [Buffer.from([0xff]), Buffer.from([0xc3]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xe2, 0x82]), Buffer.from([0xc0, 0xaf])];
    for (let k = 0; k < 60; k++) {
      const good = Buffer.from(body(next, 1 + Math.floor(next() * 20), false), 'utf8');
      const at = Math.floor(next() * (good.length + 1));
      const bytes = Buffer.concat([good.subarray(0, at), bads[k % bads.length]!, good.subarray(at)]);
      const chunks = chunked(bytes, next);
      expect(linesOf(chunks)).toBeUndefined();
      expect(await readBodyLines(request(chunks), 1 << 30)).toEqual(await readBody(request(chunks), 1 << 30));
    }
    const big = [Buffer.from('{"a":1}\n'.repeat(10))];
    expect(await readBodyLines(request(big), 20)).toEqual({ ok: false, reason: 'too-large' });
    const declared = Object.assign(request(big), { headers: { 'content-length': '80' } });
    expect(await readBodyLines(declared, 79)).toEqual({ ok: false, reason: 'too-large' });
  });
});
