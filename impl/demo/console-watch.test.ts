/**
 * `aep demo --console`: the demo's own relay, watched by `aep console`. The console's URL is
 * printed before the beats, with its launch secret; the console lists that relay (never its
 * token, which it got from the environment, not argv); after the beats one request stays open
 * for the inbox and everything stays up until Ctrl-C, which then exits 0 (every beat happened),
 * not 130.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { aepBin } from './procs.js';

describe('aep demo --console', () => {
  it('prints the console URL first, keeps the cast up after the beats, and exits 0 on Ctrl-C', async () => {
    const child = spawn(process.execPath, [aepBin(), 'demo', '--console', '--console-port', '0', '--lead', '0'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, AEP_TOKEN: '' } });
    let out = '';
    let err = '';
    const waiters: Array<() => void> = [];
    child.stdout.setEncoding('utf8').on('data', (c: string) => ((out += c), waiters.splice(0).forEach((w) => w())));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const waitFor = (re: RegExp, ms: number): Promise<RegExpExecArray> =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${re} within ${ms} ms; stdout:\n${out}\nstderr:\n${err}`)), ms);
        const check = (): void => {
          const m = re.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m);
          } else waiters.push(check);
        };
        check();
      });
    try {
      const m = await waitFor(/watch it in the console: ((http:\/\/127\.0\.0\.1:\d+\/)\?token=(\S+))/, 30_000);
      const [secretUrl, at, secret] = [m[1]!, m[2]!, m[3]!];
      const relay = /starting a relay \(AEP_TOKEN set, port 0, readable by (http:\/\/127\.0\.0\.1:\d+)\)/.exec(err);
      expect(relay?.[1]).toBe(at.replace(/\/$/, ''));
      expect((await fetch(`${at}api/relays`)).status).toBe(403);
      const port = new URL(at).port;
      const list = (await (await fetch(`${at}api/relays`, { headers: { cookie: `aep-console-${port}=${secret}` } })).json()) as { relays: Array<{ url: string; auth: boolean; token?: string }> };
      expect(list.relays).toHaveLength(1);
      expect(list.relays[0]).toMatchObject({ auth: true });
      expect(list.relays[0]!.token).toBeUndefined();
      // The relay answers the console's origin by name (and so no other page).
      const preflight = await fetch(`${list.relays[0]!.url}/stream`, { method: 'OPTIONS', headers: { origin: at.replace(/\/$/, ''), 'access-control-request-method': 'GET' } });
      expect(preflight.headers.get('access-control-allow-origin')).toBe(at.replace(/\/$/, ''));
      await waitFor(/everything stays up for the console/, 90_000);
      expect(out).toContain('✔ beat 5');
      expect(out).toMatch(/a permission request waits in the console's inbox \(session demo-inbox-[0-9a-f]{6}\)/);
      expect((await fetch(secretUrl, { redirect: 'manual' })).status).toBe(303);
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(out).toContain('demo: all 5 beats happened');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 150_000);
});
