/**
 * A down-levelled copy is made once per event and ceiling: the live record a batch fans out and
 * the record the buffer holds for the same event share it, and the held record keeps no bytes.
 */
import { describe, expect, it, vi } from 'vitest';

const calls = vi.hoisted(() => ({ downlevel: 0 }));
vi.mock('../core/capture.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../core/capture.js')>();
  return {
    ...real,
    downlevel: (...args: Parameters<typeof real.downlevel>) => {
      calls.downlevel++;
      return real.downlevel(...args);
    },
  };
});

const { ReplayBuffer } = await import('./buffer.js');
const { renderAt } = await import('./render.js');
const { batchBytes } = await import('./sse-bytes.js');

const raw = '{"aep":"0.1","id":"e1","type":"tool.completed","time":"2026-11-30T06:00:00.000Z","source":"aep://h/agent/a/session/s1","agent":"a","session":"s1","seq":3,"epoch":0,"capture":"full","data":{"tool":{"name":"Edit","call_id":"c"},"status":"success","result":"secret text"}}';

describe('renderAt across the live and the held record of one event', () => {
  it('down-levels once per ceiling, whichever record asks first', () => {
    const buffer = new ReplayBuffer(10, 10);
    const live = { event: JSON.parse(raw), raw };
    const { held } = buffer.admit(live);
    calls.downlevel = 0;
    const lowered = renderAt(live, 'metadata');
    expect(lowered).not.toContain('secret');
    expect(renderAt(held!, 'metadata')).toBe(lowered);
    expect(calls.downlevel).toBe(1);
    expect(renderAt(held!, 'none')).not.toContain('secret');
    expect(renderAt(live, 'none')).toBe(renderAt(held!, 'none'));
    expect(calls.downlevel).toBe(2);
  });

  it('encodes a held record without keeping any bytes on it', () => {
    const buffer = new ReplayBuffer(10, 10);
    const { held } = buffer.admit({ event: JSON.parse(raw), raw });
    const a = batchBytes([held!], undefined);
    expect(a.toString('utf8')).toBe(`id: s1:0:3\nevent: tool.completed\ndata: ${raw}\n\n`);
    expect(batchBytes([held!], 'metadata').toString('utf8')).not.toContain('secret');
    expect(Object.getOwnPropertySymbols(held!)).toEqual([]);
  });
});
