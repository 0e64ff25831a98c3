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
  revision: number;
}

export class Leases {
  /** Sessions this node holds a lease on, by KV key. */
  readonly #held = new Map<string, Lease>();
  readonly #timer: NodeJS.Timeout;
  readonly #value: string;

  constructor(private readonly kv: KV, private readonly node: string, leaseMs: number, private readonly log: (line: string) => void) {
    this.#value = JSON.stringify({ node });
    this.#timer = setInterval(() => void this.renew(), Math.max(100, Math.floor(leaseMs / 3)));
    this.#timer.unref();
  }

  /** Claim `session` for this node: undefined when it is ours now, else the owning node. */
  async claim(session: string): Promise<string | undefined> {
    const key = sessionToken(session);
    if (this.#held.has(key)) return undefined;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const revision = await this.kv.create(key, this.#value);
        this.#held.set(key, { session, revision });
        return undefined;
      } catch (err) {
        if (!isWrongSequence(err)) throw err;
      }
      const entry = await this.kv.get(key);
      if (!entry || entry.operation !== 'PUT') continue; // expired or released meanwhile: create again
      const owner = ownerOf(entry.string());
      if (owner !== this.node) return owner ?? 'unknown';
      // Our own entry (an earlier connection of this node): take it over at its revision.
      try {
        const revision = await this.kv.update(key, this.#value, entry.revision);
        this.#held.set(key, { session, revision });
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
    this.kv.delete(key, { previousSeq: lease.revision }).catch((err: unknown) => this.log(`releasing session ${JSON.stringify(session)} failed (its lease expires on its own): ${describe(err)}`));
  }

  /** Renew every held lease; one lost meanwhile (NATS away longer than the lease) is claimed again, or given up. */
  async renew(): Promise<void> {
    for (const [key, lease] of [...this.#held]) {
      try {
        lease.revision = await this.kv.update(key, this.#value, lease.revision);
      } catch (err) {
        if (!isWrongSequence(err)) continue; // NATS unreachable: try again next round
        this.#held.delete(key);
        const owner = await this.claim(lease.session).catch(() => 'unknown');
        if (owner !== undefined) this.log(`lost the lease on session ${JSON.stringify(lease.session)} to node ${owner}; commands for it go there now`);
      }
    }
  }

  stop(): void {
    clearInterval(this.#timer);
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
