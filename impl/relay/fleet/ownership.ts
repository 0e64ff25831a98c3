/**
 * Session ownership across the fleet (AEP-0001 §5.2: one owner per session; AEP-0004 §4: a
 * command reaches that one target). A JetStream key-value bucket holds, per session token,
 * the node whose target owns the session. A claim is a compare-and-set create; the owner
 * renews every third of the lease; an entry not renewed for `leaseMs` expires (the bucket's
 * TTL), so a dead node's sessions become free and no node routes to it afterwards.
 */
import type { KV } from '@nats-io/kv';
import { sessionToken } from './names.js';

interface Lease {
  readonly session: string;
  /** The bucket value: `{node, entry?}`, written at the claim and again at each renewal. */
  readonly value: string;
  revision: number;
}

/** A session's roster entry (AEP-0003 §4.1), as its owning node declared it in the lease. */
export type RosterEntry = Readonly<Record<string, unknown>> & { readonly session: string };

/**
 * Told when a renewal finds a held lease gone: `owner` is the node that holds it now, or
 * undefined when NATS did not say (the lease is given up either way).
 */
export type LeaseLost = (session: string, owner: string | undefined) => void;

/** How long a clean shutdown waits for its lease deletes before it drains anyway. */
const RELEASE_BOUND_MS = 2_000;

export class Leases {
  /** Sessions this node holds a lease on, by KV key. */
  readonly #held = new Map<string, Lease>();
  readonly #timer: NodeJS.Timeout;
  /** Releases sent and not yet answered: a clean shutdown waits for them before NATS closes. */
  readonly #releasing = new Set<Promise<void>>();
  /** The renewal under way: a round never overlaps the previous one (their updates would race). */
  #renewing: Promise<void> | undefined;
  #lost: LeaseLost = () => {};

  constructor(private readonly kv: KV, private readonly node: string, leaseMs: number, private readonly log: (line: string) => void) {
    this.#timer = setInterval(() => void this.renew(), Math.max(100, Math.floor(leaseMs / 3)));
    this.#timer.unref();
  }

