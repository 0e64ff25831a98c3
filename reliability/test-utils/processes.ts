/**
 * Test-only: child processes the fault tests kill with SIGKILL (a relay from `bin/aep.js`, an
 * SSE consumer that prints every `id:` it receives), and small wire helpers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const AEP = fileURLToPath(new URL('../../bin/aep.js', import.meta.url));

export interface Child {
  readonly proc: ChildProcess;
  /** Every stdout line so far. */
  readonly lines: string[];
  /** Resolves once a line satisfies `predicate`. */
  waitLine(predicate: (line: string) => boolean, ms?: number): Promise<string>;
  kill9(): Promise<void>;
}

function track(proc: ChildProcess): Child {
  const lines: string[] = [];
  let partial = '';
  const waiters = new Set<() => void>();
  proc.stdout!.setEncoding('utf8');
  proc.stdout!.on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
    for (const w of [...waiters]) w();
  });
  proc.stderr!.resume();
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  return {
    proc,
    lines,
    waitLine(predicate, ms = 15_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const hit = lines.find(predicate);
          if (hit !== undefined) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(hit);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`child: no matching line in ${ms} ms; last lines: ${lines.slice(-5).join(' | ')}`));
        }, ms);
        waiters.add(check);
        check();
      });
    },
    async kill9() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      await exited;
    },
  };
}

/** `aep relay` in a child process; resolves with its base URL once it listens. */
export async function spawnRelay(port: number, env: Record<string, string> = {}): Promise<{ child: Child; url: string }> {
  const child = track(spawn(process.execPath, [AEP, 'relay', '--port', String(port)], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }));
  const line = await child.waitLine((l) => l.includes('listening on'));
  return { child, url: /http:\/\/[0-9.]+:\d+/.exec(line)![0] };
}

/** An SSE consumer in a child process: prints each `id:` value on its own line, as it arrives. */
export function spawnSseConsumer(url: string, lastEventId?: string): Child {
  const script = `
    const http = require('node:http');
    const headers = { accept: 'text/event-stream' };
    if (process.argv[2]) headers['last-event-id'] = process.argv[2];
    http.get(process.argv[1], { headers }, (res) => {
      res.setEncoding('utf8');
      let buf = '';
      process.stdout.write('connected\\n');
      res.on('data', (c) => {
        buf += c;
        let i;
        while ((i = buf.indexOf('\\n\\n')) >= 0) {
          const msg = buf.slice(0, i); buf = buf.slice(i + 2);
          const id = /^id: (.*)$/m.exec(msg);
          if (id) process.stdout.write(id[1] + '\\n');
        }
      });
    });`;
  return track(spawn(process.execPath, ['-e', script, url, lastEventId ?? ''], { stdio: ['ignore', 'pipe', 'pipe'] }));
}

/** A free loopback port (bound and released). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** The `id:` seqs of one session in an SSE text, in order. */
export function seqsOf(text: string, session: string): number[] {
  const re = new RegExp(`^id: ${session}:\\d+:(\\d+)$`, 'gm');
  return [...text.matchAll(re)].map((m) => Number(m[1]));
}
