/**
 * `aep doctor`'s judgement, pure: probe results in, lines out. Every finding carries a remedy.
 * `finding` lines make the exit code 1; `warning`, `info` and `ok` do not.
 */

export type Level = 'ok' | 'info' | 'warning' | 'finding';

export interface Line {
  level: Level;
  lane: 'reachability' | 'auth' | 'cors' | 'stats' | 'daemons';
  message: string;
  remedy?: string;
}

export interface HttpProbe {
  /** HTTP status, or undefined when the connection failed. */
  status?: number;
  /** Why the connection failed. */
  error?: string;
  headers?: Record<string, string>;
  json?: Record<string, unknown>;
}

export interface DaemonProbe {
  id: string;
  /** What should answer on the port: an adapter (its /healthz names it) or anything else. */
  kind: 'relay' | 'adapter' | 'bridge';
  describe: string;
  port: number;
  /** The pid file's pid, when there is one. */
  pid?: number;
  pidAlive?: boolean;
  health: HttpProbe;
}

export interface Probes {
  relay: string;
  /** The URL's host family and the sibling loopback family, each probed on the URL's port. */
  family: 'ipv4' | 'ipv6' | 'name';
  v4: HttpProbe;
  v6: HttpProbe;
  /** GET /healthz at the URL, no token. */
  health: HttpProbe;
  tokenGiven: boolean;
  /** GET /stream?live=0 (a filter matching nothing) without the token, and with it. */
  streamNoToken: HttpProbe;
  streamWithToken?: HttpProbe;
  preflight: HttpProbe;
  daemons: DaemonProbe[];
  envHint: string;
}

const ok = (p: HttpProbe): boolean => p.status !== undefined && p.status >= 200 && p.status < 300;

/** How much `judge` says: `all` lists every known daemon that is not running, one line each. */
export interface JudgeOptions {
  all?: boolean;
}

export function judge(p: Probes, opts: JudgeOptions = {}): Line[] {
  const out: Line[] = [];
  const port = new URL(p.relay).port || '80';
  const urlProbe = p.family === 'ipv6' ? p.v6 : p.v4;
  const sibling = p.family === 'ipv6' ? p.v4 : p.v6;
  const up = ok(p.health);
  // Reachability, per address family.
  if (up) out.push({ level: 'ok', lane: 'reachability', message: `the relay answers at ${p.relay}/healthz` });
  if (p.family !== 'name') {
    const fam = p.family === 'ipv6' ? 'IPv6 [::1]' : 'IPv4 127.0.0.1';
    const sib = p.family === 'ipv6' ? 'IPv4 127.0.0.1' : 'IPv6 [::1]';
    if (!ok(urlProbe) && ok(sibling)) {
      out.push({
        level: 'finding',
        lane: 'reachability',
        message: `port ${port} refuses on ${fam} (the family the URL names) but answers /healthz on ${sib}`,
        remedy: `point --relay at the family that answers (${p.family === 'ipv6' ? `http://127.0.0.1:${port}` : `http://[::1]:${port}`}), forward the family the URL names, or restart the relay bound to it (AEP_HOST=${p.family === 'ipv6' ? '::1' : '127.0.0.1'} aep relay, or 'aep setup up relay')`,
      });
    } else if (ok(urlProbe) && !ok(sibling)) out.push({ level: 'info', lane: 'reachability', message: `port ${port} answers on ${fam} only (${sib}: ${sibling.error ?? `HTTP ${sibling.status}`}); fine for this URL` });
  }
  if (!up) {
    // Something answered that is not a relay: another program holds the port, so starting one there cannot work.
    const held = p.health.status !== undefined || (p.health.error !== undefined && !['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EADDRNOTAVAIL', 'ENETUNREACH', 'EHOSTUNREACH'].includes(p.health.error));
    const next = Number(port) + 1;
    out.push({
      level: 'finding',
      lane: 'reachability',
      message: held
        ? `port ${port} is held by a program that is not an aep relay: ${p.relay}/healthz answered ${p.health.status !== undefined ? `HTTP ${p.health.status}` : p.health.error}`
        : `the relay at ${p.relay} does not answer /healthz (${p.health.error ?? `HTTP ${p.health.status}`})`,
      remedy: held
        ? `stop that program, or run the relay on another port: AEP_PORT=${next} aep setup up relay, then pass --relay http://127.0.0.1:${next} (or set AEP_RELAY_URL) everywhere`
        : `start it: 'aep relay' (or 'aep setup up relay'); if it runs elsewhere, pass --relay URL`,
    });
    return [...out, ...daemonLines(p, opts)];
  }
  // Auth posture.
  const open = p.health.json !== undefined && 'sessions' in p.health.json;
  if (open) {
    out.push({ level: 'warning', lane: 'auth', message: 'the relay runs without AEP_TOKEN: observation is open to anyone who can reach it and control is watch-only (every command is refused unauthorized)', remedy: "restart it with AEP_TOKEN set (e.g. AEP_TOKEN=$(openssl rand -hex 16) aep relay) and give the same token to the adapters and to aep respond/cancel" });
  } else {
    out.push({ level: 'ok', lane: 'auth', message: 'the relay requires a bearer token (AEP_TOKEN is set on it)' });
    if (!p.tokenGiven) out.push({ level: 'finding', lane: 'auth', message: 'no token was given here, so every stream and command will be refused with HTTP 401', remedy: `pass --token or set AEP_TOKEN to the relay's token${p.envHint}` });
    else if (p.streamWithToken?.status === 401 || p.streamWithToken?.status === 403) out.push({ level: 'finding', lane: 'auth', message: `the relay refused the token given here (HTTP ${p.streamWithToken.status})`, remedy: "use the relay's AEP_TOKEN (--token or AEP_TOKEN); the token is not shown here" });
    else if (p.streamWithToken && ok(p.streamWithToken)) out.push({ level: 'ok', lane: 'auth', message: 'the token given here is accepted' });
    else if (p.streamWithToken) out.push({ level: 'finding', lane: 'auth', message: `GET /stream with the token answered ${p.streamWithToken.error ?? `HTTP ${p.streamWithToken.status}`}`, remedy: `read the relay's log; run 'aep doctor' again once it answers` });
  }
  // CORS visibility.
  const acao = (h?: Record<string, string>): string | undefined => h?.['access-control-allow-origin'];
  if (acao(p.preflight.headers)) out.push({ level: 'ok', lane: 'cors', message: `the preflight OPTIONS /stream carries access-control-allow-origin: ${acao(p.preflight.headers)}` });
  else out.push({ level: 'finding', lane: 'cors', message: `the preflight OPTIONS /stream carries no access-control-allow-origin (${p.preflight.error ?? `HTTP ${p.preflight.status}`})`, remedy: 'a browser consumer cannot read anything: if a proxy sits in front of the relay, make it pass the CORS headers through' });
  if (!open) {
    if (acao(p.streamNoToken.headers)) out.push({ level: 'ok', lane: 'cors', message: `a refused request (HTTP ${p.streamNoToken.status}) carries access-control-allow-origin too, so a browser can show the refusal` });
    else out.push({ level: 'finding', lane: 'cors', message: `a refused request (HTTP ${p.streamNoToken.status ?? '?'}) carries no access-control-allow-origin: a browser sees only "network error"`, remedy: 'make any proxy in front of the relay forward the CORS headers on error responses too' });
  }
  // Stats.
  const withCounts = open ? p.health.json : undefined;
  if (withCounts) out.push({ level: 'info', lane: 'stats', message: `sessions ${String(withCounts.sessions)} · events ${String(withCounts.events)} · subscribers ${String(withCounts.subscribers)} · connections ${String(withCounts.connections)}` });
  return [...out, ...daemonLines(p, opts)];
}

