/**
 * Session ownership leases, held against an in-memory key-value bucket that answers like
 * JetStream's (compare-and-set create/update, "wrong last sequence" on a lost race, delete
 * markers). What a node relies on: one owner per session, renewal while it lives, a lost lease
 * claimed again or handed over, releases on a clean shutdown, and the roster of other nodes.
 */
import type { KV } from '@nats-io/kv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionToken } from './names.js';
import { Leases, type RosterEntry } from './ownership.js';

interface Entry { value: string; revision: number; operation: 'PUT' | 'DEL' }

const wrongSeq = () => new Error('wrong last sequence: 7');

/** A bucket with JetStream's compare-and-set answers; every call is logged; `fail` injects errors. */
class FakeKv {
  readonly map = new Map<string, Entry>();
  readonly calls: string[] = [];
  rev = 0;
  fail: Partial<Record<'create' | 'get' | 'update' | 'delete', () => unknown>> = {};

  put(key: string, value: string, operation: 'PUT' | 'DEL' = 'PUT'): number {
    this.map.set(key, { value, revision: ++this.rev, operation });
    return this.rev;
  }
  async create(key: string, value: string): Promise<number> {
    this.calls.push(`create ${key} ${value}`);
    if (this.fail.create) throw this.fail.create();
    const e = this.map.get(key);
    if (e && e.operation === 'PUT') throw wrongSeq();
    return this.put(key, value);
  }
  async get(key: string) {
    this.calls.push(`get ${key}`);
    if (this.fail.get) throw this.fail.get();
    const e = this.map.get(key);
    return e ? { operation: e.operation, revision: e.revision, string: () => e.value } : null;
  }
  async update(key: string, value: string, revision: number): Promise<number> {
    this.calls.push(`update ${key} ${value} @${revision}`);
    if (this.fail.update) throw this.fail.update();
    if (this.map.get(key)?.revision !== revision) throw wrongSeq();
    return this.put(key, value);
  }
  async delete(key: string, opts: { previousSeq: number }): Promise<void> {
    this.calls.push(`delete ${key} @${opts.previousSeq}`);
    if (this.fail.delete) throw this.fail.delete();
    if (this.map.get(key)?.revision !== opts.previousSeq) throw wrongSeq();
    this.put(key, '', 'DEL');
  }
  async keys() {
    const keys = [...this.map.keys()];
    return (async function* () {
      yield* keys;
    })();
  }
}

const K = sessionToken('s1');
const made: Leases[] = [];
function leases(kv: FakeKv, node = 'A', leaseMs = 15_000) {
  const log: string[] = [];
  const l = new Leases(kv as unknown as KV, node, leaseMs, (line) => log.push(line));
  made.push(l);
  return { l, log };
}

afterEach(() => {
  for (const l of made.splice(0)) l.stop();
  vi.useRealTimers();
});

