/**
 * The scripted model server (I/O): one loopback HTTP server that speaks the three model APIs the
 * vendor CLIs call, follows a Script, and records every request it gets.
 *
 * - Anthropic Messages: `POST /v1/messages` (SSE when `stream` is true, else JSON),
 *   `POST /v1/messages/count_tokens`.
 * - OpenAI Responses: `POST /v1/responses` (and `/responses`), always streamed.
 * - Gemini: `POST /v1beta/models/<model>:streamGenerateContent?alt=sse`, `:generateContent`,
 *   `:countTokens`.
 * - OpenAI Chat Completions: `POST /v1/chat/completions` (and `/chat/completions`), SSE when
 *   `stream` is true, else JSON; `GET /v1/models` lists the one model.
 * Anything else is recorded and answered 404 with a JSON error naming the path.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicFrames, anthropicMessage, anthropicOffersTools } from './anthropic.js';
import { geminiFrames, geminiOffersTools, geminiResponse } from './gemini.js';
import { chatCompletion, chatFrames, chatOffersTools } from './openai-chat.js';
import { responsesFrames, responsesOffersTools } from './openai-responses.js';
import { schemaInstance } from './schema-instance.js';
import { TurnCursor, type RequestKind, type Script, type Turn } from './script.js';

export type Api = 'anthropic' | 'openai-responses' | 'openai-chat' | 'gemini' | 'unknown';

/** One request as received. */
export interface RecordedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  api: Api;
  kind: RequestKind;
  /** Index of the scripted turn it got; null for side requests and for answers past the script. */
  turn: number | null;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
}

export interface RunningModelServer {
  /** `http://127.0.0.1:<port>` (no path). */
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** How many scripted turns have been served. */
  served(): number;
  close(): Promise<void>;
}

