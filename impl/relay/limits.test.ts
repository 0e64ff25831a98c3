/**
 * Issue 14 defect 6: one client cannot stall ingest for everyone. Filters are bounded
 * (`MAX_FILTER_TERMS`, refused `limit-exceeded`) and compiled once at subscribe time.
 */
import { describe, expect, it } from 'vitest';
import { MAX_FILTER_TERMS } from '../core/filter.js';
import { useRelay } from './test-utils/use-relay.js';
import { helloWs, makeSeries, post } from './test-utils/testing.js';

const h = useRelay();

const filterOf = (terms: number): Record<string, unknown> => ({ session: Array.from({ length: terms - 1 }, (_, i) => `other-${i}`), type: 'progress.status' });

describe('filter size', () => {
  it('refuses a 10,000-key filter with limit-exceeded on WS and SSE, and the connection survives', async () => {
    const base = await h.start();
    const c = await helloWs(base);
    h.clients.push(c);
    const huge = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, 'v']));
    c.send({ type: 'subscribe', id: 'big', filter: huge });
    const err = JSON.parse(await c.waitFor((f) => f?.type === 'error'));
    expect([err.id, err.code]).toEqual(['big', 'limit-exceeded']);
    expect(err.detail).toContain(String(MAX_FILTER_TERMS));
    c.send({ type: 'subscribe', id: 'edge', filter: filterOf(MAX_FILTER_TERMS) });
    await c.waitFor((f) => f?.type === 'subscribed' && f.id === 'edge');
    const sse = await fetch(`${base}/stream?filter=${encodeURIComponent(JSON.stringify({ session: Array.from({ length: MAX_FILTER_TERMS + 1 }, (_, i) => `s${i}`) }))}`);
    expect([sse.status, ((await sse.json()) as { error: string }).error]).toEqual([400, 'limit-exceeded']);
  });

  it('64 subscriptions at the limit barely slow ingest (the filters are compiled once)', async () => {
    const base = await h.start({ buffer: 100_000 });
    const batch = (session: string): string[] => makeSeries(session, 0, 1999);
    const timed = async (session: string): Promise<number> => {
      const t0 = performance.now();
      expect((await post(base, batch(session))).status).toBe(202);
      return performance.now() - t0;
    };
    await timed('warm');
    const baseline = Math.min(await timed('b1'), await timed('b2'));
    const c = await helloWs(base);
    h.clients.push(c);
    for (let i = 0; i < 64; i++) c.send({ type: 'subscribe', id: i, filter: filterOf(MAX_FILTER_TERMS) });
    await c.waitFor((f) => f?.type === 'subscribed' && f.id === 63, 10_000);
    const loaded = Math.min(await timed('l1'), await timed('l2'));
    // Figures for the report: 2,000-event batches, 64 subscriptions of 1,024 terms each.
    console.log(`[reliability] ingest 2000 events: ${baseline.toFixed(1)} ms alone, ${loaded.toFixed(1)} ms with 64 x ${MAX_FILTER_TERMS}-term filters`);
    expect(loaded).toBeLessThan(baseline * 4 + 50);
  });
});
