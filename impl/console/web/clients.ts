/**
 * The page's connections to one relay, all through the console (browser I/O): the page holds
 * no token, the console adds it. One SSE response per relay (`/relay/<id>/events`) carries the
 * two subscriptions (the filtered lanes and the fixed inbox, tagged by `event:`), read with
 * `fetch`; the discovery document says whether the relay answers the roster frame; the
 * WebSocket pipe carries commands, the roster and the relay's refusals. Every loss reconnects
 * with backoff, and the streams resume from the positions the model holds.
 */
import type { ConsoleModel, Json } from './model.js';
import { buildHello } from '../../relay-client/hello.js';
import { SseParser } from '../../relay-client/sse-parser.js';
import { browserSocket } from '../../relay-client/browser-socket.js';
import { RelayTransport } from '../../relay-client/transport.js';
import { parseExhausted } from '../replay-gap.js';

export interface RelayConfigView {
  readonly id: string;
  readonly url: string;
  /** Whether the console holds a token for this relay (the token itself never reaches the page). */
  readonly auth: boolean;
}

/** What the inbox stream subscribes to: requests, their ends, command acks and outcomes, runs and sessions. */
export const INBOX_TYPES = ['attention.*', 'control.accepted', 'control.rejected', 'run.*', 'session.*', 'progress.status'];

const BACKOFF = { min: 250, max: 4000 };

/** What a refusal from the relay means for the operator, in words. */
export function refusalWords(status: number, auth: boolean): string {
  if (status === 401) {
    return auth
      ? "the relay rejected the console's token (HTTP 401): give aep console the relay's token (--token-file FILE or AEP_TOKEN) and restart it"
      : 'the relay needs a token (HTTP 401): start aep console with --token-file FILE or AEP_TOKEN';
  }
  return `the relay refused the console's token (HTTP ${status}): the token is not allowed to read this relay; use one that is`;
}

export class RelayClient {
  #abort: AbortController | undefined;
  #socket: RelayTransport | undefined;
  #rosterTimer: ReturnType<typeof setInterval> | undefined;
  #filter: Json = {};
  #stopped = false;
  #wasLive = false;

  constructor(
    readonly relay: RelayConfigView,
    readonly model: ConsoleModel,
    readonly capture: string | undefined,
    readonly changed: () => void,
  ) {}

  start(): void {
    this.#streams();
    void this.#discover(BACKOFF.min);
    this.#openSocket(BACKOFF.min);
  }

  /** A new lanes filter: a new subscription from the relay's replay (the page never filters itself). */
  setFilter(filter: Json): void {
    this.#filter = filter;
    this.model.resetLanes(this.relay.id);
    this.#abort?.abort();
    this.#streams();
  }

  send(frame: Json): boolean {
    return this.#socket?.send(JSON.stringify(frame)) ?? false;
  }

