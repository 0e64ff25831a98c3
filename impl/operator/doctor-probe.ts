/** `aep doctor`'s probes (I/O, read-only): plain HTTP requests with a short timeout, and pid checks. */
import { request } from 'node:http';
import { CATALOG, daemonPort } from './catalog.js';
import { isAlive, readPid } from './pid-file.js';
import type { DaemonProbe, HttpProbe, Probes } from './doctor-findings.js';
import type { RelayTarget } from './relay-opts.js';

export function probe(url: string, opts: { method?: string; headers?: Record<string, string>; timeoutMs?: number } = {}): Promise<HttpProbe> {
  return new Promise((resolve) => {
    let req;
    try {
      req = request(url, { method: opts.method ?? 'GET', headers: opts.headers ?? {}, agent: false, timeout: opts.timeoutMs ?? 1500 }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          if (body.length < 65536) body += c;
        });
        res.on('end', () => {
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers[k] = v;
          let json: Record<string, unknown> | undefined;
          try {
            const v: unknown = JSON.parse(body);
            if (typeof v === 'object' && v !== null && !Array.isArray(v)) json = v as Record<string, unknown>;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers, ...(json ? { json } : {}) });
        });
        res.on('error', (err) => resolve({ error: (err as NodeJS.ErrnoException).code ?? err.message }));
      });
    } catch (err) {
      resolve({ error: (err as Error).message });
      return;
    }
    req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    req.on('error', (err) => resolve({ error: (err as NodeJS.ErrnoException).code ?? err.message }));
    req.end();
  });
}

export async function probeDaemons(home: string, env: NodeJS.ProcessEnv, skipPort?: number): Promise<DaemonProbe[]> {
  const out: DaemonProbe[] = [];
  for (const d of CATALOG) {
    if (d.id === 'relay') continue;
    const port = daemonPort(d, env);
    if (port === skipPort) continue;
    const pid = readPid(home, d.id);
    const health = await probe(`http://127.0.0.1:${port}/healthz`);
    out.push({ id: d.id, kind: d.kind, describe: d.describe, port, ...(pid !== undefined ? { pid, pidAlive: isAlive(pid) } : {}), health });
  }
  return out;
}

export async function runProbes(t: RelayTarget, home: string, env: NodeJS.ProcessEnv): Promise<Probes> {
  const u = new URL(t.relay);
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const family = /^\d+\.\d+\.\d+\.\d+$/.test(host) ? 'ipv4' : host.includes(':') ? 'ipv6' : 'name';
  const nothing = encodeURIComponent(JSON.stringify({ session: 'aep-doctor-probe-matches-nothing' }));
  const streamUrl = `${t.relay}/stream?live=0&filter=${nothing}`;
  const origin = { origin: 'http://aep-doctor.invalid' };
  const [v4, v6, health, streamNoToken, preflight] = await Promise.all([
    probe(`http://127.0.0.1:${port}/healthz`),
    probe(`http://[::1]:${port}/healthz`),
    probe(`${t.relay}/healthz`),
    probe(streamUrl, { headers: origin }),
    probe(`${t.relay}/stream`, { method: 'OPTIONS', headers: { ...origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } }),
  ]);
  const streamWithToken = t.token ? await probe(streamUrl, { headers: { ...origin, authorization: `Bearer ${t.token}` } }) : undefined;
  const relayPort = Number(port);
  return {
    relay: t.relay,
    family,
    v4,
    v6,
    health,
    tokenGiven: t.token !== undefined,
    streamNoToken,
    ...(streamWithToken ? { streamWithToken } : {}),
    preflight,
    daemons: await probeDaemons(home, env, family !== 'name' && ['127.0.0.1', '::1'].includes(host) ? relayPort : undefined),
    envHint: env.AEP_TOKEN === undefined ? ' (AEP_TOKEN is not set in this shell)' : '',
  };
}