describe('claim', () => {
  it('a free session is created for this node, with the roster entry when given', async () => {
    const kv = new FakeKv();
    const { l } = leases(kv);
    expect(await l.claim('s1')).toBeUndefined();
    expect(kv.map.get(K)?.value).toBe('{"node":"A"}');
    const entry: RosterEntry = { session: 's2', agent: 'kit' };
    expect(await l.claim('s2', entry)).toBeUndefined();
    expect(JSON.parse(kv.map.get(sessionToken('s2'))!.value)).toEqual({ node: 'A', entry });
  });

  it('claiming a session already held asks the bucket nothing', async () => {
    const kv = new FakeKv();
    const { l } = leases(kv);
    await l.claim('s1');
    const before = kv.calls.length;
    expect(await l.claim('s1')).toBeUndefined();
    expect(kv.calls.length).toBe(before);
  });

  it("a session another node holds is refused with that node's name", async () => {
    const kv = new FakeKv();
    kv.put(K, '{"node":"B"}');
    expect(await leases(kv).l.claim('s1')).toBe('B');
    expect(kv.map.get(K)!.value).toBe('{"node":"B"}');
  });

  it("an owner whose value names no node is reported as 'unknown'", async () => {
    for (const value of ['{"node":7}', 'not json', '{}']) {
      const kv = new FakeKv();
      kv.put(K, value);
      expect(await leases(kv).l.claim('s1'), value).toBe('unknown');
    }
  });

  it("this node's own earlier entry is taken over at its revision", async () => {
    const kv = new FakeKv();
    const rev = kv.put(K, '{"node":"A"}');
    const { l } = leases(kv);
    expect(await l.claim('s1', { session: 's1', n: 2 })).toBeUndefined();
    expect(kv.calls).toContain(`update ${K} {"node":"A","entry":{"session":"s1","n":2}} @${rev}`);
    // Held now: the next renewal updates at the new revision.
    await l.renew();
    expect(kv.calls.at(-1)).toBe(`update ${K} {"node":"A","entry":{"session":"s1","n":2}} @${rev + 1}`);
  });

  it('a lease deleted or expired between the create and the read is created again', async () => {
    const kv = new FakeKv();
    kv.put(K, '{"node":"B"}');
    const { l } = leases(kv);
    let first = true;
    const get = kv.get.bind(kv);
    kv.get = async (key: string) => {
      if (first) {
        first = false;
        kv.put(K, '', 'DEL');
      }
      return get(key);
    };
    expect(await l.claim('s1')).toBeUndefined();
    expect(kv.map.get(K)).toMatchObject({ value: '{"node":"A"}', operation: 'PUT' });
  });

  it('a lease that vanished entirely (no entry at all) is created again', async () => {
    const kv = new FakeKv();
    const { l } = leases(kv);
    let creates = 0;
    const create = kv.create.bind(kv);
    kv.create = async (key: string, value: string) => {
      if (creates++ === 0) throw wrongSeq();
      return create(key, value);
    };
    expect(await l.claim('s1')).toBeUndefined();
    expect(creates).toBe(2);
  });

  it("gives up after three lost races, answering 'unknown'", async () => {
    const kv = new FakeKv();
    kv.put(K, '{"node":"A"}');
    kv.fail.update = wrongSeq;
    const { l } = leases(kv);
    expect(await l.claim('s1')).toBe('unknown');
    expect(kv.calls.filter((c) => c.startsWith('create'))).toHaveLength(3);
    expect(kv.calls.filter((c) => c.startsWith('update'))).toHaveLength(3);
    // Not held: the owner is read from the bucket.
    expect(await l.owner('s1')).toBe('A');
    expect(kv.calls.at(-1)).toBe(`get ${K}`);
  });

  it('a "key exists" answer is a lost race too, in any letter case', async () => {
    const kv = new FakeKv();
    kv.put(K, '{"node":"B"}');
    kv.fail.create = () => new Error('KEY EXISTS');
    expect(await leases(kv).l.claim('s1')).toBe('B');
  });

  it('any other failure reaches the caller (NATS unreachable is not a refusal)', async () => {
    const kv = new FakeKv();
    kv.fail.create = () => new Error('TIMEOUT');
    await expect(leases(kv).l.claim('s1')).rejects.toThrow('TIMEOUT');
    const kv2 = new FakeKv();
    kv2.fail.create = () => 'wrong last sequence';
    await expect(leases(kv2).l.claim('s1')).rejects.toBe('wrong last sequence');
    const kv3 = new FakeKv();
    kv3.put(K, '{"node":"A"}');
    kv3.fail.update = () => new Error('connection closed');
    await expect(leases(kv3).l.claim('s1')).rejects.toThrow('connection closed');
  });
});

describe('owner', () => {
  it('this node for a held lease (no bucket read), the named node for a live one, else undefined', async () => {
    const kv = new FakeKv();
    const { l } = leases(kv);
    await l.claim('mine');
    const before = kv.calls.length;
    expect(await l.owner('mine')).toBe('A');
    expect(kv.calls.length).toBe(before);
    kv.put(sessionToken('theirs'), '{"node":"C"}');
    expect(await l.owner('theirs')).toBe('C');
    kv.put(sessionToken('gone'), '', 'DEL');
    expect(await l.owner('gone')).toBeUndefined();
    expect(await l.owner('never')).toBeUndefined();
  });
});

describe('release', () => {
  it('deletes the lease at its revision, once; a session not held is left alone', async () => {
    const kv = new FakeKv();
    const { l } = leases(kv);
    await l.claim('s1');
    const rev = kv.map.get(K)!.revision;
    l.release('s1');
    l.release('s1');
    l.release('other');
    await l.releaseAll();
    expect(kv.calls.filter((c) => c.startsWith('delete'))).toEqual([`delete ${K} @${rev}`]);
    expect(await l.owner('s1')).toBeUndefined();
  });

  it('a failed release is logged, naming the session and the error', async () => {
    const kv = new FakeKv();
    const { l, log } = leases(kv);
    await l.claim('s1');
    kv.fail.delete = () => new Error('no responders');
    l.release('s1');
    await l.releaseAll();
    expect(log).toEqual(['releasing session "s1" failed (its lease expires on its own): no responders']);
  });

  it('a failure that is not an Error is logged as text', async () => {
    const kv = new FakeKv();
    const { l, log } = leases(kv);
    await l.claim('s1');
    kv.fail.delete = () => 'gone away';
    l.release('s1');
    await l.releaseAll();
    expect(log).toEqual(['releasing session "s1" failed (its lease expires on its own): gone away']);
  });
});

