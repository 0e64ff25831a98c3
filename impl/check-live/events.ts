import { randomBytes, randomUUID } from 'node:crypto';

/**
 * The synthetic traffic the checker writes (pure builders). Every event is posted under
 * agent `aep-live-check` into a fresh `live-<random>` session, as conformance/README.md says.
 */

export const CHECK_AGENT = 'aep-live-check';
export const CHECK_SOURCE = 'aep://localhost/agent/aep-live-check';

export type Json = Record<string, unknown>;

/** A session name no other run has used: `live-` plus 12 random hex digits. */
export function freshSession(): string {
  return `live-${randomBytes(6).toString('hex')}`;
}

export function freshId(): string {
  return randomUUID();
}

/** A canary string for leak checks: unique per call, recognizable in a byte dump. */
export function canary(label: string): string {
  return `aep-live-canary-${label}-${randomBytes(4).toString('hex')}`;
}

/** An ordinary sequenced session event, members in the AEP-0001 §5.1 order. */
export function sessionEvent(session: string, type: string, seq: number, extra: Json = {}): Json {
  const { data, ...attrs } = extra;
  const event: Json = {
    aep: '0.1',
    id: freshId(),
    type,
    time: new Date().toISOString(),
    source: `${CHECK_SOURCE}/session/${session}`,
    agent: CHECK_AGENT,
    session,
    seq,
    epoch: 0,
    ...attrs,
  };
  if (data !== undefined) event.data = data;
  return event;
}

/** A filler event for floods: `progress.status` carries only metadata fields. */
export function statusEvent(session: string, seq: number): Json {
  return sessionEvent(session, 'progress.status', seq, { capture: 'metadata', data: { phase: `probe-${seq}` } });
}

/**
 * A command from the checker (AEP-0004 §2): no `seq`, `session` names the target,
 * `agent`/`source` name the checker. The payload fits the command type so only the
 * decision under test can differ.
 */
export function command(type: string, session: string, opts: { run?: string; reason?: string } = {}): Json {
  const event: Json = {
    aep: '0.1',
    id: freshId(),
    type,
    time: new Date().toISOString(),
    source: CHECK_SOURCE,
    agent: CHECK_AGENT,
    session,
  };
  if (opts.run !== undefined) event.run = opts.run;
  if (type === 'control.attention.respond') {
    // Answers a request id no target has issued: a truthful target nacks it (invalid), never ignores it.
    event.subject = `live-no-such-request-${randomBytes(4).toString('hex')}`;
    event.capture = 'metadata';
    event.data = { answer: { option: 'deny' } };
  } else if (type === 'control.cancel') {
    if (event.run === undefined) event.run = `live-no-such-run-${randomBytes(4).toString('hex')}`;
    event.capture = 'redacted';
    event.data = { scope: 'run', reason: opts.reason ?? 'aep check-live probe' };
  } else {
    event.capture = 'metadata';
    event.data = {};
  }
  return event;
}

/** The position of a sequenced event, as `epoch:seq` (for messages). */
export function position(e: Json): string {
  return `${typeof e.epoch === 'number' ? e.epoch : 0}:${String(e.seq)}`;
}

/** Parse a JSON text into an object, or undefined. */
export function parseObject(text: string): Json | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
  } catch {
    return undefined;
  }
}
