/**
 * Envelope assembly for adapter events (AEP-0001 §5), pure apart from the injected clock and ids.
 * `(epoch, seq)` is per session: one epoch per process start, seq from 0 within it (AEP-0001 §7).
 * `agent.*` events are agent-scoped: no session, run, step or seq (AEP-0001 §5.2).
 * At capture `none` the event carries no `data` (the same result as a hop's down-leveling).
 */
import type { AepEvent, CaptureLevel, Severity } from '../core/event.js';
import { levelFor } from './capture.js';
import type { Mapped, Posture } from './types.js';

export interface EnvelopeExtra {
  run?: string;
  cause?: string;
  severity?: Severity;
  /** The declared capture level, when the caller chose it (the MCP server's emit_event); default: the posture's level for the type. */
  capture?: CaptureLevel;
}

/** Severity defaults by type: a human is being asked (`notice`), something failed (`warning`). */
export function defaultSeverity(type: string): Severity | undefined {
  if (type === 'attention.requested' || type === 'attention.timeout') return 'notice';
  if (type === 'run.failed' || type === 'tool.failed') return 'warning';
  return undefined;
}

/** `encodeURIComponent` that never throws: a lone UTF-16 surrogate is encoded as U+FFFD. */
export function encodeSegment(text: string): string {
  return encodeURIComponent(text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
}

export class Sequencer {
  private readonly next = new Map<string, number>();

  constructor(
    readonly agent: string,
    readonly host: string,
    readonly epoch: number,
    private readonly posture: Posture,
    private readonly newId: () => string,
    private readonly clock: () => number,
  ) {}

  /** Build the next event of a session, consuming one `seq`. Key order follows AEP-0001 §5.1. */
  build(session: string, mapped: Mapped, extra: EnvelopeExtra = {}): AepEvent {
    const agentScoped = mapped.type.startsWith('agent.');
    const event: Record<string, unknown> = { aep: '0.1', id: this.newId(), type: mapped.type };
    if (mapped.subject !== undefined) event.subject = mapped.subject;
    event.time = new Date(this.clock()).toISOString();
    event.source = agentScoped
      ? `aep://${this.host}/agent/${this.agent}`
      : `aep://${this.host}/agent/${this.agent}/session/${encodeSegment(session)}`;
    event.agent = this.agent;
    if (!agentScoped) {
      event.session = session;
      if (extra.run !== undefined) event.run = extra.run;
      if (mapped.step !== undefined) event.step = mapped.step;
      const seq = this.next.get(session) ?? 0;
      this.next.set(session, seq + 1);
      event.seq = seq;
      event.epoch = this.epoch;
    }
    if (extra.cause !== undefined) event.cause = extra.cause;
    const severity = extra.severity ?? defaultSeverity(mapped.type);
    if (severity !== undefined) event.severity = severity;
    event.capture = extra.capture ?? levelFor(mapped.type, this.posture);
    // At capture `none` no payload field is allowed (every field is metadata or above): no data.
    if (event.capture !== 'none') event.data = mapped.data;
    return event as AepEvent;
  }
}