/**
 * The daemons lane: a line for every daemon that was set up (a pid file) or answers on its port;
 * the known ones that are neither are counted in one line, or listed one by one with `all`.
 */
function daemonLines(p: Probes, opts: JudgeOptions): Line[] {
  const out: Line[] = [];
  const idle: string[] = [];
  for (const d of p.daemons) {
    const healthy = ok(d.health);
    const where = `${d.id} (${d.describe}, port ${d.port})`;
    const answeredAs = typeof d.health.json?.adapter === 'string' ? d.health.json.adapter : undefined;
    if (healthy && ((d.kind === 'adapter' && answeredAs !== undefined && answeredAs !== d.id) || (d.kind !== 'adapter' && answeredAs !== undefined))) {
      out.push({ level: 'finding', lane: 'daemons', message: `${where}: port ${d.port} answers as the ${answeredAs} adapter daemon, not ${d.id}`, remedy: `give one of them another port (${d.id}: its port variable, or --port), then 'aep setup up ${d.id}'` });
    } else if (healthy) {
      const linked = d.health.json?.relay;
      if (linked === false) out.push({ level: 'warning', lane: 'daemons', message: `${where} is up but not linked to a relay: its events queue and no command reaches it`, remedy: `check its --relay URL and token; its log is $AEP_HOME/run/${d.id}.log when started by 'aep setup up ${d.id}'` });
      else out.push({ level: 'ok', lane: 'daemons', message: `${where} is up${linked === true ? ' and linked to the relay' : ''}` });
    } else if (d.pid !== undefined && d.pidAlive) {
      out.push({ level: 'finding', lane: 'daemons', message: `${where} is wedged: pid ${d.pid} is alive but /healthz does not answer (${d.health.error ?? `HTTP ${d.health.status}`})`, remedy: `restart it: 'aep setup down ${d.id} && aep setup up ${d.id}'` });
    } else if (d.pid !== undefined) {
      out.push({ level: 'warning', lane: 'daemons', message: `${where} is down and its pid file names pid ${d.pid}, which is gone (stale pid file)`, remedy: `'aep setup up ${d.id}' starts it and replaces the pid file` });
    } else if (opts.all) out.push({ level: 'info', lane: 'daemons', message: `${where} is not running` });
    else idle.push(d.id);
  }
  if (idle.length > 0) out.push({ level: 'info', lane: 'daemons', message: notRunningSummary(idle.length, p.daemons.length, 'aep doctor --all') });
  return out;
}

/** The one line for the known daemons nobody started, pure: shared by 'aep doctor' and 'aep setup down'. */
export function notRunningSummary(idle: number, known: number, listCommand: string): string {
  const some = idle === 1 ? '1 known integration daemon is' : `${idle} known integration daemons are`;
  return `${idle === known ? `none of the ${known} known integration daemons is running` : `${some} not running`} (none started by 'aep setup up'); '${listCommand}' lists them`;
}

const MARK: Record<Level, string> = { ok: 'ok     ', info: 'info   ', warning: 'warning', finding: 'FINDING' };

export function renderReport(lines: Line[], relay: string): string {
  const body = lines.map((l) => `${MARK[l.level]}  ${l.lane.padEnd(12)}  ${l.message}${l.remedy ? `\n${' '.repeat(24)}→ ${l.remedy}` : ''}`);
  const findings = lines.filter((l) => l.level === 'finding').length;
  body.push(
    '',
    findings === 0 ? 'no findings' : `${findings} finding${findings === 1 ? '' : 's'}`,
    `These probes ran from this machine. A consumer refused elsewhere (a browser behind a port forward, a container, a VM) sits on another vantage: run 'aep doctor --relay ${relay}' there and compare.`,
  );
  return `${body.join('\n')}\n`;
}
