/**
 * Command dedupe with recorded acks (AEP-0004 §2.3, §3), pure.
 * A command is identified by `(source, id)`. The first delivery gets one ack decision; the ack's
 * exact bytes are recorded so every redelivery is answered byte-identically, never re-decided.
 * Retention: the most recent `capacity` commands (default 10 000); an evicted command's
 * redelivery is treated as new, as AEP-0004 §3 allows.
 */
export class CommandLedger {
  private readonly acks = new Map<string, string>();

  constructor(private readonly capacity = 10_000) {}

  static key(source: string, id: string): string {
    return `${source}\u0000${id}`;
  }

  /** The recorded ack bytes for a command, if it was already decided. */
  recorded(source: string, id: string): string | undefined {
    return this.acks.get(CommandLedger.key(source, id));
  }

  /** Record the one ack decision for a command. Recording twice keeps the first. */
  record(source: string, id: string, ackBytes: string): void {
    const key = CommandLedger.key(source, id);
    if (this.acks.has(key)) return;
    this.acks.set(key, ackBytes);
    while (this.acks.size > this.capacity) {
      const oldest = this.acks.keys().next().value as string;
      this.acks.delete(oldest);
    }
  }
}
