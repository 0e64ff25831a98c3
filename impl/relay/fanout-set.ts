/**
 * The hub's live subscriptions, grouped for fan-out: subscriptions whose matchers were compiled
 * from the same filter (`filterKey`) form one group, so a fan-out matches each event once per
 * distinct filter rather than once per subscription, and hands every member of a group the same
 * selection. A matcher `compileFilter` did not make is a group of its own. The groups are built
 * on first use after a change and never changed afterwards (a fan-out may hold them while a
 * subscription leaves). No sockets here.
 */
import { filterKey, type FilterMatch } from '../core/filter.js';
import type { SinkRegistry, Subscription } from './subscription.js';

/** Subscriptions that select the same events. */
export interface FanoutGroup {
  readonly match: FilterMatch;
  readonly subs: readonly Subscription[];
}

export class FanoutSet implements SinkRegistry {
  readonly #subs = new Set<Subscription>();
  #groups: readonly FanoutGroup[] | undefined;
  #ordered: readonly Subscription[] = [];

  get size(): number {
    return this.#subs.size;
  }

  add(sub: Subscription): void {
    this.#subs.add(sub);
    this.#groups = undefined;
  }

  delete(sub: Subscription): void {
    if (this.#subs.delete(sub)) this.#groups = undefined;
  }

  /** Every subscription in joining order, as of the last `groups()`. */
  get ordered(): readonly Subscription[] {
    return this.#ordered;
  }

  /** The groups, in the order their first subscription joined; each group's subscriptions in joining order. */
  groups(): readonly FanoutGroup[] {
    if (this.#groups) return this.#groups;
    this.#ordered = [...this.#subs];
    const byKey = new Map<string, { match: FilterMatch; subs: Subscription[] }>();
    const groups: FanoutGroup[] = [];
    for (const sub of this.#ordered) {
      const key = filterKey(sub.match);
      const known = key === undefined ? undefined : byKey.get(key);
      if (known) {
        known.subs.push(sub);
        continue;
      }
      const group = { match: sub.match, subs: [sub] };
      if (key !== undefined) byKey.set(key, group);
      groups.push(group);
    }
    this.#groups = groups;
    return groups;
  }
}
