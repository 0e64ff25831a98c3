/**
 * External daemons for `aep conformance --live --target <agent>=<url|command>`: an adapter that
 * is not ours (any language), judged only on the wire: the hook replies it returns and the events
 * the relay we start receives from it.
 *
 * - `<agent>=http://127.0.0.1:PORT`: a daemon already running, linked to the relay this run starts
 *   (its URL and token are printed, and fixed with `AEP_TARGET_RELAY_PORT` / `AEP_TOKEN`). Every
 *   scenario runs against that one process, so it must run in the scenarios' configuration.
 * - `<agent>=<command>`: started by us once per daemon the live families need, through `sh -c`,
 *   with `{relay}` and `{token}` in the command replaced, and the environment carrying
 *   `AEP_RELAY_URL`, `AEP_TOKEN`, `AEP_HOME`, the hold window (`AEP_ATTENTION_TIMEOUT_MS` and
 *   `AEP_<AGENT>_HOLD_MS`), `AEP_INSTRUCT`, `AEP_CAPTURE`/`AEP_CAPTURE_ATTENTION` and the
 *   scenario's opt-in variables. Its URL is the first `http://127.0.0.1:PORT` it prints.
 * Either way the daemon must serve `POST /hook/<HookEvent>` and `GET /healthz` with
 * `{"relay":true}` once its hello completed (the daemon contract in the README).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import type { AdapterOptions, RunningAdapter } from '../../impl/adapter-kit/daemon.js';
import { holdEnvName } from '../../impl/adapter-kit/config.js';

export interface ExternalTarget {
  agent: string;
  url?: string;
  command?: string;
}

/** `claude-code=http://127.0.0.1:<port>` or `claude-code=node my-daemon.js --relay {relay}`; an error string when malformed. */
export function parseTarget(value: string): ExternalTarget | string {
  const eq = value.indexOf('=');
  const agent = eq > 0 ? value.slice(0, eq).trim() : '';
  const rest = eq > 0 ? value.slice(eq + 1).trim() : '';
  if (!/^[a-z0-9][a-z0-9-]*$/.test(agent) || rest === '') return `--target must be <agent>=<http://127.0.0.1:PORT> or <agent>=<command>, got '${value}'`;
  if (/^https?:\/\//.test(rest)) {
    let url: URL;
    try {
      url = new URL(rest);
    } catch {
      return `--target ${agent}: '${rest}' is not a URL`;
    }
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) return `--target ${agent}: only loopback daemons can be certified, got ${url.hostname}`;
    return { agent, url: url.origin };
  }
  return { agent, command: rest };
}

/** `GET <base>/healthz` → its `relay` member (false on any error). */
function relayLinked(base: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(new URL('/healthz', base), { method: 'GET', timeout: 1000 }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString('utf8')));
      res.on('end', () => {
        try {
          resolve((JSON.parse(body) as { relay?: unknown }).relay === true);
        } catch {
          resolve(false);
        }
      });
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

async function waitLinked(base: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await relayLinked(base)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/** Signals the started command's own process group (sh and what it started), by its id. */
function signal(child: ChildProcess, sig: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, sig);
  } catch {
    // already gone
  }
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    signal(child, 'SIGTERM');
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const kill = setTimeout(() => signal(child, 'SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    signal(child, 'SIGTERM');
  });
}

export interface ExternalStart {
  relayUrl: string;
  token: string;
  home: string;
  options: Partial<AdapterOptions>;
  env: Record<string, string>;
  log: (line: string) => void;
  /** What the relay refused so far, rendered (the relay tap), for a hello that never completes. */
  refusals?: () => string;
}

/** The environment a started daemon gets for one configuration. */
export function externalEnv(agent: string, s: ExternalStart): Record<string, string> {
  const out: Record<string, string> = { AEP_RELAY_URL: s.relayUrl, AEP_TOKEN: s.token, AEP_HOME: s.home };
  if (s.options.attentionTimeoutMs !== undefined) {
    out.AEP_ATTENTION_TIMEOUT_MS = String(s.options.attentionTimeoutMs);
    out[holdEnvName(agent)] = String(s.options.attentionTimeoutMs);
  }
  out.AEP_INSTRUCT = s.options.instruct ? '1' : '0';
  if (s.options.posture) {
    out.AEP_CAPTURE = s.options.posture.ceiling;
    out.AEP_CAPTURE_ATTENTION = s.options.posture.attention;
  }
  return { ...out, ...s.env };
}

/** A started or attached external daemon: what it printed last, for a failure that timed out. */
export interface ExternalDaemon extends RunningAdapter {
  /** Its last `n` output lines (stdout and stderr as they came), '' when attached by URL. */
  tail(n: number): string;
}

/** The last `n` non-empty lines of `text`. */
export function lastLines(text: string, n: number): string {
  return text.split(/\r?\n/).filter((l) => l.trim() !== '').slice(-n).join('\n');
}

/** Starts (command) or attaches to (URL) the external daemon; resolves once its hello reached our relay. */
export async function startExternal(target: ExternalTarget, s: ExternalStart): Promise<ExternalDaemon> {
  if (target.url) {
    if (!(await waitLinked(target.url, 15_000))) throw new Error(`the external ${target.agent} daemon at ${target.url} did not report a completed hello with the relay ${s.relayUrl} (GET /healthz → "relay": true) within 15000 ms; start it with --relay ${s.relayUrl} --token ${s.token}`);
    const port = Number(new URL(target.url).port);
    return { url: target.url, port, epoch: 0, relayReady: () => true, close: async () => {}, tail: () => '' };
  }
  const command = target.command!.replace(/\{relay\}/g, s.relayUrl).replace(/\{token\}/g, s.token);
  const child = spawn('sh', ['-c', command], { env: { ...process.env, ...externalEnv(target.agent, s) }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the external ${target.agent} daemon (${command}) printed no http://127.0.0.1:PORT within 15000 ms; its output: ${output.slice(-500) || '(none)'}`)), 15_000);
    const onData = (c: Buffer) => {
      output += c.toString('utf8');
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(output);
      if (m) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.stderr!.off('data', onData);
        resolve(m[0]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the external ${target.agent} daemon (${command}) exited (${signal ?? `code ${code}`}) before it listened; its output: ${output.slice(-500) || '(none)'}`));
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  }).catch(async (err: unknown) => {
    await stop(child);
    throw err;
  });
  const keep = (c: Buffer) => {
    output = (output + c.toString('utf8')).slice(-64 * 1024);
    s.log(c.toString('utf8').trimEnd());
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  if (!(await waitLinked(url, 10_000))) {
    await stop(child);
    const said = s.refusals?.() ?? '';
    throw new Error(`the external ${target.agent} daemon at ${url} did not complete its hello with the relay within 10000 ms${said ? `; the relay: ${said}` : ''}; its last output: ${lastLines(output, 10) || '(none)'}`);
  }
  return { url, port: Number(new URL(url).port), epoch: 0, relayReady: () => true, close: () => stop(child), tail: (n) => lastLines(output, n) };
}
