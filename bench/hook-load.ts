/**
 * The `hook-http` load generator (a separate process, see `load-process.ts`): it plays the
 * vendor's HTTP hook client (one keep-alive connection per target, one hook at a time) and, for
 * ours, watches the relay's SSE stream for the events the hooks became.
 *
 *   {kind:'connect', oursUrl, baseUrl, streamUrl}  subscribes to `streamUrl` -> {kind:'ready'}
 *   {kind:'run', target:'ours'|'base', hooks}  POSTs `hooks` Claude Code `PostToolUse` bodies,
 *       each timed from the request to the whole reply -> {kind:'done', latencies}
 *
 * Checked for ours: every reply is 200 with `x-aep-adapter: claude-code` and exactly `{}` (the
 * neutral PostToolUse reply), and every hook reaches the relay as a `tool.completed` naming its
 * `tool_use_id` without the planted tool output (the daemon's default `metadata` posture keeps
 * only a digest of it). The baseline's reply must be exactly `{}`.
 */
import { Agent, request, type ClientRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import { PLANTED } from './fanout-events.js';
import { serveLoad } from './load-process.js';

export const hookBody = (n: number): string =>
  JSON.stringify({ hook_event_name: 'PostToolUse', session_id: 'bench-hook', cwd: '/tmp', transcript_path: '/tmp/bench-hook.jsonl', tool_name: 'Read', tool_use_id: `toolu_bench_${n}`, tool_input: { file_path: '/tmp/bench/notes.md' }, tool_response: { content: `${PLANTED} the file says hello` } });

interface Reply {
  readonly status: number;
  readonly adapter: string | undefined;
  readonly body: string;
}

function post(url: string, agent: Agent, body: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, adapter: res.headers['x-aep-adapter'] as string | undefined, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const agents = { ours: new Agent({ keepAlive: true, maxSockets: 1 }), base: new Agent({ keepAlive: true, maxSockets: 1 }) };
const urls = { ours: '', base: '' };
let sse: ClientRequest | undefined;
let pending = '';
const seen: string[] = [];
let problem: string | undefined;
let wake: (() => void) | undefined;
let n = 0;

function onChunk(chunk: string): void {
  const text = pending + chunk;
  const end = text.lastIndexOf('\n\n');
  pending = end === -1 ? text : text.slice(end + 2);
  if (end === -1) return;
  for (const m of text.slice(0, end).split('\n\n')) {
    if (!m.includes('\nevent: tool.completed\n')) continue;
    if (m.includes(PLANTED) && problem === undefined) problem = 'a tool.completed reached the relay with the planted tool output (the metadata posture must keep only a digest)';
    const id = /"call_id":"(toolu_bench_\d+)"/.exec(m);
    seen.push(id ? id[1]! : '');
  }
  wake?.();
}

serveLoad(
  import.meta.url,
  async (msg) => {
    if (msg.kind === 'connect') {
      urls.ours = String(msg.oursUrl);
      urls.base = String(msg.baseUrl);
      await new Promise<void>((resolve, reject) => {
        sse = request(String(msg.streamUrl), { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
          if (res.statusCode !== 200) return reject(new Error(`GET ${String(msg.streamUrl)} answered ${res.statusCode}`));
          res.setEncoding('utf8');
          res.on('data', onChunk);
          resolve();
        });
        sse.on('error', reject);
        sse.end();
      });
      return { kind: 'ready' };
    }
    if (msg.kind !== 'run') throw new Error(`unknown request ${msg.kind}`);
    const target = msg.target === 'ours' ? 'ours' : 'base';
    const hooks = Number(msg.hooks);
    const latencies: number[] = [];
    const want: string[] = [];
    for (let i = 0; i < hooks; i++) {
      const id = n++;
      const body = hookBody(id);
      const start = performance.now();
      const reply = await post(urls[target], agents[target], body);
      latencies.push(performance.now() - start);
      if (reply.status !== 200 || reply.body !== '{}' || (target === 'ours' && reply.adapter !== 'claude-code')) {
        throw new Error(`the ${target} hook answered ${reply.status} (x-aep-adapter ${String(reply.adapter)}) ${JSON.stringify(reply.body.slice(0, 200))}; expected 200 and exactly {}`);
      }
      want.push(`toolu_bench_${id}`);
    }
    if (target === 'ours') {
      const before = seen.length;
      const done = (): boolean => problem !== undefined || want.every((w) => seen.includes(w));
      if (!done()) {
        await new Promise<void>((ok, fail) => {
          const timer = setTimeout(() => fail(new Error(`${seen.length - before} of ${hooks} hooks reached the relay within 10 s`)), 10_000);
          wake = () => {
            if (!done()) return;
            clearTimeout(timer);
            wake = undefined;
            ok();
          };
        });
      }
      if (problem) throw new Error(problem);
      seen.length = 0;
    }
    return { kind: 'done', latencies };
  },
  () => {
    sse?.destroy();
    agents.ours.destroy();
    agents.base.destroy();
  },
);
