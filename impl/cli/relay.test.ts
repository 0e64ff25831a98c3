import { describe, expect, it } from 'vitest';
import type { CliIo } from './io.js';
import { main } from './main.js';

function fakeIo(env: Record<string, string> = {}): { io: CliIo; out: string[]; err: string[]; stop: (s: string) => void; firstLine: Promise<string> } {
  const out: string[] = [];
  const err: string[] = [];
  let stop: (s: string) => void = () => {};
  let gotLine: (l: string) => void = () => {};
  const firstLine = new Promise<string>((r) => (gotLine = r));
  const io: CliIo = {
    stdout: (t) => {
      out.push(t);
      gotLine(t);
    },
    stderr: (t) => void err.push(t),
    readStdin: async () => Buffer.alloc(0),
    env,
    cwd: process.cwd(),
    stopSignal: new Promise((r) => (stop = r)),
  };
  return { io, out, err, stop: (s) => stop(s), firstLine };
}

describe('aep relay', () => {
  it('prints the bound URL first, logs the watch-only posture, serves, and exits 0 on SIGTERM', async () => {
    const f = fakeIo({ AEP_BUFFER: '8' });
    const done = main(['relay', '--port', '0'], f.io);
    const line = await f.firstLine;
    expect(line).toMatch(/^aep relay listening on http:\/\/127\.0\.0\.1:\d+\n$/);
    const url = line.trim().split(' ').at(-1)!;
    const doc = (await (await fetch(`${url}/events`)).json()) as any;
    expect(doc.capabilities.replay.buffer).toBe(8);
    expect(f.err.join('')).toContain('control is watch-only');
    f.stop('SIGTERM');
    expect(await done).toBe(0);
    expect(f.err.join('')).toContain('SIGTERM: draining clients');
  });

  it('states the tokened posture and never logs the token', async () => {
    const f = fakeIo({ AEP_TOKEN: 'very-secret-token' });
    const done = main(['relay', '--port', '0'], f.io);
    await f.firstLine;
    f.stop('SIGINT');
    expect(await done).toBe(0);
    const all = [...f.out, ...f.err].join('');
    expect(all).toContain('AEP_TOKEN set');
    expect(all).not.toContain('very-secret-token');
  });

  it('rejects a bad setting as a usage error naming the variable', async () => {
    const f = fakeIo({ AEP_BUFFER: 'abc' });
    expect(await main(['relay'], f.io)).toBe(2);
    expect(f.err.join('')).toContain('AEP_BUFFER="abc" is not valid');
    expect(f.out).toEqual([]);
  });

  it('fails with exit 1 when the port is taken', async () => {
    const a = fakeIo();
    const running = main(['relay', '--port', '0'], a.io);
    const port = (await a.firstLine).trim().split(':').at(-1)!;
    const b = fakeIo();
    expect(await main(['relay', '--port', port], b.io)).toBe(1);
    expect(b.err.join('')).toMatch(/cannot listen on 127\.0\.0\.1:\d+/);
    a.stop('SIGTERM');
    expect(await running).toBe(0);
  });
});
