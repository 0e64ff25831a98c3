/** Managed daemons (I/O): start detached with a pid file and a log, stop by pid. */
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, readFileSync, rmSync, writeFileSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { daemonPort, logFile, pidFile, runDir, type DaemonSpec } from './catalog.js';
import { probe } from './doctor-probe.js';
import { packageRoot } from './package-root.js';
import { isAlive, readPid } from './pid-file.js';

export { isAlive, readPid };

export async function healthy(port: number): Promise<boolean> {
  const r = await probe(`http://127.0.0.1:${port}/healthz`);
  return r.status === 200;
}

export type UpResult = { ok: true; already: boolean; pid?: number; port: number } | { ok: false; error: string };

export async function up(d: DaemonSpec, home: string, env: NodeJS.ProcessEnv, relay: string): Promise<UpResult> {
  const port = daemonPort(d, env);
  if (await healthy(port)) return { ok: true, already: true, port, ...(readPid(home, d.id) ? { pid: readPid(home, d.id)! } : {}) };
  mkdirSync(runDir(home), { recursive: true });
  const log = openSync(logFile(home, d.id), 'a');
  const root = packageRoot();
  const child = spawn(process.execPath, [join(root, 'bin', 'aep.js'), ...d.args(port, relay)], {
    detached: true,
    stdio: ['ignore', log, log],
    env: { ...env, ...(d.id === 'relay' ? { AEP_HOST: env.AEP_HOST ?? '127.0.0.1' } : {}) },
  });
  closeSync(log);
  child.unref();
  if (child.pid === undefined) return { ok: false, error: `could not start ${d.id}` };
  writeFileSync(pidFile(home, d.id), `${child.pid}\n`);
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (await healthy(port)) return { ok: true, already: false, pid: child.pid, port };
    if (!isAlive(child.pid)) break;
    await new Promise((r) => setTimeout(r, 150));
  }
  let tail = '';
  try {
    tail = readFileSync(logFile(home, d.id), 'utf8').trim().split('\n').slice(-3).join(' | ');
  } catch {
    tail = '';
  }
  return { ok: false, error: `${d.id} did not answer http://127.0.0.1:${port}/healthz within 10 s${tail ? `; its log says: ${tail}` : ''} (log: ${logFile(home, d.id)})` };
}

export type DownResult = { ok: true; state: 'stopped' | 'not-managed' | 'stale' } | { ok: false; error: string };

export async function down(d: DaemonSpec, home: string): Promise<DownResult> {
  const pid = readPid(home, d.id);
  if (pid === undefined) return { ok: true, state: 'not-managed' };
  if (!isAlive(pid)) {
    rmSync(pidFile(home, d.id), { force: true });
    return { ok: true, state: 'stale' };
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 7000;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) {
      rmSync(pidFile(home, d.id), { force: true });
      return { ok: true, state: 'stopped' };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { ok: false, error: `${d.id} (pid ${pid}) did not stop within 7 s of SIGTERM; stop it with kill -9 ${pid}` };
}
