/**
 * The scripted model server (I/O): one loopback HTTP server that speaks the three model APIs the
 * vendor CLIs call, follows a Script, and records every request it gets.
 *
 * - Anthropic Messages: `POST /v1/messages` (SSE when `stream` is true, else JSON),
 *   `POST /v1/messages/count_tokens`.
 * - OpenAI Responses: `POST /v1/responses` (and `/responses`), always streamed.
 * - Gemini: `POST /v1beta/models/<model>:streamGenerateContent?alt=sse`, `:generateContent`,
 *   `:countTokens`.
 * - OpenAI Chat Completions: `POST /v1/chat/completions` (and `/chat/completions`), always streamed.
 * Anything else is recorded and answered 404 with a JSON error naming the path.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicFrames, anthropicMessage, anthropicOffersTools } from './anthropic.js';
import { geminiFrames, geminiOffersTools, geminiResponse } from './gemini.js';
import { chatFrames, chatOffersTools } from './openai-chat.js';
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

/** Start a server following `script`; it listens on 127.0.0.1 and an ephemeral port. */
export async function startModelServer(script: Script, options: ModelServerOptions = {}): Promise<RunningModelServer> {
  const model = options.model ?? 'scripted-model';
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const cursor = new TurnCursor(script);
  const requests: RecordedRequest[] = [];
  let replies = 0;

  const record = (req: IncomingMessage, url: string, api: Api, kind: RequestKind, body: unknown): ((turn: number | null) => void) => {
    const entry: RecordedRequest = { method: req.method ?? '', url, api, kind, turn: null, headers: { ...req.headers }, body };
    requests.push(entry);
    return (turn) => void (entry.turn = turn);
  };
  const take = (kind: RequestKind): { turn: Turn; index: number | null; n: number } => ({ ...cursor.take(kind), n: ++replies });

  const server: Server = createServer((req, res) => {
    const url = req.url ?? '/';
    const path = url.split('?')[0]!;
    void readBody(req).then((text) => {
      const body = parse(text);
      const obj = isObject(body) ? body : {};
      if (req.method === 'POST' && path === '/v1/messages') {
        const kind: RequestKind = anthropicOffersTools(obj) ? 'main' : 'side';
        const setTurn = record(req, url, 'anthropic', kind, body);
        const { turn, index, n } = take(kind);
        setTurn(index);
        const ids = { message: `msg_scripted_${n}`, tool: (i: number) => `toolu_scripted_${n}_${i}` };
        if (obj.stream === true) sendSse(res, anthropicFrames(turn, ids, model));
        else sendJson(res, 200, anthropicMessage(turn, ids, model));
        return;
      }
      if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
        record(req, url, 'anthropic', 'side', body);
        sendJson(res, 200, { input_tokens: Math.max(1, Math.ceil(text.length / 4)) });
        return;
      }
      if (req.method === 'POST' && (path === '/v1/responses' || path === '/responses')) {
        const kind: RequestKind = responsesOffersTools(obj) ? 'main' : 'side';
        const setTurn = record(req, url, 'openai-responses', kind, body);
        const { turn, index, n } = take(kind);
        setTurn(index);
        const ids = { response: `resp_scripted_${n}`, message: `msg_scripted_${n}`, call: (i: number) => ({ item: `fc_scripted_${n}_${i}`, call: `call_scripted_${n}_${i}` }) };
        sendSse(res, responsesFrames(turn, ids, model, now()));
        return;
      }
      if (req.method === 'POST' && (path === '/v1/chat/completions' || path === '/chat/completions')) {
        const kind: RequestKind = chatOffersTools(obj) ? 'main' : 'side';
        const setTurn = record(req, url, 'openai-chat', kind, body);
        const { turn, index, n } = take(kind);
        setTurn(index);
        sendSse(res, chatFrames(turn, { completion: `chatcmpl_scripted_${n}`, call: (i) => `call_scripted_${n}_${i}` }, model, now()));
        return;
      }
      const gemini = /^\/v1(?:beta|alpha)?\/models\/[^/:]+:(streamGenerateContent|generateContent|countTokens)$/.exec(path);
      if (req.method === 'POST' && gemini) {
        if (gemini[1] === 'countTokens') {
          record(req, url, 'gemini', 'side', body);
          sendJson(res, 200, { totalTokens: Math.max(1, Math.ceil(text.length / 4)) });
          return;
        }
        const kind: RequestKind = geminiOffersTools(obj) ? 'main' : 'side';
        const setTurn = record(req, url, 'gemini', kind, body);
        const taken = take(kind);
        setTurn(taken.index);
        const turn = kind === 'side' ? geminiSideTurn(obj, taken.turn) : taken.turn;
        if (gemini[1] === 'streamGenerateContent') sendSse(res, geminiFrames(turn, model));
        else sendJson(res, 200, geminiResponse(turn, model));
        return;
      }
      record(req, url, 'unknown', 'side', body);
      sendJson(res, 404, { error: { type: 'not_found', message: `the scripted model server has no ${req.method} ${path}` } });
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
    requests,
    served: () => cursor.served(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
