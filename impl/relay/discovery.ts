/**
 * What the relay declares about itself: the discovery document (AEP-0003 §3.4), served at
 * `GET /events` and `GET /.well-known/aep`, and the relay's own `hello` (AEP-0003 §4),
 * which carries the same capabilities. Pure.
 */
import { CAPTURE_ORDER } from '../core/event.js';
import type { RelayConfig } from './config.js';
import type { FleetStatus } from './hub.js';
import { buildHello } from '../relay-client/hello.js';

/** Protocol versions this relay speaks, newest first. */
export const VERSIONS: readonly string[] = Object.freeze(['0.1']);

export const ENDPOINTS = Object.freeze({ events: '/events', stream: '/stream', socket: '/socket' });

/**
 * The capability block. `replay.buffer` counts events per session. `control.accepts` is
 * empty because the relay itself executes no command; it routes them to their owners.
 * `capture` lists the ceilings a subscription may ask for.
 */
export function capabilities(config: Pick<RelayConfig, 'buffer'>): Record<string, unknown> {
  return {
    filters: ['attr-match'],
    replay: { buffer: config.buffer, all: true },
    capture: [...CAPTURE_ORDER],
    control: { accepts: [] },
    roster: {},
    // `pong-acks`: this relay handles a connection's frames in order, so its `pong` to a `ping`
    // means every frame sent before that ping was processed (each event admitted or refused).
    // Emitters use it to know which events to resend after a lost connection.
    experimental: { 'pong-acks': {} },
  };
}

/** `fleet` is set on a fleet node (`AEP_NATS_URL`): its node id, stream, and whether NATS is reachable. */
export function discoveryDocument(config: Pick<RelayConfig, 'buffer'>, fleet?: FleetStatus): Record<string, unknown> {
  const doc: Record<string, unknown> = { aep: [...VERSIONS], role: 'collector', endpoints: { ...ENDPOINTS }, capabilities: capabilities(config) };
  if (fleet) doc.fleet = { ...fleet };
  return doc;
}

/** The relay's answer to a peer's `hello`, naming the one selected version. */
export function relayHello(config: Pick<RelayConfig, 'buffer'>, version: string, instance: string): Record<string, unknown> {
  return { ...buildHello({ versions: [version], role: 'both', identity: { agent: 'aep-relay', instance }, capabilities: capabilities(config) }) };
}
