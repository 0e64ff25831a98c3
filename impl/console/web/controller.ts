/**
 * The page's controller (browser side): the model, one RelayClient per relay, and the actions
 * the views call. Outcomes are never set here: a command is recorded as sent, and only what
 * the relay and the target say (acks, nacks, stream events) moves it on.
 */
import { cancel, respond, steer } from './commands.js';
import { RelayClient, type RelayConfigView } from './clients.js';
import { ConsoleModel, DEFAULT_ACK_WINDOW_MS, type Json } from './model.js';
import type { Answer } from '../../operator/command.js';

export class Controller {
  readonly model = new ConsoleModel();
  readonly clients = new Map<string, RelayClient>();
  #listeners = new Set<() => void>();
  /** The clock the views read ages from (ms), moved once a second. */
  now = Date.now();
  #pending = false;

  constructor(
    relays: readonly RelayConfigView[],
    /** The capture ceiling the page subscribes at (undefined: what each relay holds). */
    readonly capture: string | undefined,
  ) {
    for (const r of relays) {
      this.model.addRelay(r.id, r.url);
      this.clients.set(r.id, new RelayClient(r, this.model, capture, () => this.#changed()));
    }
  }

  start(): void {
    for (const c of this.clients.values()) c.start();
    setInterval(() => {
      this.now = Date.now();
      this.model.tick(this.now);
      // Ages ("2 min ago") move with the clock: one render a second at most.
      this.#changed();
    }, 1000);
  }

  subscribe(fn: () => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  /** Coalesces bursts of stream events into one render per frame. */
  #changed(): void {
    if (this.#pending) return;
    this.#pending = true;
    requestAnimationFrame(() => {
      this.#pending = false;
      for (const fn of this.#listeners) fn();
    });
  }

  #ackWindow(relay: string, session: string): number {
    return this.model.claims(relay, session)[0]?.ackWindowMs ?? DEFAULT_ACK_WINDOW_MS;
  }

  #send(relay: string, session: string, target: string | undefined, command: Json): void {
    const client = this.clients.get(relay);
    const id = command.id as string;
    this.model.sent({ id, relay, session, type: command.type as string, target, sentAt: Date.now(), ackWindowMs: this.#ackWindow(relay, session) });
    if (!client?.send(command)) this.model.socketError(relay, { cause: id, code: 'not-connected', detail: "the console's socket to this relay is down; the command was not sent" });
    this.#changed();
  }

  #base(session: string): { id: string; time: string; host: string; session: string } {
    return { id: crypto.randomUUID(), time: new Date().toISOString(), host: location.hostname, session };
  }

  answer(relay: string, request: Json, answer: Answer): void {
    const session = request.session as string;
    this.#send(relay, session, request.id as string, respond(this.#base(session), request.id as string, answer));
  }

  cancelRun(relay: string, session: string, run: string): void {
    this.#send(relay, session, run, cancel(this.#base(session), run));
  }

  steer(relay: string, session: string, run: string | undefined, verb: 'control.pause' | 'control.resume'): void {
    this.#send(relay, session, run ?? session, steer(this.#base(session), verb, run));
  }

  setFilter(filter: Json): void {
    for (const c of this.clients.values()) c.setFilter(filter);
    this.#changed();
  }
}
