/**
 * `Leases.renew` against an in-memory bucket: what a renewal does when it finds its lease
 * changed (taken by another node, expired and free, unreadable), told through `onLost` once per
 * loss, and rounds that never overlap. No NATS: the fake answers as the KV client does.
 */
import type { KV } from '@nats-io/kv';
import { afterEach, describe, expect, it } from 'vitest';
import { Hub, type Peer } from '../hub.js';
import { sessionToken } from './names.js';
import { Leases } from './ownership.js';

interface Entry {
  value: string;
  revision: number;
}

/** The subset of the KV client `Leases` uses, with the client's compare-and-set errors. */
class FakeKv {
  readonly entries = new Map<string, Entry>();
  #revision = 0;
  /** Set: every call rejects with it (NATS unreachable). */
  failing: Error | undefined;
  /** Calls to `update` under way, and the most at once. */
  inFlight = 0;
  maxInFlight = 0;

  async create(key: string, value: string): Promise<number> {
    if (this.failing) throw this.failing;
    if (this.entries.has(key)) throw new Error('wrong last sequence: 1');
    return this.#put(key, value);
  }
  async update(key: string, value: string, revision: number): Promise<number> {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await new Promise((r) => setTimeout(r, 5));
      if (this.failing) throw this.failing;
      if (this.entries.get(key)?.revision !== revision) throw new Error(`wrong last sequence: ${this.entries.get(key)?.revision ?? 0}`);
      return this.#put(key, value);
    } finally {
      this.inFlight--;
    }
  }
  async get(key: string): Promise<{ operation: 'PUT'; revision: number; string(): string } | null> {
    if (this.failing) throw this.failing;
    const e = this.entries.get(key);
    return e ? { operation: 'PUT', revision: e.revision, string: () => e.value } : null;
  }
  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }
  /** Another node writes the entry (it claimed the session after this node's lease lapsed). */
  putAs(key: string, node: string): void {
    this.#put(key, JSON.stringify({ node }));
  }
  #put(key: string, value: string): number {
    this.entries.set(key, { value, revision: ++this.#revision });
    return this.#revision;
  }
}

const made: Leases[] = [];
afterEach(() => {
  for (const l of made.splice(0)) l.stop();
});

function leases(kv: FakeKv): { leases: Leases; lost: Array<[string, string | undefined]>; log: string[] } {
  const log: string[] = [];
  const l = new Leases(kv as unknown as KV, 'a', 3_600_000, (line) => log.push(line));
  made.push(l);
  const lost: Array<[string, string | undefined]> = [];
  l.onLost((session, owner) => lost.push([session, owner]));
  return { leases: l, lost, log };
}

describe('a renewal that finds its lease changed', () => {
  it('gives the session up and tells onLost the new owner, once, when another node holds it', async () => {
    const kv = new FakeKv();
    const { leases: l, lost } = leases(kv);
    expect(await l.claim('s')).toBeUndefined();
    kv.putAs(sessionToken('s'), 'b');
    await l.renew();
    await l.renew();
    expect(lost).toEqual([['s', 'b']]);
    expect(await l.owner('s')).toBe('b');
    expect(await l.claim('s')).toBe('b');
  });

  it('keeps the session, silently, when its entry expired and nobody took it', async () => {
    const kv = new FakeKv();
    const { leases: l, lost } = leases(kv);
    await l.claim('s');
    kv.entries.delete(sessionToken('s'));
    await l.renew();
    expect(lost).toEqual([]);
    expect(JSON.parse(kv.entries.get(sessionToken('s'))!.value)).toEqual({ node: 'a' });
    expect(await l.owner('s')).toBe('a');
  });

  it('gives the session up (owner unknown) when NATS fails while it claims again', async () => {
    const kv = new FakeKv();
    const { leases: l, lost } = leases(kv);
    await l.claim('s');
    kv.putAs(sessionToken('s'), 'b');
    const get = kv.get.bind(kv);
    kv.get = async () => {
      throw new Error('timeout');
    };
    await l.renew();
    kv.get = get;
    expect(lost).toEqual([['s', undefined]]);
  });

  it('keeps the session when NATS does not answer the renewal: it tries again next round', async () => {
    const kv = new FakeKv();
    const { leases: l, lost } = leases(kv);
    await l.claim('s');
    kv.failing = new Error('timeout');
    await l.renew();
    kv.failing = undefined;
    expect(lost).toEqual([]);
    await l.renew();
    expect(await l.owner('s')).toBe('a');
  });

  it('never runs two rounds at once: a second call joins the round under way', async () => {
    const kv = new FakeKv();
    const { leases: l, lost } = leases(kv);
    await l.claim('s');
    await Promise.all([l.renew(), l.renew(), l.renew()]);
    expect(kv.maxInFlight).toBe(1);
    expect(lost).toEqual([]);
  });
});

describe('Hub.revoke', () => {
  it('ends the claim of every local connection on the session, through the connection, and counts them', async () => {
    const hub = new Hub(8, 8);
    const peer = (claims: string[]): Peer & { claims: Set<string> } => {
      const p = { claims: new Set(claims), accepts: undefined, send: () => {}, revoke: (s: string) => void p.claims.delete(s) };
      return p;
    };
    const [x, y, z] = [peer(['s', 't']), peer(['s']), peer(['t'])];
    for (const p of [x, y, z]) hub.attach(p);
    expect(hub.revoke('s')).toBe(2);
    expect([[...x.claims], [...y.claims], [...z.claims]]).toEqual([['t'], [], ['t']]);
    expect(hub.claimedElsewhere(undefined, 's')).toBe(false);
    expect(hub.revoke('s')).toBe(0);
  });
});
