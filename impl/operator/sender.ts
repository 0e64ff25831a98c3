/**
 * The control sender (I/O), AEP-0004 §7: subscribe to the target session BEFORE sending, send
 * the command (no seq), wait the ack window for a decision whose `cause` is the command id,
 * poll the replay before giving up on a window, resend the SAME envelope on silence.
 */
import { buildHello } from '../relay-client/hello.js';
import { RelayTransport, TransportError, socketUrl } from '../relay-client/transport.js';
import { classify, type ControlOutcome } from './command.js';
import { fetchReplay } from './stream.js';
import { authHeaders, describeNetError, refused, unreachable, type RelayTarget } from './relay-opts.js';

type Json = Record<string, unknown>;

export interface SendOptions {
  ackWindowMs: number;
  /** Resends after the first attempt. */
  retries: number;
  progress?: (line: string) => void;
}

export class SendError extends Error {
  override name = 'SendError';
}

/** Why the socket did not open, in the operator's words. */
function openFailure(t: RelayTarget, err: unknown): SendError {
  if (!(err instanceof TransportError)) return new SendError(unreachable(t, describeNetError(err)));
  const f = err.failure;
  if (f.kind === 'refused') return new SendError(refused(t, f.status, 'the /socket upgrade'));
  if (f.kind === 'unreachable') return new SendError(unreachable(t, describeNetError(f.cause)));
  return new SendError(unreachable(t, `the socket closed (code ${f.code})`));
}

/** Opens `{relay}/socket` through the relay client and completes the hello as a consumer+sender ('both'). */
export async function openSocket(t: RelayTarget, onFrame: (f: Json) => void, timeoutMs = 5000): Promise<RelayTransport> {
  const transport = new RelayTransport({ url: socketUrl(t.relay), headers: authHeaders(t), handshakeTimeout: timeoutMs });
  const greeted = new Promise<void>((resolve, reject) => {
    let first = true;
    transport.onmessage = ({ raw, frame }) => {
      if (frame === undefined) return;
      if (!first) return onFrame(frame);
      first = false;
      if (frame.type === 'hello') return resolve();
      void transport.close({ graceMs: 500 });
      reject(new SendError(`the relay at ${t.relay} answered hello with ${raw.slice(0, 200)}`));
    };
    transport.onclose = ({ code }) => reject(new SendError(unreachable(t, `the socket closed before the hello answer (code ${code})`)));
  });
  try {
    await transport.start();
  } catch (err) {
    throw openFailure(t, err);
  }
  transport.send(JSON.stringify(buildHello({ role: 'both', identity: { agent: 'aep-cli', instance: `aep-cli/${process.pid}` }, capabilities: {} })));
  await greeted;
  return transport;
}

/** Sends `command` and returns what happened. Throws SendError when the relay cannot be used at all. */
export async function sendControl(t: RelayTarget, command: Json, opts: SendOptions): Promise<ControlOutcome> {
  const id = command.id as string;
  const session = command.session as string;
  const raw = JSON.stringify(command);
  let settle: ((v: NonNullable<ReturnType<typeof classify>>) => void) | undefined;
  let found: ReturnType<typeof classify>;
  let subscribed: ((f: Json) => void) | undefined;
  const onFrame = (f: Json): void => {
    if (f.type === 'subscribed' || (f.type === 'error' && f.id === 'aep-cli-ack')) return subscribed?.(f);
    const c = classify(f, id);
    if (c && !found) {
      found = c;
      settle?.(c);
    }
  };
  const ws = await openSocket(t, onFrame);
  const t0 = Date.now();
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new SendError(`the relay at ${t.relay} never confirmed the subscription to session ${session}`)), 5000);
      subscribed = (f) => {
        clearTimeout(timer);
        if (f.type === 'error') reject(new SendError(`the relay refused the ack subscription: ${String(f.detail ?? f.code)}`));
        else resolve();
      };
      ws.send(JSON.stringify({ type: 'subscribe', id: 'aep-cli-ack', filter: { session, type: ['control.accepted', 'control.rejected'] } }));
    });
    const attempts = opts.retries + 1;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      opts.progress?.(`sending ${command.type as string} ${id} to session ${session} (attempt ${attempt}/${attempts}, ack window ${opts.ackWindowMs} ms)`);
      ws.send(raw);
      const c = found ?? (await waitFor((s) => (settle = s), opts.ackWindowMs));
      settle = undefined;
      let decided = c ?? found;
      if (!decided) {
        // Acks are sequenced session events: a slow live push must not read as silence.
        const replay = await fetchReplay(t, { session, type: ['control.accepted', 'control.rejected'] });
        if (replay.ok) for (const e of replay.events) decided ??= classify(e, id);
      }
      if (decided) {
        const ms = Date.now() - t0;
        return decided.kind === 'accepted'
          ? { kind: 'accepted', command: id, ack: decided.ack, attempts: attempt, ms }
          : { kind: 'nacked', command: id, reason: decided.reason, ...(decided.detail ? { detail: decided.detail } : {}), by: decided.by, attempts: attempt, ms };
      }
    }
    return { kind: 'timeout', command: id, attempts, ms: Date.now() - t0, windowMs: opts.ackWindowMs };
  } finally {
    void ws.close({ graceMs: 500 });
  }
}

function waitFor<T>(arm: (settle: (v: T) => void) => void, ms: number): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    arm((v) => {
      clearTimeout(timer);
      resolve(v);
    });
  });
}
