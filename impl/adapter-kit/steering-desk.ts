/**
 * Steering delivery with its audit trail: the opt-in queue (steering.ts) plus the events that
 * account for every accepted instruction, delivered (`x.{agent}.instruction.delivered`) or
 * dropped at session end (`x.{agent}.instruction.dropped`), each cause-linked to its command.
 */
import { levelFor, red } from './capture.js';
import type { Emitter } from './emission.js';
import { SteeringQueue, joinInstructions, type Instruction } from './steering.js';
import type { Posture } from './types.js';

export class SteeringDesk {
  private readonly queue = new SteeringQueue();

  constructor(
    private readonly agent: string,
    private readonly emitter: Emitter,
    private readonly posture: Posture,
    private readonly clock: () => number,
    private readonly cap?: number,
  ) {}

  /** Queue one accepted instruction; an error string when the queue is full. */
  push(session: string, instruction: Instruction): string | null {
    return this.queue.push(session, instruction);
  }

  /** Take the queued text for a session (joined), or null; emits one delivery audit per text. */
  take(session: string): string | null {
    const taken = this.queue.take(session, this.cap);
    if (taken.length === 0) return null;
    this.audit(session, taken, 'delivered', (item) => ({ queued_ms: Math.max(0, this.clock() - item.queuedAt) }));
    return joinInstructions(taken);
  }

  /** Drop what is queued for a session (its end), one audit event per text. */
  drop(session: string): void {
    this.audit(session, this.queue.drop(session), 'dropped', () => ({ reason: 'session-ended' }));
  }

  private audit(session: string, items: readonly Instruction[], what: 'delivered' | 'dropped', base: (item: Instruction) => Record<string, unknown>): void {
    const type = `x.${this.agent}.instruction.${what}`;
    const level = levelFor(type, this.posture);
    for (const item of items) {
      const data = base(item);
      const text = red(item.text, level);
      if (text !== undefined) data.text = text;
      this.emitter.emit(session, { type, data }, { cause: item.commandId });
    }
  }
}
