/**
 * The page's connections to one relay (browser I/O): two SSE subscriptions read with `fetch`
 * (so the token rides `Authorization`, never the URL) and the WebSocket pipe through the
 * console (commands, roster, the relay's refusals). Every loss reconnects with backoff; a stream
 * reconnects with `from` = the positions the model holds, so it resumes where it stopped.
 */
import type { ConsoleModel, Json } from './model.js';
import { SseParser, parseExhausted } from './sse-parse.js';

export interface RelayConfigView {
  readonly id: string;
  readonly url: string;
  readonly token?: string;
}

/** What the inbox stream subscribes to: requests, their ends, command outcomes, run and session ends. */
export const INBOX_TYPES = ['attention.*', 'control.accepted', 'control.rejected', 'run.cancelled', 'run.completed', 'run.failed', 'session.ended'];

const BACKOFF = { min: 250, max: 4000 };

export class RelayClient {
  #lanesAbort: AbortController | undefined;
  #inboxAbort: AbortController | undefined;
  #socket: WebSocket | undefined;
  #rosterTimer: ReturnType<typeof setInterval> | undefined;
  #filter: Json = {};
  #stopped = false;

  constructor(
    readonly relay: RelayConfigView,
    readonly model: ConsoleModel,
    readonly capture: string | undefined,
    readonly changed: () => void,
  ) {}

  start(): void {
    this.#lanes();
    this.#inbox();
    this.#openSocket(BACKOFF.min);
  }

  /** A new lanes filter: a new subscription from the relay's replay (the page never filters itself). */
  setFilter(filter: Json): void {
    this.#filter = filter;
    this.model.resetLanes(this.relay.id);
    this.#lanesAbort?.abort();
    this.#lanes();
  }

  send(frame: Json): boolean {
    if (this.#socket?.readyState !== WebSocket.OPEN) return false;
    this.#socket.send(JSON.stringify(frame));
    return true;
  }

  #lanes(): void {
    const abort = new AbortController();
    this.#lanesAbort = abort;
    void this.#stream('lanes', abort, () => this.#filter, (e) => this.model.laneEvent(this.relay.id, e), BACKOFF.min);
  }

  #inbox(): void {
    const abort = new AbortController();
    this.#inboxAbort = abort;
    void this.#stream('inbox', abort, () => ({ type: INBOX_TYPES }), (e) => this.model.inboxEvent(this.relay.id, e), BACKOFF.min);
  }

  async #stream(which: 'lanes' | 'inbox', abort: AbortController, filter: () => Json, onEvent: (e: Json) => void, delay: number): Promise<void> {
    const params = new URLSearchParams();
    const f = filter();
    if (Object.keys(f).length > 0) params.set('filter', JSON.stringify(f));
    if (this.capture !== undefined) params.set('capture', this.capture);
    const from = this.model.resumeFrom(this.relay.id, which);
    params.set('from', from === undefined ? 'all' : JSON.stringify(from));
    const url = `${this.relay.url}/stream?${params.toString()}`;
    let next = delay;
    try {
      const res = await fetch(url, { headers: this.relay.token === undefined ? {} : { authorization: `Bearer ${this.relay.token}` }, signal: abort.signal, cache: 'no-store' });
      if (!res.ok || !res.body) {
        const body = (await res.text().catch(() => '')).trim();
        if (which === 'lanes') this.model.setLink(this.relay.id, 'stream', { state: 'down', detail: `HTTP ${res.status}${body ? `: ${body.slice(0, 200)}` : ''}` });
        this.changed();
      } else {
        if (which === 'lanes') this.model.setLink(this.relay.id, 'stream', { state: 'live' });
        this.changed();
        next = BACKOFF.min;
        const parser = new SseParser();
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          for (const item of parser.push(value)) {
            if (item.kind === 'comment') {
              const gap = parseExhausted(item.text);
              if (gap && which === 'lanes') this.model.laneGap(this.relay.id, gap.session, gap);
              continue;
            }
            let event: unknown;
            try {
              event = JSON.parse(item.data);
            } catch {
              continue;
            }
            if (typeof event === 'object' && event !== null && !Array.isArray(event)) onEvent(event as Json);
          }
          this.changed();
        }
        if (which === 'lanes') this.model.setLink(this.relay.id, 'stream', { state: 'down', detail: 'the stream ended; reconnecting' });
        this.changed();
      }
    } catch (err) {
      if (abort.signal.aborted || this.#stopped) return;
      if (which === 'lanes') this.model.setLink(this.relay.id, 'stream', { state: 'down', detail: `cannot reach ${this.relay.url} (${err instanceof Error ? err.message : String(err)}); reconnecting` });
      this.changed();
    }
    if (abort.signal.aborted || this.#stopped) return;
    setTimeout(() => {
      if (!abort.signal.aborted) void this.#stream(which, abort, filter, onEvent, Math.min(next * 2, BACKOFF.max));
    }, next);
  }

  #openSocket(delay: number): void {
    const ws = new WebSocket(`ws://${location.host}/relay/${this.relay.id}/socket`);
    this.#socket = ws;
    let greeted = false;
    ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', versions: ['0.1'], role: 'both', identity: { agent: 'aep-console', instance: `aep-console/${location.host}` }, capabilities: {} }));
    ws.onmessage = (m) => {
      let f: Json;
      try {
        f = JSON.parse(String(m.data)) as Json;
      } catch {
        return;
      }
      if (!greeted) {
        if (f.type !== 'hello') return;
        greeted = true;
        this.model.setLink(this.relay.id, 'socket', { state: 'live' });
        this.#askRoster();
        this.#rosterTimer = setInterval(() => this.#askRoster(), 1500);
      } else if (f.type === 'roster') this.model.setRoster(this.relay.id, f.entries);
      else if (f.type === 'error') this.model.socketError(this.relay.id, f);
      this.changed();
    };
    ws.onclose = (e) => {
      clearInterval(this.#rosterTimer);
      this.model.setLink(this.relay.id, 'socket', { state: 'down', detail: e.reason || `socket closed (${e.code}); reconnecting` });
      this.changed();
      if (!this.#stopped) setTimeout(() => this.#openSocket(Math.min(delay * 2, BACKOFF.max)), greeted ? BACKOFF.min : delay);
    };
  }

  #askRoster(): void {
    this.send({ type: 'roster', id: `roster-${Date.now()}` });
  }
}