  #query(which: 'lanes' | 'inbox'): string {
    const params = new URLSearchParams();
    const f = which === 'lanes' ? this.#filter : { type: INBOX_TYPES };
    if (Object.keys(f).length > 0) params.set('filter', JSON.stringify(f));
    if (this.capture !== undefined) params.set('capture', this.capture);
    const from = this.model.resumeFrom(this.relay.id, which);
    params.set('from', from === undefined ? 'all' : JSON.stringify(from));
    return params.toString();
  }

  #streams(): void {
    const abort = new AbortController();
    this.#abort = abort;
    void this.#stream(abort, BACKOFF.min);
  }

  async #discover(delay: number): Promise<void> {
    try {
      const res = await fetch(`/relay/${this.relay.id}/discovery`, { cache: 'no-store', credentials: 'same-origin' });
      if (res.ok) {
        const doc = (await res.json()) as Json;
        const caps = (typeof doc.capabilities === 'object' && doc.capabilities !== null ? doc.capabilities : {}) as Json;
        this.model.setRosterSupport(this.relay.id, typeof caps.roster === 'object' && caps.roster !== null ? 'advertised' : 'absent');
        this.changed();
        if (this.#greeted) this.#startRoster();
        return;
      }
    } catch {
      // retried below
    }
    if (!this.#stopped) setTimeout(() => void this.#discover(Math.min(delay * 2, BACKOFF.max)), delay);
  }

  async #stream(abort: AbortController, delay: number): Promise<void> {
    const url = `/relay/${this.relay.id}/events?lanes=${encodeURIComponent(this.#query('lanes'))}&inbox=${encodeURIComponent(this.#query('inbox'))}`;
    const id = this.relay.id;
    let next = delay;
    const lost = (detail: string): void => this.model.setLink(id, 'stream', this.#wasLive ? { state: 'reconnecting', detail } : { state: 'down', detail });
    try {
      const res = await fetch(url, { signal: abort.signal, cache: 'no-store', credentials: 'same-origin' });
      if (!res.ok || !res.body) {
        const body = (await res.json().catch(() => ({}))) as Json;
        const detail = typeof body.detail === 'string' ? body.detail : `HTTP ${res.status}`;
        if (res.status === 401 || res.status === 403) {
          this.model.setLink(id, 'stream', body.error === 'launch-secret-required' ? { state: 'refused', status: res.status, detail } : { state: 'refused', status: res.status, detail: refusalWords(res.status, this.relay.auth) });
          next = BACKOFF.max;
        } else lost(res.status === 502 ? detail : `HTTP ${res.status}: ${detail}`);
        this.changed();
      } else {
        this.model.setLink(id, 'stream', { state: 'live' });
        this.#wasLive = true;
        this.changed();
        next = BACKOFF.min;
        const parser = new SseParser();
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          for (const item of parser.push(value)) {
            if (item.kind !== 'message') continue;
            if (item.event === 'lanes-comment') {
              const gap = parseExhausted(item.data);
              if (gap) this.model.laneGap(id, gap.session, gap);
              continue;
            }
            if (item.event !== 'lanes' && item.event !== 'inbox') continue;
            let event: unknown;
            try {
              event = JSON.parse(item.data);
            } catch {
              continue;
            }
            if (typeof event !== 'object' || event === null || Array.isArray(event)) continue;
            if (item.event === 'lanes') this.model.laneEvent(id, event as Json);
            else this.model.inboxEvent(id, event as Json);
          }
          this.changed();
        }
        lost('the stream ended; reconnecting');
        this.changed();
      }
    } catch (err) {
      if (abort.signal.aborted || this.#stopped) return;
      lost(`cannot reach the console (${err instanceof Error ? err.message : String(err)}); reconnecting`);
      this.changed();
    }
    if (abort.signal.aborted || this.#stopped) return;
    setTimeout(() => {
      if (!abort.signal.aborted) void this.#stream(abort, Math.min(next * 2, BACKOFF.max));
    }, next);
  }

  #greeted = false;

  #startRoster(): void {
    clearInterval(this.#rosterTimer);
    if (this.model.relays.get(this.relay.id)?.rosterSupport !== 'advertised') return;
    this.#askRoster();
    this.#rosterTimer = setInterval(() => this.#askRoster(), 1500);
  }

  #openSocket(delay: number): void {
    const transport = new RelayTransport({ url: `ws://${location.host}/relay/${this.relay.id}/socket`, socket: browserSocket });
    this.#socket = transport;
    this.#greeted = false;
    transport.onmessage = ({ frame: f }) => {
      if (!f) return;
      if (!this.#greeted) {
        if (f.type !== 'hello') return;
        this.#greeted = true;
        this.model.setLink(this.relay.id, 'socket', { state: 'live' });
        // The roster is asked for only where the relay advertises it (AEP-0003 §4.1 rule 1).
        this.#startRoster();
      } else if (f.type === 'roster') this.model.setRoster(this.relay.id, (f as Json).entries);
      else if (f.type === 'error') this.model.socketError(this.relay.id, f as Json);
      this.changed();
    };
    transport.onclose = (e) => this.#socketEnded(e, delay);
    transport.start().then(
      () => transport.send(JSON.stringify(buildHello({ role: 'both', identity: { agent: 'aep-console', instance: `aep-console/${location.host}` }, capabilities: {} }))),
      // A browser reports a socket that never opened as an error and a close 1006 without a reason.
      () => this.#socketEnded({ code: 1006, reason: '' }, delay),
    );
  }

  #socketEnded(e: { code: number; reason: string }, delay: number): void {
    clearInterval(this.#rosterTimer);
    const refused = /HTTP (401|403)/.exec(e.reason);
    this.model.setLink(
      this.relay.id,
      'socket',
      refused ? { state: 'refused', status: Number(refused[1]), detail: refusalWords(Number(refused[1]), this.relay.auth) } : this.#greeted ? { state: 'reconnecting', detail: e.reason || `socket closed (${e.code})` } : { state: 'down', detail: e.reason || `socket closed (${e.code})` },
    );
    this.changed();
    if (!this.#stopped) setTimeout(() => this.#openSocket(Math.min(delay * 2, BACKOFF.max)), this.#greeted ? BACKOFF.min : delay);
  }

  #askRoster(): void {
    this.send({ type: 'roster', id: `roster-${Date.now()}` });
  }
}