export interface ModelServerOptions {
  /** Model name put in replies; default "scripted-model". */
  model?: string;
  /** Unix seconds for `created_at`; default the current time. */
  now?: () => number;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(''));
  });
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function sendSse(res: ServerResponse, frames: string[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const f of frames) res.write(f);
  res.end();
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** A side request that asks for JSON (`generationConfig.responseMimeType`) gets an instance of its schema. */
function geminiSideTurn(body: Record<string, unknown>, fallback: Turn): Turn {
  const config = isObject(body.generationConfig) ? body.generationConfig : {};
  if (config.responseMimeType !== 'application/json') return fallback;
  return { text: JSON.stringify(schemaInstance(config.responseJsonSchema ?? config.responseSchema ?? { type: 'object' })) };
}

/** One request, read: where it went, its raw body text, the parsed body and the body as an object ({} when not one). */
interface Received {
  req: IncomingMessage;
  res: ServerResponse;
  url: string;
  path: string;
  text: string;
  body: unknown;
  obj: Record<string, unknown>;
}

const GEMINI_ROUTE = /^\/v1(?:beta|alpha)?\/models\/[^/:]+:(streamGenerateContent|generateContent|countTokens)$/;

/** The script's state (the turn cursor, the reply count) and the record of every request; one handler per API. */
class ScriptedModel {
  readonly requests: RecordedRequest[] = [];
  readonly cursor: TurnCursor;
  private replies = 0;

  constructor(script: Script, private readonly model: string, private readonly now: () => number) {
    this.cursor = new TurnCursor(script);
  }

  /** Route one request by method and path; anything unknown is recorded and answered 404. */
  serve(r: Received): void {
    const { req, path } = r;
    if (req.method === 'POST' && path === '/v1/messages') return this.anthropic(r);
    if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
      this.record(r, 'anthropic', 'side');
      return sendJson(r.res, 200, { input_tokens: Math.max(1, Math.ceil(r.text.length / 4)) });
    }
    if (req.method === 'POST' && (path === '/v1/responses' || path === '/responses')) return this.responses(r);
    if (req.method === 'POST' && (path === '/v1/chat/completions' || path === '/chat/completions')) return this.chat(r);
    if (req.method === 'GET' && (path === '/v1/models' || path === '/models')) {
      this.record(r, 'openai-chat', 'side');
      return sendJson(r.res, 200, { object: 'list', data: [{ id: this.model, object: 'model', created: 0, owned_by: 'aep-vendor-lane' }] });
    }
    const gemini = GEMINI_ROUTE.exec(path);
    if (req.method === 'POST' && gemini) return this.gemini(r, gemini[1]!);
    this.record(r, 'unknown', 'side');
    sendJson(r.res, 404, { error: { type: 'not_found', message: `the scripted model server has no ${req.method} ${path}` } });
  }

  /** Record the request; returns the setter of the scripted turn it got. */
  private record(r: Received, api: Api, kind: RequestKind): (turn: number | null) => void {
    const entry: RecordedRequest = { method: r.req.method ?? '', url: r.url, api, kind, turn: null, headers: { ...r.req.headers }, body: r.body };
    this.requests.push(entry);
    return (turn) => void (entry.turn = turn);
  }

  /** Record the request, then take its turn (main or side) and number the reply. */
  private take(r: Received, api: Api, kind: RequestKind): { turn: Turn; n: number } {
    const setTurn = this.record(r, api, kind);
    const { turn, index } = this.cursor.take(kind);
    const n = ++this.replies;
    setTurn(index);
    return { turn, n };
  }

  private anthropic(r: Received): void {
    const { turn, n } = this.take(r, 'anthropic', anthropicOffersTools(r.obj) ? 'main' : 'side');
    const ids = { message: `msg_scripted_${n}`, tool: (i: number) => `toolu_scripted_${n}_${i}` };
    if (r.obj.stream === true) sendSse(r.res, anthropicFrames(turn, ids, this.model));
    else sendJson(r.res, 200, anthropicMessage(turn, ids, this.model));
  }

  private responses(r: Received): void {
    const { turn, n } = this.take(r, 'openai-responses', responsesOffersTools(r.obj) ? 'main' : 'side');
    const ids = { response: `resp_scripted_${n}`, message: `msg_scripted_${n}`, call: (i: number) => ({ item: `fc_scripted_${n}_${i}`, call: `call_scripted_${n}_${i}` }) };
    sendSse(r.res, responsesFrames(turn, ids, this.model, this.now()));
  }

  private chat(r: Received): void {
    const { turn, n } = this.take(r, 'openai-chat', chatOffersTools(r.obj) ? 'main' : 'side');
    const ids = { completion: `chatcmpl_scripted_${n}`, call: (i: number) => `call_scripted_${n}_${i}` };
    if (r.obj.stream === true) sendSse(r.res, chatFrames(turn, ids, this.model, this.now()));
    else sendJson(r.res, 200, chatCompletion(turn, ids, this.model, this.now()));
  }

  private gemini(r: Received, method: string): void {
    if (method === 'countTokens') {
      this.record(r, 'gemini', 'side');
      return sendJson(r.res, 200, { totalTokens: Math.max(1, Math.ceil(r.text.length / 4)) });
    }
    const kind: RequestKind = geminiOffersTools(r.obj) ? 'main' : 'side';
    const taken = this.take(r, 'gemini', kind);
    const turn = kind === 'side' ? geminiSideTurn(r.obj, taken.turn) : taken.turn;
    if (method === 'streamGenerateContent') sendSse(r.res, geminiFrames(turn, this.model));
    else sendJson(r.res, 200, geminiResponse(turn, this.model));
  }
}

/** Start a server following `script`; it listens on 127.0.0.1 and an ephemeral port. */
export async function startModelServer(script: Script, options: ModelServerOptions = {}): Promise<RunningModelServer> {
  const scripted = new ScriptedModel(script, options.model ?? 'scripted-model', options.now ?? (() => Math.floor(Date.now() / 1000)));
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '/';
    const path = url.split('?')[0]!;
    void readBody(req).then((text) => {
      const body = parse(text);
      scripted.serve({ req, res, url, path, text, body, obj: isObject(body) ? body : {} });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests: scripted.requests,
    served: () => scripted.cursor.served(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
