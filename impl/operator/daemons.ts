/** Managed daemons (I/O): start detached with a pid file and a log, stop by pid. */
import { spawn } from 'node:child_process';
import { openSync, readFileSync, rmSync, statSync, writeFileSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { daemonPort, logFile, pidFile, runDir, type DaemonSpec } from './catalog.js';
import { probe } from './doctor-probe.js';
import { packageRoot } from './package-root.js';
import { isAlive, readPid } from './pid-file.js';
import { ensureDir, PathError } from '../adapter-kit/ensure-dir.js';
import type { HttpProbe } from './doctor-findings.js';

export { isAlive, readPid };

export async function healthy(port: number): Promise<boolean> {
  const r = await probe(`http://127.0.0.1:${port}/healthz`);
  return r.status === 200;
}

export type UpResult = { ok: true; already: boolean; pid?: number; port: number } | { ok: false; error: string };

/** Whether a /healthz probe reached a program (an answer that is not 200, or a connection that was accepted), pure. */
export function heldByOther(h: HttpProbe): boolean {
  if (h.status !== undefined) return h.status !== 200;
  return h.error !== undefined && !['ECONNREFUSED', 'EADDRNOTAVAIL', 'ENETUNREACH', 'EHOSTUNREACH'].includes(h.error);
}

/** What is wrong between this shell's AEP_TOKEN and the relay already answering on `port`; undefined when they agree. */
async function tokenMismatch(port: number, token: string | undefined, health: HttpProbe): Promise<string | undefined> {
  const open = health.json !== undefined && 'sessions' in health.json;
  const fix = "use the running relay's token, or restart it with yours: 'aep setup down relay && aep setup up relay'";
  if (open) return token ? `the relay on 127.0.0.1:${port} runs without a token (watch-only), but AEP_TOKEN is set here: every command would be refused; ${fix}` : undefined;
  if (!token) return undefined; // said already: AEP_TOKEN is not set
  const nothing = encodeURIComponent(JSON.stringify({ session: 'aep-setup-probe-matches-nothing' }));
  const r = await probe(`http://127.0.0.1:${port}/stream?live=0&filter=${nothing}`, { headers: { authorization: `Bearer ${token}` } });
  return r.status === 401 || r.status === 403 ? `the relay on 127.0.0.1:${port} refuses this shell's AEP_TOKEN: it was started with another token; ${fix}` : undefined;
}

const sizeOf = (file: string): number => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

/** The last lines `file` got after `offset` (this start's output only), joined. */
function newLines(file: string, offset: number): string {
  try {
    const text = readFileSync(file).subarray(offset).toString('utf8');
    return text.trim().split('\n').filter((l) => l.trim() !== '').slice(-3).join(' | ');
  } catch {
    return '';
  }
}

/**
 * Starts `d` detached unless it already answers. `onStart` runs only when a process is really about
 * to be started (not for one left alone, a held port, or an AEP_HOME that cannot hold the pid file).
 */
export async function up(d: DaemonSpec, home: string, env: NodeJS.ProcessEnv, relay: string, onStart?: (port: number) => void): Promise<UpResult> {
  const port = daemonPort(d, env);
  const health = await probe(`http://127.0.0.1:${port}/healthz`);
  if (health.status === 200) {
    const mismatch = d.id === 'relay' ? await tokenMismatch(port, env.AEP_TOKEN, health) : undefined;
    if (mismatch) return { ok: false, error: mismatch };
    return { ok: true, already: true, port, ...(readPid(home, d.id) ? { pid: readPid(home, d.id)! } : {}) };
  }
  if (heldByOther(health)) {
    const what = health.status !== undefined ? `its /healthz answered HTTP ${health.status}` : `it accepted the connection but did not answer HTTP (${health.error})`;
    return { ok: false, error: `port ${port} is held by a program that is not ${d.describe} (${what}); stop that program, or take another port: ${d.portEnv}=${port + 1} aep setup up ${d.id}${d.id === 'relay' ? ` (and point the other verbs at it: --relay http://127.0.0.1:${port + 1})` : ''}` };
  }
  try {
    ensureDir(runDir(home));
  } catch (err) {
    if (err instanceof PathError) return { ok: false, error: `AEP_HOME ${home}: ${err.path === runDir(home) ? '' : `${err.path}: `}${err.reason}; set AEP_HOME to a writable folder` };
    throw err;
  }
  onStart?.(port);
  const logPath = logFile(home, d.id);
  const offset = sizeOf(logPath);
  const log = openSync(logPath, 'a');
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
    if (!isAlive(child.pid)) {
      rmSync(pidFile(home, d.id), { force: true });
      const said = newLines(logPath, offset);
      return { ok: false, error: `${d.id} exited before answering http://127.0.0.1:${port}/healthz${said ? `; it said: ${said}` : ''} (log: ${logPath})` };
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  const said = newLines(logPath, offset);
  return { ok: false, error: `${d.id} (pid ${child.pid}) runs but did not answer http://127.0.0.1:${port}/healthz within 10 s${said ? `; it said: ${said}` : ''} (log: ${logPath}); stop it with 'aep setup down ${d.id}'` };
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
