/**
 * Cline hub transport frames, pure: building the frames the tap sends and reading the ones it
 * receives (`@cline/shared` `dist/hub.d.ts`: `HubTransportFrame`, protocol `v1`).
 *
 * Sent: `{kind:"command", envelope:{version:"v1", command, requestId, sessionId?, payload}}` and
 * `{kind:"stream.subscribe", clientId}`. Received: `{kind:"reply", envelope:{requestId, ok,
 * payload?, error?{code,message}}}` and `{kind:"event", envelope:{event, sessionId?, payload}}`.
 */
import { isPlainObject } from '../../core/event.js';

export const PROTOCOL = 'v1';

/** The client type the tap registers as; it advertises no capabilities, so it is never conscripted as an executor. */
export const CLIENT_TYPE = 'aep-adapter-cline';

/** The WebSocket subprotocol carrying the hub's bearer token. */
export const authProtocol = (token: string): string => `cline-hub-auth.${token}`;

export function commandFrame(command: string, requestId: string, payload: Record<string, unknown>, sessionId?: string): string {
  return JSON.stringify({ kind: 'command', envelope: { version: PROTOCOL, command, requestId, ...(sessionId ? { sessionId } : {}), payload } });
}

export function registerFrame(requestId: string): string {
  return commandFrame('client.register', requestId, { clientType: CLIENT_TYPE, displayName: 'AEP adapter (observer)', transport: 'native', capabilities: [], protocolVersion: PROTOCOL });
}

export function subscribeFrame(clientId: string): string {
  return JSON.stringify({ kind: 'stream.subscribe', clientId });
}

export type HubFrame =
  | { kind: 'reply'; requestId: string; ok: boolean; payload: Record<string, unknown>; error?: { code: string; message: string } }
  | { kind: 'event'; event: string; sessionId?: string; payload: Record<string, unknown> }
  | { kind: 'other' };

/** Read one received frame; anything unrecognized is `other` (ignored, never fatal). */
export function readFrame(text: string): HubFrame {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { kind: 'other' };
  }
  if (!isPlainObject(v) || !isPlainObject(v.envelope)) return { kind: 'other' };
  const e = v.envelope;
  const payload = isPlainObject(e.payload) ? e.payload : {};
  if (v.kind === 'reply' && typeof e.requestId === 'string') {
    const err = isPlainObject(e.error) ? { code: String(e.error.code ?? 'error'), message: String(e.error.message ?? '') } : undefined;
    return { kind: 'reply', requestId: e.requestId, ok: e.ok === true, payload, ...(err ? { error: err } : {}) };
  }
  if (v.kind === 'event' && typeof e.event === 'string') {
    const sessionId = typeof e.sessionId === 'string' ? e.sessionId : typeof payload.sessionId === 'string' ? payload.sessionId : undefined;
    return { kind: 'event', event: e.event, ...(sessionId ? { sessionId } : {}), payload };
  }
  return { kind: 'other' };
}

/** The fields of an `approval.requested` payload the tap uses (the record, or the tool approval request nested in it). */
export function approvalOf(payload: Record<string, unknown>): { approvalId?: string; sessionId?: string; toolName?: string; toolCallId?: string } {
  const inner = isPlainObject(payload.payload) ? payload.payload : {};
  const pick = (k: string): string | undefined => (typeof payload[k] === 'string' ? (payload[k] as string) : typeof inner[k] === 'string' ? (inner[k] as string) : undefined);
  const out: { approvalId?: string; sessionId?: string; toolName?: string; toolCallId?: string } = {};
  for (const k of ['approvalId', 'sessionId', 'toolName', 'toolCallId'] as const) {
    const v = pick(k);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** How an `approval.resolved` ended: approved, rejected, or cancelled (a hub-side bulk cancellation). */
export function resolutionOf(payload: Record<string, unknown>): 'approve' | 'deny' | 'cancelled' {
  const status = payload.status;
  if (status === 'cancelled') return 'cancelled';
  const response = isPlainObject(payload.response) ? payload.response : {};
  const approved = typeof payload.approved === 'boolean' ? payload.approved : response.approved;
  if (status === 'approved' || approved === true) return 'approve';
  return 'deny';
}