  /**
   * Claim `session` for this node: undefined when it is ours now, else the owning node.
   * `entry` is the claiming connection's roster entry, kept in the lease so that every node's
   * roster lists the session (`entries()`).
   */
  async claim(session: string, entry?: RosterEntry): Promise<string | undefined> {
    const key = sessionToken(session);
    if (this.#held.has(key)) return undefined;
    const value = JSON.stringify(entry === undefined ? { node: this.node } : { node: this.node, entry });
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const revision = await this.kv.create(key, value);
        this.#held.set(key, { session, value, revision });
        return undefined;
      } catch (err) {
        if (!isWrongSequence(err)) throw err;
      }
      const found = await this.kv.get(key);
      if (!found || found.operation !== 'PUT') continue; // expired or released meanwhile: create again
      const owner = ownerOf(found.string());
      if (owner !== this.node) return owner ?? 'unknown';
      // Our own entry (an earlier connection of this node): take it over at its revision.
      try {
        const revision = await this.kv.update(key, value, found.revision);
        this.#held.set(key, { session, value, revision });
        return undefined;
      } catch (err) {
        if (!isWrongSequence(err)) throw err;
      }
    }
    return 'unknown';
  }

  /** The node owning `session` fleet-wide, or undefined when no lease is live. */
  async owner(session: string): Promise<string | undefined> {
    const key = sessionToken(session);
    if (this.#held.has(key)) return this.node;
    const entry = await this.kv.get(key);
    return entry && entry.operation === 'PUT' ? ownerOf(entry.string()) : undefined;
  }

  /** Give `session` up (its last local claimant left). */
  release(session: string): void {
    const key = sessionToken(session);
    const lease = this.#held.get(key);
    if (!lease) return;
    this.#held.delete(key);
    const done = this.kv
      .delete(key, { previousSeq: lease.revision })
      .catch((err: unknown) => this.log(`releasing session ${JSON.stringify(session)} failed (its lease expires on its own): ${describe(err)}`))
      .finally(() => this.#releasing.delete(done));
    this.#releasing.add(done);
  }

  /** Who is told when a renewal finds a lease lost (one call per loss). */
  onLost(listener: LeaseLost): void {
    this.#lost = listener;
  }

  /**
   * Renew every held lease. One found changed (NATS away longer than the lease, the entry
   * expired) is claimed again when free; when another node holds it, or NATS cannot say, it is
   * given up and the `onLost` listener is told.
   */
  renew(): Promise<void> {
    return (this.#renewing ??= this.#renewAll().finally(() => (this.#renewing = undefined)));
  }

  /**
   * A renewal round started now, beside the one under way (if any): after a reconnect, a round
   * begun during the outage may wait for a request lost with the old connection. Two rounds
   * racing on one lease are harmless: the loser finds the entry still this node's and takes it over.
   */
  renewFresh(): Promise<void> {
    return this.#renewAll();
  }

  async #renewAll(): Promise<void> {
    for (const [key, lease] of [...this.#held]) {
      if (this.#held.get(key) !== lease) continue; // released meanwhile
      try {
        lease.revision = await this.kv.update(key, lease.value, lease.revision);
      } catch (err) {
        if (!isWrongSequence(err)) continue; // NATS unreachable: try again next round
        this.#held.delete(key);
        let owner: string | undefined;
        try {
          owner = await this.claim(lease.session, entryOf(lease.value));
          if (owner === undefined) continue; // free again, and ours
        } catch {
          owner = undefined;
        }
        this.#lost(lease.session, owner);
      }
    }
  }

  /** The roster entries that OTHER nodes' live leases declare (this node answers for its own connections). */
  async entries(): Promise<RosterEntry[]> {
    const out: RosterEntry[] = [];
    for await (const key of await this.kv.keys()) {
      const found = await this.kv.get(key);
      if (!found || found.operation !== 'PUT') continue;
      const text = found.string();
      if (ownerOf(text) === this.node) continue;
      const entry = entryOf(text);
      if (entry !== undefined) out.push(entry);
    }
    return out;
  }

  /** Stop renewing. */
  stop(): void {
    clearInterval(this.#timer);
  }

  /**
   * A clean shutdown: stop renewing, delete every lease this node still holds and wait for the
   * releases already sent (`release`), so a target that moves to another node claims its
   * session at once instead of waiting out the lease. Bounded:
   * leases whose delete does not finish within 2 s expire on their own. Only a node's death
   * waits for the lease.
   */
  async releaseAll(): Promise<void> {
    this.stop();
    const held = [...this.#held];
    this.#held.clear();
    const deletes = Promise.all([
      ...this.#releasing,
      ...held.map(([key, lease]) =>
        this.kv.delete(key, { previousSeq: lease.revision }).catch((err: unknown) => this.log(`releasing session ${JSON.stringify(lease.session)} at shutdown failed (its lease expires on its own): ${describe(err)}`)),
      ),
    ]);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([deletes, new Promise<void>((r) => (timer = setTimeout(r, RELEASE_BOUND_MS)))]);
    clearTimeout(timer);
  }
}

function entryOf(text: string): RosterEntry | undefined {
  try {
    const value = JSON.parse(text) as { entry?: unknown };
    const e = value.entry as RosterEntry | undefined;
    return e !== null && typeof e === 'object' && typeof e.session === 'string' ? e : undefined;
  } catch {
    return undefined;
  }
}

function ownerOf(text: string): string | undefined {
  try {
    const value = JSON.parse(text) as { node?: unknown };
    return typeof value.node === 'string' ? value.node : undefined;
  } catch {
    return undefined;
  }
}

function isWrongSequence(err: unknown): boolean {
  return err instanceof Error && /wrong last sequence|key exists/i.test(err.message);
}

const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));
