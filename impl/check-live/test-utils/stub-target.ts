/**
 * Deliberately broken control targets for the self-tests. Each connects to a relay, claims a
 * session, declares `control.attention.respond` and `control.cancel`, and then misbehaves in
 * exactly one way.
 */
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';

export type BrokenTargetMode =
  /** Two distinct ack Events for one command. */
  | 'double-ack'
  /** Never acks anything. */
  | 'silent'
  /** Forgets every command: a retransmission gets a fresh, distinct ack. */
  | 're-decide'
  /** Accepts even the types it did not declare. */
  | 'accept-undeclared'
  /** Acks correctly but never emits an outcome (no run.cancelled). */
  | 'no-outcome'
  /** Re-emits the recorded ack on a retransmission, then decides again with a second, distinct ack. */
  | 'extra-decision';

export async function startBrokenTarget(relay: string, token: string, session: string, mode: BrokenTargetMode): Promise<{ close(): void }> {
  const ws = new WebSocket(`${relay.replace(/^http/, 'ws')}/socket`, { headers: { authorization: `Bearer ${token}` } });
  let seq = 0;
  const event = (type: string, extra: Record<string, unknown> = {}): string =>
    JSON.stringify({
      aep: '0.1',
      id: randomUUID(),
      type,
      time: new Date().toISOString(),
      source: 'aep://stub/agent/broken-target',
      agent: 'broken-target',
      session,
      seq: seq++,
      epoch: 0,
      capture: 'metadata',
      ...extra,
    });
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => {
      ws.send(
        JSON.stringify({
          type: 'hello',
          versions: ['0.1'],
          role: 'both',
          identity: { agent: 'broken-target', instance: mode },
          capabilities: { control: { accepts: ['control.attention.respond', 'control.cancel'], ack_window_ms: 10000 } },
        }),
      );
    });
    ws.once('message', () => {
      ws.send(event('session.started', { data: { client: { name: 'broken-target' } } }));
      resolve();
    });
  });
  ws.on('error', () => {});
  const ledger = new Map<string, string>();
  ws.on('message', (data) => {
    const m = JSON.parse(data.toString()) as Record<string, unknown>;
    if (typeof m.type !== 'string' || !m.type.startsWith('control.') || m.type === 'control.accepted' || m.type === 'control.rejected') return;
    const declared = mode === 'accept-undeclared' || m.type === 'control.attention.respond' || m.type === 'control.cancel';
    const ack = (): string =>
      declared ? event('control.accepted', { cause: m.id }) : event('control.rejected', { cause: m.id, data: { reason: 'unsupported' } });
    if (mode === 'silent') return;
    if (mode === 'extra-decision') {
      const recorded = ledger.get(m.id as string);
      if (recorded !== undefined) {
        ws.send(recorded);
        ws.send(event('control.rejected', { cause: m.id, data: { reason: 'busy' } }));
        return;
      }
      const first = ack();
      ledger.set(m.id as string, first);
      ws.send(first);
      return;
    }
    ws.send(ack());
    if (mode === 'double-ack') ws.send(ack());
  });
  return { close: () => ws.terminate() };
}
