import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { FLEET_HUB, useRelay } from './test-utils/use-relay.js';
import { makeEvent, makeSeries, openSse, post } from './test-utils/testing.js';

const harness = useRelay();
const start = harness.start;
const q = (v: unknown): string => encodeURIComponent(JSON.stringify(v));
const frame = (line: string): string => {
  const e = JSON.parse(line);
  return `id: ${e.session}:${e.epoch ?? 0}:${e.seq}\nevent: ${e.type}\ndata: ${line}\n\n`;
};

describe('GET /stream', () => {
  it('delivers filtered live events byte-exact, in order, with session:epoch:seq ids', async () => {
    const base = await start();
    const sse = await openSse(`${base}/stream?filter=${q({ session: 'live-a' })}`);
    expect(sse.status).toBe(200);
    expect(sse.headers['content-type']).toBe('text/event-stream');
    const wanted = makeSeries('live-a', 0, 2);
    expect((await post(base, [...makeSeries('other', 0, 1), ...wanted])).status).toBe(202);
    const text = await sse.waitFor((t) => t.split('\n\n').length > 3);
    expect(text).toBe(wanted.map(frame).join(''));
    sse.close();
  });

  it('forwards the posted bytes unchanged, whitespace and member order included', async () => {
    const base = await start();
    const sse = await openSse(`${base}/stream`);
    const line = `{ "data":{"phase":"x"},"aep":"0.1","id":"01KBYTES0000000000000000AA","type":"progress.status","time":"2026-11-30T05:00:00Z","source":"aep://t/b","agent":"t","session":"bytes","seq":7 }`;
    await post(base, line);
    expect(await sse.waitFor((t) => t.endsWith('\n\n'))).toBe(`id: bytes:0:7\nevent: progress.status\ndata: ${line.trim()}\n\n`);
    sse.close();
  });

  it('re-serializes a pretty-printed single event onto one data line', async () => {
    const base = await start();
    const sse = await openSse(`${base}/stream`);
    const event = makeEvent({ session: 'pretty', seq: 1 });
    await post(base, JSON.stringify(event, null, 2));
    expect(await sse.waitFor((t) => t.endsWith('\n\n'))).toBe(`id: pretty:0:1\nevent: progress.status\ndata: ${JSON.stringify(event)}\n\n`);
    sse.close();
  });

  it('sends agent-scoped events live with no id: line, and never buffers them', async () => {
    const base = await start();
    const sse = await openSse(`${base}/stream`);
    const hb = JSON.stringify(makeEvent({ type: 'agent.heartbeat', session: undefined, seq: undefined, epoch: undefined, data: {} }));
    expect((await post(base, hb)).status).toBe(202);
    expect(await sse.waitFor((t) => t.endsWith('\n\n'))).toBe(`event: agent.heartbeat\ndata: ${hb}\n\n`);
    sse.close();
    const replay = await openSse(`${base}/stream?from=all&live=0`);
    await replay.ended;
    expect(replay.text()).toBe(': replay-complete\n\n');
  });

  it('resumes strictly after a from position, then goes live without gap or duplicate', async () => {
    const base = await start();
    const lines = makeSeries('res', 0, 4);
    await post(base, lines.slice(0, 3));
    const sse = await openSse(`${base}/stream?from=${q([{ session: 'res', epoch: 0, seq: 0 }])}`);
    await sse.waitFor((t) => t.includes('res:0:2'));
    await post(base, lines.slice(2)); // seq 2 again (a duplicate) and 3, 4
    const text = await sse.waitFor((t) => t.includes('res:0:4'));
    // the duplicate of seq 2 crosses the hop live (at-least-once), as received
    expect(text).toBe([lines[1]!, lines[2]!, lines[2]!, lines[3]!, lines[4]!].map(frame).join(''));
    sse.close();
  });

  it('resumes from Last-Event-ID, with session names containing colons', async () => {
    const base = await start();
    const lines = makeSeries('a:b', 0, 3);
    await post(base, lines);
    const sse = await openSse(`${base}/stream?live=0`, { 'last-event-id': 'a:b:0:1' });
    await sse.ended;
    expect(sse.text()).toBe(`${frame(lines[2]!)}${frame(lines[3]!)}: replay-complete\n\n`);
  });

  it('lets from take precedence over Last-Event-ID', async () => {
    const base = await start();
    const lines = makeSeries('prec', 0, 3);
    await post(base, lines);
    const sse = await openSse(`${base}/stream?live=0&from=${q([{ session: 'prec', epoch: 0, seq: 2 }])}`, { 'last-event-id': 'prec:0:0' });
    await sse.ended;
    expect(sse.text()).toBe(`${frame(lines[3]!)}: replay-complete\n\n`);
  });

  it('writes the replay-exhausted comment before the replay when the position predates the buffer', async () => {
    const base = await start({ buffer: 3 });
    const lines = makeSeries('ev', 0, 5); // 0..2 evicted, 3..5 held
    await post(base, lines);
    const sse = await openSse(`${base}/stream?live=0&from=${q([{ session: 'ev', epoch: 0, seq: 0 }])}`);
    await sse.ended;
    expect(sse.text()).toBe(`: replay-exhausted ev 0:3\n\n${lines.slice(3).map(frame).join('')}: replay-complete\n\n`);
    const boundary = await openSse(`${base}/stream?live=0&from=${q([{ session: 'ev', epoch: 0, seq: 2 }])}`);
    await boundary.ended; // seq 2 was itself evicted: it predates the buffer, though nothing after it was lost
    expect(boundary.text()).toBe(`: replay-exhausted ev 0:3\n\n${lines.slice(3).map(frame).join('')}: replay-complete\n\n`);
    const fresh = await openSse(`${base}/stream?live=0&from=${q([{ session: 'ev', epoch: 0, seq: 3 }])}`);
    await fresh.ended;
    expect(fresh.text()).toBe(`${lines.slice(4).map(frame).join('')}: replay-complete\n\n`);
  });

  it('replays every held session for from=all, filter applied, with no exhaustion marker', async () => {
    const base = await start({ buffer: 2 });
    const a = makeSeries('all-a', 0, 3);
    const b = makeSeries('all-b', 0, 0, { severity: 'warning' });
    await post(base, [...a, ...b]);
    const every = await openSse(`${base}/stream?from=all&live=0`);
    await every.ended;
    expect(every.text()).toBe(`${[a[2]!, a[3]!, b[0]!].map(frame).join('')}: replay-complete\n\n`);
    const filtered = await openSse(`${base}/stream?from=all&live=0&filter=${q({ severity: { gte: 'warning' } })}`);
    await filtered.ended;
    expect(filtered.text()).toBe(`${frame(b[0]!)}: replay-complete\n\n`);
  });

  it('orders the buffer by (epoch, seq) whatever the arrival order', async () => {
    const base = await start();
    const [s0, s1, s2] = makeSeries('ord', 0, 2);
    const e1 = JSON.stringify(makeEvent({ session: 'ord', epoch: 1, seq: 0 }));
    await post(base, [e1, s2!, s0!, s1!]);
    const sse = await openSse(`${base}/stream?from=all&live=0`);
    await sse.ended;
    expect(sse.text()).toBe(`${[s0!, s1!, s2!, e1].map(frame).join('')}: replay-complete\n\n`);
  });

  it('down-levels to the capture ceiling and never up-levels', async () => {
    const base = await start();
    const full = makeEvent({ session: 'cap', seq: 0, capture: 'redacted', data: { message: 'secret words', phase: 'p' } });
    const meta = makeEvent({ session: 'cap', seq: 1, capture: 'metadata', data: { phase: 'q' } });
    await post(base, [JSON.stringify(full), JSON.stringify(meta)]);
    const sse = await openSse(`${base}/stream?from=all&live=0&capture=metadata`);
    await sse.ended;
    const datas = sse.text().split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)));
    expect(datas[0].capture).toBe('metadata');
    expect(datas[0].data).toEqual({ phase: 'p' });
    expect(sse.text()).toContain(`data: ${JSON.stringify(meta)}\n`);
  });

  it('accepts what the envelope allows (unknown types, payloads it does not certify) and forwards it', async () => {
    const base = await start();
    const future = JSON.stringify(makeEvent({ session: 'tol', seq: 0, type: 'progress.teleported', data: { where: 'mars' } }));
    const shapeless = JSON.stringify(makeEvent({ session: 'tol', seq: 1, type: 'run.failed', data: {} }));
    expect((await post(base, [future, shapeless])).status).toBe(202);
    const sse = await openSse(`${base}/stream?from=all&live=0`);
    await sse.ended;
    expect(sse.text()).toBe(`${frame(future)}${frame(shapeless)}: replay-complete\n\n`);
  });

  it('treats content above the declared capture as full: a ceiling never lets it through', async () => {
    const base = await start();
    const dishonest = JSON.stringify(makeEvent({ session: 'lie', seq: 0, data: { message: 'raw words', phase: 'p' } })); // declares metadata by default
    expect((await post(base, dishonest)).status).toBe(202);
    const asIs = await openSse(`${base}/stream?from=all&live=0`);
    await asIs.ended;
    expect(asIs.text()).toContain(`data: ${dishonest}\n`);
    for (const ceiling of ['metadata', 'redacted']) {
      const capped = await openSse(`${base}/stream?from=all&live=0&capture=${ceiling}`);
      await capped.ended;
      expect(capped.text(), ceiling).not.toContain('raw words');
      expect(capped.text(), ceiling).toContain('"phase":"p"');
    }
  });

  it('refuses a malformed or over-long from, a bad filter, capture or live with 400 before any header', async () => {
    const base = await start({ maxFrom: 2 });
    const cases: Array<[string, string]> = [
      ['from=%5Bnot-json', 'invalid-filter'],
      [`from=${q({ session: 'x' })}`, 'invalid-filter'],
      [`from=${q([{ session: 'x', epoch: 0, seq: -1 }])}`, 'invalid-filter'],
      [`from=${q([1, 2, 3].map((seq) => ({ session: `s${seq}`, epoch: 0, seq })))}`, 'limit-exceeded'],
      [`filter=${q({ NotAnAttr: 1 })}`, 'invalid-filter'],
      [`filter=${q({ seq: 1 })}`, 'invalid-filter'],
      ['capture=everything', 'invalid-filter'],
      ['live=maybe', 'invalid-filter'],
    ];
    for (const [query, code] of cases) {
      const res = await fetch(`${base}/stream?${query}`);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as any).error, query).toBe(code);
    }
  });

  it('sends a : ping heartbeat', async () => {
    const base = await start({ heartbeatMs: 30 });
    const sse = await openSse(`${base}/stream`);
    expect(await sse.waitFor((t) => t.length > 0)).toBe(': ping\n\n');
    sse.close();
  });

  it('ends each stream with : shutting-down when the relay closes', async () => {
    const base = await start();
    const sse = await openSse(`${base}/stream`);
    await harness.relay().close();
    await sse.ended;
    expect(sse.text()).toBe(': shutting-down\n\n');
  });

  it('writes a whole ingest batch to a subscriber as one HTTP chunk, bytes unchanged', async () => {
    const base = await start();
    const port = harness.relay().port;
    const raw = await new Promise<{ bytes: () => string; close: () => void }>((resolve, reject) => {
      let bytes = '';
      const s = connect(port, '127.0.0.1', () => s.write('GET /stream HTTP/1.1\r\nHost: relay\r\nAccept: text/event-stream\r\n\r\n'));
      s.setEncoding('latin1');
      s.on('data', (chunk: string) => {
        const first = bytes === '';
        bytes += chunk;
        if (first) resolve({ bytes: () => bytes, close: () => s.destroy() });
      });
      s.on('error', reject);
    });
    const head = raw.bytes();
    expect(head.endsWith('\r\n\r\n')).toBe(true); // headers only, flushed before any event
    const batch = makeSeries('one-chunk', 0, 2);
    expect((await post(base, batch)).status).toBe(202);
    const frames = batch.map(frame).join('');
    const chunk = `${Buffer.byteLength(frames).toString(16)}\r\n${frames}\r\n`;
    const body = (): string => raw.bytes().slice(head.length);
    for (let i = 0; i < 100 && httpChunks(body()).join('').length < frames.length; i++) await new Promise((r) => setTimeout(r, 10));
    if (FLEET_HUB) {
      // A fleet node reads the batch back from the stream in as many socket reads as NATS gives,
      // so it may fan it out in several chunks: the bytes still arrive unchanged, in order.
      expect(httpChunks(body()).join('')).toBe(frames);
    } else {
      expect(body()).toBe(chunk);
    }
    raw.close();
  });
});

/** The complete chunks at the start of a chunked HTTP body (latin1 text), in order; an incomplete tail is left out. */
function httpChunks(body: string): string[] {
  const out: string[] = [];
  let at = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', at);
    if (eol < 0) return out;
    const size = Number.parseInt(body.slice(at, eol), 16);
    const end = eol + 2 + size;
    if (!Number.isFinite(size) || body.length < end + 2) return out;
    out.push(body.slice(eol + 2, end));
    at = end + 2;
  }
}