describe('renew', () => {
  it('renews every held lease at its latest revision, keeping its value', async () => {
    const kv = new FakeKv();
    const { l, log } = leases(kv);
    await l.claim('s1', { session: 's1' });
    const r1 = kv.map.get(K)!.revision;
    await l.renew();
    await l.renew();
    expect(kv.calls.filter((c) => c.startsWith('update'))).toEqual([
      `update ${K} {"node":"A","entry":{"session":"s1"}} @${r1}`,
      `update ${K} {"node":"A","entry":{"session":"s1"}} @${r1 + 1}`,
    ]);
    expect(log).toEqual([]);
  });

  it('NATS unreachable: the lease is kept (nothing logged, no re-claim) and tried again next round', async () => {
    const kv = new FakeKv();
    const { l, log } = leases(kv);
    await l.claim('s1');
    const rev = kv.map.get(K)!.revision;
    kv.fail.update = () => new Error('TIMEOUT');
    await l.renew();
    delete kv.fail.update;
    await l.renew();
    expect(kv.calls.filter((c) => c.startsWith('update')).at(-1)).toBe(`update ${K} {"node":"A"} @${rev}`);
    expect(kv.calls.filter((c) => c.startsWith('create'))).toHaveLength(1);
    expect(log).toEqual([]);
    expect(await l.owner('s1')).toBe('A');
  });

  it('a lease lost to another node is given up and the onLost listener told once, with the owner', async () => {
    const kv = new FakeKv();
    const { l, log } = leases(kv);
    const lost: Array<[string, string | undefined]> = [];
    l.onLost((session, owner) => lost.push([session, owner]));
    await l.claim('s1');
    kv.put(K, '{"node":"B"}');
    await l.renew();
    await l.renew();
    expect(lost).toEqual([['s1', 'B']]);
    expect(log).toEqual([]);
    expect(await l.owner('s1')).toBe('B');
  });

  it('a lease that lapsed (NATS away past the lease) is claimed again, with its roster entry, silently', async () => {
    const kv = new FakeKv();
    const { l, log } = leases(kv);
    const lost: Array<[string, string | undefined]> = [];
    l.onLost((session, owner) => lost.push([session, owner]));
    await l.claim('s1', { session: 's1', agent: 'kit' });
    kv.put(K, '', 'DEL');
    await l.renew();
    expect(log).toEqual([]);
    expect(lost).toEqual([]);
    expect(kv.map.get(K)).toMatchObject({ operation: 'PUT', value: '{"node":"A","entry":{"session":"s1","agent":"kit"}}' });
    expect(await l.owner('s1')).toBe('A');
  });

  it('a session released while a renewal round is under way is not renewed nor claimed again', async () => {
    const kv = new FakeKv();
    const { l } = leases(kv);
    await l.claim('s1');
    await l.claim('s2');
    const K2 = sessionToken('s2');
    const r2 = kv.map.get(K2)!.revision;
    // The round's first update (s1) waits; s2 is released meanwhile.
    let go!: () => void;
    const gate = new Promise<void>((r) => (go = r));
    const update = kv.update.bind(kv);
    kv.update = async (key, value, revision) => {
      if (key === K) await gate;
      return update(key, value, revision);
    };
    const round = l.renew();
    await Promise.resolve();
    l.release('s2');
    go();
    await round;
    await new Promise((r) => setTimeout(r, 0));
    expect(kv.calls.filter((c) => c.includes(K2) && !c.startsWith('get'))).toEqual([
      `create ${K2} {"node":"A"}`,
      `delete ${K2} @${r2}`,
    ]);
    expect(kv.map.get(K2)?.operation).toBe('DEL');
    expect(await l.owner('s2')).toBeUndefined();
  });

  it('a re-claim that fails outright is given up as lost to an unknown node', async () => {
    const kv = new FakeKv();
    const { l } = leases(kv);
    const lost: Array<[string, string | undefined]> = [];
    l.onLost((session, owner) => lost.push([session, owner]));
    await l.claim('s1');
    kv.put(K, '', 'DEL');
    kv.fail.create = () => new Error('TIMEOUT');
    await l.renew();
    expect(lost).toEqual([['s1', undefined]]);
  });

  it('runs every third of the lease, and never more often than every 100 ms; stop ends it', async () => {
    vi.useFakeTimers();
    const kv = new FakeKv();
    const { l } = leases(kv, 'A', 3_000);
    await l.claim('s1');
    const updates = () => kv.calls.filter((c) => c.startsWith('update')).length;
    await vi.advanceTimersByTimeAsync(999);
    expect(updates()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(updates()).toBe(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(updates()).toBe(3);
    l.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(updates()).toBe(3);

    const kv2 = new FakeKv();
    const short = leases(kv2, 'A', 90).l;
    await short.claim('s1');
    await vi.advanceTimersByTimeAsync(99);
    expect(kv2.calls.filter((c) => c.startsWith('update'))).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(kv2.calls.filter((c) => c.startsWith('update'))).toHaveLength(1);
  });
});

describe('entries (the fleet-wide roster)', () => {
  it("lists the roster entries of other nodes' live leases only", async () => {
    const kv = new FakeKv();
    const { l } = leases(kv);
    await l.claim('mine', { session: 'mine' });
    kv.put('k-b', JSON.stringify({ node: 'B', entry: { session: 'sb', agent: 'x' } }));
    kv.put('k-c', JSON.stringify({ node: 'C' }));
    kv.put('k-d', JSON.stringify({ node: 'D', entry: { session: 'sd' } }), 'DEL');
    kv.put('k-e', JSON.stringify({ node: 'E', entry: { agent: 'no session' } }));
    kv.put('k-f', JSON.stringify({ node: 'F', entry: null }));
    kv.put('k-g', '{broken');
    kv.put('k-h', JSON.stringify({ node: 'H', entry: 'sh' }));
    kv.put('k-i', JSON.stringify({ node: 'I', entry: { session: 'si' } }));
    expect(await l.entries()).toEqual([{ session: 'sb', agent: 'x' }, { session: 'si' }]);
  });

  it("a lease that expires between the listing and the read is skipped", async () => {
    const kv = new FakeKv();
    const { l } = leases(kv);
    kv.put('k-b', JSON.stringify({ node: 'B', entry: { session: 'sb' } }));
    kv.get = async () => null;
    expect(await l.entries()).toEqual([]);
  });
});

describe('releaseAll (a clean shutdown)', () => {
  it('stops renewing and deletes every held lease at its revision', async () => {
    vi.useFakeTimers();
    const kv = new FakeKv();
    const { l } = leases(kv, 'A', 300);
    await l.claim('s1');
    await l.claim('s2');
    const r1 = kv.map.get(K)!.revision;
    const r2 = kv.map.get(sessionToken('s2'))!.revision;
    await l.releaseAll();
    expect(kv.calls.filter((c) => c.startsWith('delete'))).toEqual([`delete ${K} @${r1}`, `delete ${sessionToken('s2')} @${r2}`]);
    expect(await l.owner('s1')).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(kv.calls.filter((c) => c.startsWith('update'))).toEqual([]);
  });

  it('logs a delete that fails, naming the session', async () => {
    const kv = new FakeKv();
    const { l, log } = leases(kv);
    await l.claim('s1');
    kv.fail.delete = () => new Error('no responders');
    await l.releaseAll();
    expect(log).toEqual(['releasing session "s1" at shutdown failed (its lease expires on its own): no responders']);
  });

  it('waits for a release already sent, but at most 2 s', async () => {
    vi.useFakeTimers();
    const kv = new FakeKv();
    const { l } = leases(kv);
    await l.claim('s1');
    let finish: () => void = () => {};
    kv.delete = (key: string) => {
      kv.calls.push(`delete ${key}`);
      return new Promise<void>((r) => (finish = r));
    };
    l.release('s1');
    let done = false;
    void l.releaseAll().then(() => (done = true));
    await vi.advanceTimersByTimeAsync(1_999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    finish();

    // A release that answers in time ends the wait at once.
    const kv2 = new FakeKv();
    const l2 = leases(kv2).l;
    await l2.claim('s1');
    l2.release('s1');
    let done2 = false;
    void l2.releaseAll().then(() => (done2 = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(done2).toBe(true);
  });
});
