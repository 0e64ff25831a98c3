/**
 * How the fleet names things on NATS. Pure. Every name derives from the stream name, so
 * several fleets can share one NATS server:
 *
 * - `aep.{stream}.ev.{session token}`: stored events of one session (the stream's subjects);
 * - `aep.{stream}.live`: live-only copies (a redelivered duplicate, an agent-scoped event), core NATS;
 * - `aep.{stream}.ctl.{node}`: commands routed to the node whose target owns the session;
 * - bucket `{stream}_owners`, key = session token: the session's owner and its lease.
 */
import { createHash } from 'node:crypto';

const hex = (text: string, length: number): string => createHash('sha256').update(text).digest('hex').slice(0, length);

/** A session id as one subject token (and KV key): 32 hex digits of its SHA-256. */
export const sessionToken = (session: string): string => hex(session, 32);

/** `Nats-Msg-Id` of an event: SHA-256 of `(source, id)`, so a redelivery carries the same id. */
export const messageId = (source: string, id: string): string => hex(JSON.stringify([source, id]), 64);

export interface FleetNames {
  readonly events: string;
  readonly live: string;
  readonly bucket: string;
  eventSubject(session: string): string;
  controlSubject(node: string): string;
}

export function fleetNames(stream: string): FleetNames {
  const base = `aep.${stream}`;
  return {
    events: `${base}.ev.*`,
    live: `${base}.live`,
    bucket: `${stream}_owners`,
    eventSubject: (session) => `${base}.ev.${sessionToken(session)}`,
    controlSubject: (node) => `${base}.ctl.${node}`,
  };
}
