/**
 * The `resume` load generator (a separate process, see `load-process.ts`): one reconnect per
 * request, timed on its own clock.
 *
 *   {kind:'resume', url, session, first, last}  GETs `url` on a fresh connection and reads the
 *       stream to its end; checks that it carried exactly the events `first..last` of `session`,
 *       in order, each with its `data:` line, then `: replay-complete` ->
 *       {kind:'done', firstMs, lastMs} (from the request to the first and to the last event)
 */
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { serveLoad } from './load-process.js';

function resume(url: string, session: string, first: number, last: number): Promise<{ firstMs: number; lastMs: number }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    let firstMs = -1;
    let lastMs = -1;
    let next = first;
    let pending = '';
    let complete = false;
    let problem: string | undefined;
    const prefix = `id: ${session}:0:`;
    const req = request(url, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return reject(new Error(`GET ${url} answered ${res.statusCode}`));
      }
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const text = pending + chunk;
        const end = text.lastIndexOf('\n\n');
        pending = end === -1 ? text : text.slice(end + 2);
        if (end === -1 || problem !== undefined) return;
        for (const message of text.slice(0, end).split('\n\n')) {
          if (message === ': replay-complete') {
            complete = true;
            continue;
          }
          if (message.startsWith(':')) continue;
          if (!message.startsWith(prefix) || !message.includes('\ndata: {')) {
            problem = `an unexpected message where seq ${next} was due: ${message.slice(0, 120)}`;
            return;
          }
          const seq = Number(message.slice(prefix.length, message.indexOf('\n')));
          if (seq !== next) {
            problem = `seq ${seq} arrived where ${next} was due`;
            return;
          }
          if (seq === first) firstMs = performance.now() - start;
          if (seq === last) lastMs = performance.now() - start;
          next++;
        }
      });
      res.on('end', () => {
        if (problem) return reject(new Error(problem));
        if (next !== last + 1) return reject(new Error(`the stream ended after seq ${next - 1}; ${last} was due`));
        if (!complete) return reject(new Error('the stream ended without : replay-complete'));
        resolve({ firstMs, lastMs });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

serveLoad(
  import.meta.url,
  async (msg) => {
    if (msg.kind !== 'resume') throw new Error(`unknown request ${msg.kind}`);
    return { kind: 'done', ...(await resume(String(msg.url), String(msg.session), Number(msg.first), Number(msg.last))) };
  },
  () => {},
);
