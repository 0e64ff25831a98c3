/**
 * Test-only raw-socket probes of an inbound HTTP surface: exact request bytes, a body trickled
 * slowly, a client that hangs up mid-body, a pile of idle connections. Each resolves with what the
 * server did (its reply bytes, whether and when it closed), never throws on a server that cuts.
 */
import { connect, type Socket } from 'node:net';

export interface RawReply {
  /** Everything the server sent. */
  readonly text: string;
  /** The status of the first reply line, 0 when none came. */
  readonly status: number;
  /** Milliseconds from the first byte sent until the server closed (or `waitMs` passed). */
  readonly ms: number;
  /** The server closed the connection (false: still open after `waitMs`). */
  readonly closed: boolean;
}

function hostPort(url: string): { host: string; port: number } {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port) };
}

/** Send `head` (and then `body` in `pieces` spaced `gapMs` apart), wait for the server to close or `waitMs`. */
export function rawExchange(url: string, head: string, opts: { body?: Buffer | string; pieces?: number; gapMs?: number; waitMs?: number; hangUpAfter?: number } = {}): Promise<RawReply> {
  const { host, port } = hostPort(url);
  const body = opts.body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(opts.body) ? opts.body : Buffer.from(opts.body);
  const pieces = Math.max(1, opts.pieces ?? 1);
  const waitMs = opts.waitMs ?? 5_000;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const t0 = Date.now();
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const sock: Socket = connect(port, host);
    const finish = (closed: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(wait);
      sock.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      resolve({ text, status: m ? Number(m[1]) : 0, ms: Date.now() - t0, closed });
    };
    const wait = setTimeout(() => finish(false), waitMs);
    sock.on('data', (d) => chunks.push(d));
    sock.on('error', () => finish(true));
    sock.on('close', () => finish(true));
    sock.on('connect', () => {
      sock.write(head);
      let i = 0;
      const size = Math.ceil(body.length / pieces);
      const next = (): void => {
        if (done || sock.destroyed) return;
        if (opts.hangUpAfter !== undefined && i >= opts.hangUpAfter) {
          sock.destroy();
          finish(true);
          return;
        }
        if (i * size >= body.length) return;
        sock.write(body.subarray(i * size, (i + 1) * size));
        i++;
        timer = setTimeout(next, opts.gapMs ?? 0);
      };
      next();
    });
  });
}

/** The head of a POST with a declared length. */
export function postHead(path: string, length: number, headers: Record<string, string> = {}): string {
  const extra = Object.entries({ 'content-type': 'application/json', ...headers }).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  return `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n${extra}content-length: ${length}\r\n\r\n`;
}

/** `n` sockets that connect and say nothing; returns a closer. */
export async function idleSockets(url: string, n: number): Promise<{ open(): number; close(): void }> {
  const { host, port } = hostPort(url);
  const socks: Socket[] = [];
  await Promise.all(
    Array.from({ length: n }, () => new Promise<void>((resolve) => {
      const s = connect(port, host, () => resolve());
      s.on('error', () => resolve());
      s.resume(); // read what the server sends, so its close is seen
      socks.push(s);
    })),
  );
  return { open: () => socks.filter((s) => !s.destroyed && s.readyState === 'open').length, close: () => socks.forEach((s) => s.destroy()) };
}

/** JSON nested `depth` levels: `[[[...]]]`. */
export function deepArray(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}
