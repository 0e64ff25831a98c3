/**
 * An inbound bridge's emitter side: envelope assembly (adapter-kit Sequencer: per-session
 * `(epoch, seq)`, ULID ids), the JSONL log under `$AEP_HOME/logs/<agent>/`, and the relay
 * connection (adapter-kit RelayLink: hello first, outbox, reconnect with backoff). A bridge is an
 * ordinary emitter (AEP-0005): read-only unless its design record says otherwise, so the hello
 * declares `control.accepts: []` by default. A dead relay never blocks `emit`.
 */
import { hostname as osHostname } from 'node:os';
import { CAPTURE_ORDER, captureRank, type AepEvent } from '../core/event.js';
import { monotonicUlid } from '../core/ulid.js';
import { DEFAULT_POSTURE } from '../adapter-kit/capture.js';
import { Sequencer, type EnvelopeExtra } from '../adapter-kit/envelope.js';
import { RelayLink } from '../adapter-kit/relay-link.js';
import { appendLog, nextEpoch } from '../adapter-kit/store.js';
import type { Mapped, Posture } from '../adapter-kit/types.js';
import { buildHello } from '../relay-client/hello.js';

export interface EmitterOptions {
  /** Envelope `agent`. */
  agent: string;
  /** Names this bridge's epoch state file (`$AEP_HOME/adapter-<stateKey>.state.json`). */
  stateKey: string;
  home: string;
  relay?: string;
  token?: string;
  posture?: Posture;
  /** Host for `source` and the hello instance; default the OS host name. */
  host?: string;
  /** Event families declared in the hello. */
  emits: string[];
  /** Control verbs accepted (opt-in gates only); default none. */
  accepts?: string[];
  onCommand?(raw: string, value: Record<string, unknown>): void;
  /** Write the JSONL log (default true). */
  writeLog?: boolean;
  log(line: string): void;
  /** Test hook: every event built. */
  onEmit?(event: AepEvent): void;
}

export interface Emitter {
  readonly epoch: number;
  readonly agent: string;
  /** Build, log and send one event; returns it. */
  emit(session: string, mapped: Mapped, extra?: EnvelopeExtra): AepEvent;
  /** Send exact bytes already built (a recorded ack on command redelivery). */
  sendRaw(line: string): void;
  relayReady(): boolean;
  close(): Promise<void>;
}

export function createEmitter(opts: EmitterOptions): Emitter {
  const posture = opts.posture ?? DEFAULT_POSTURE;
  const host = opts.host ?? osHostname();
  const epoch = nextEpoch(opts.home, opts.stateKey);
  const newId = monotonicUlid();
  const seq = new Sequencer(opts.agent, host, epoch, posture, () => newId(), () => Date.now());
  let link: RelayLink | null = null;
  if (opts.relay) {
    const top = captureRank(posture.ceiling) >= captureRank(posture.attention) ? posture.ceiling : posture.attention;
    link = new RelayLink({
      url: opts.relay,
      ...(opts.token ? { token: opts.token } : {}),
      hello: buildHello({
        role: 'emitter',
        identity: { agent: opts.agent, instance: `${host}/${process.pid}` },
        capabilities: { emits: opts.emits, capture: CAPTURE_ORDER.slice(0, captureRank(top) + 1), control: { accepts: opts.accepts ?? [], ack_window_ms: 10_000 } },
      }),
      onCommand: opts.onCommand ?? (() => undefined),
      log: opts.log,
    }).start();
  }
  return {
    epoch,
    agent: opts.agent,
    emit(session, mapped, extra) {
      const event = seq.build(session, mapped, extra);
      const line = JSON.stringify(event);
      if (opts.writeLog !== false) {
        try {
          appendLog(opts.home, opts.agent, session, line);
        } catch (err) {
          opts.log(`cannot append to the JSONL log: ${(err as Error).message}`);
        }
      }
      link?.send(line);
      opts.onEmit?.(event);
      return event;
    },
    sendRaw: (line) => link?.send(line),
    relayReady: () => link?.connected ?? false,
    async close() {
      await link?.close();
    },
  };
}
