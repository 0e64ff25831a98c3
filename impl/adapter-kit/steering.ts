/**
 * The opt-in steering queue (control-steering-design.md), pure.
 * Accepted `x.{vendor}.control.instruct` texts queue per session (FIFO, at most `maxQueued`, default 20),
 * and are taken in arrival order for the next eligible hook reply, up to the vendor's character cap.
 */
export interface Instruction {
  /** The command id: the audit events cause-link to it. */
  commandId: string;
  text: string;
  /** Epoch milliseconds the instruction was accepted at. */
  queuedAt: number;
}

export class SteeringQueue {
  private readonly queues = new Map<string, Instruction[]>();

  constructor(private readonly maxQueued = 20) {}

  /** Queue one instruction; returns an error string when the session's queue is full. */
  push(session: string, instruction: Instruction): string | null {
    const queue = this.queues.get(session) ?? [];
    if (queue.length >= this.maxQueued) return `the steering queue for this session is full (${this.maxQueued} instructions); retry after delivery`;
    queue.push(instruction);
    this.queues.set(session, queue);
    return null;
  }

  size(session: string): number {
    return this.queues.get(session)?.length ?? 0;
  }

  /**
   * Take the instructions that fit one reply: in arrival order, joined by a blank line, at most
   * `cap` characters. The first instruction is always taken (instructions over the cap are refused
   * at queue time by the daemon). Returns [] when nothing is queued.
   */
  take(session: string, cap = Infinity): Instruction[] {
    const queue = this.queues.get(session) ?? [];
    const taken: Instruction[] = [];
    let length = 0;
    while (queue.length > 0) {
      const next = queue[0]!;
      const added = (taken.length === 0 ? 0 : JOINER.length) + next.text.length;
      if (taken.length > 0 && length + added > cap) break;
      taken.push(queue.shift()!);
      length += added;
    }
    if (queue.length === 0) this.queues.delete(session);
    return taken;
  }

  /** Remove and return everything queued for a session (session end). */
  drop(session: string): Instruction[] {
    const queue = this.queues.get(session) ?? [];
    this.queues.delete(session);
    return queue;
  }
}

/** The separator between joined instructions in one reply. */
export const JOINER = '\n\n';

export function joinInstructions(instructions: readonly Instruction[]): string {
  return instructions.map((i) => i.text).join(JOINER);
}
