/** `aep doctor`: a read-only diagnosis of the relay and the managed daemons, a remedy on every finding. */
import type { Verb } from './verb.js';
import { judge, renderReport } from '../operator/doctor-findings.js';
import { runProbes } from '../operator/doctor-probe.js';
import { aepHome } from '../operator/home.js';
import { CONSOLE_PORT, CONSOLE_PORT_ENV } from '../integrations/registry.js';
import { RELAY_FLAGS, RELAY_HELP, target } from '../operator/relay-opts.js';

const HELP = `usage: aep doctor [--relay URL] [--token T] [--all] [--json]

One read-only pass over the environment; prints ok / info / warning / FINDING lines per lane,
each finding with its remedy:
  reachability  the URL's port probed on IPv4 127.0.0.1 and IPv6 [::1] separately: a relay
                answering only on the family the URL does not name is a finding
  auth          is a token required (an unauthenticated /healthz with counts means no), is one
                given here, is it accepted (the token is never printed)
  cors          the preflight OPTIONS /stream and a refused request both carry
                access-control-allow-origin (a browser can only explain what it may read);
                the console's origin (http://127.0.0.1:$${CONSOLE_PORT_ENV}, default ${CONSOLE_PORT}) may
                read the relay, and nothing wider ('*' is a warning: set AEP_CORS_ORIGINS)
  stats         sessions, events, subscribers, connections (informational)
  daemons       every adapter and bridge daemon of the port catalog shared with 'aep setup'
                (see 'aep setup --help'; each port variable overrides), with
                $AEP_HOME/run/<id>.pid: up, stale pid file (warning), wedged = pid alive
                but /healthz dead (finding), another adapter answering on its port
                (finding); the ones that are neither set up nor running are counted in
                one info line (--all lists each)
The probes run from this machine: run it again where a consumer is refused, and compare.

flags:
${RELAY_HELP}
  --all          list every known daemon that is not running, one line each
                 (--json: {"ok", "lines": [{level, lane, message, remedy?}]})

environment:
  AEP_TOKEN, AEP_RELAY_URL (old name AEP_RELAY), AEP_HOME (pid files under $AEP_HOME/run, default ~/.aep)

exit codes: 0 no findings (warnings allowed) · 1 findings · 2 usage
`;

export const verb: Verb = {
  name: 'doctor',
  summary: 'diagnose reachability, auth, CORS and the managed daemons (exit 0 clean, 1 findings)',
  help: HELP,
  allowPositionals: false,
  options: { ...RELAY_FLAGS, all: { type: 'boolean' } },
  async run({ values }, io) {
    const t = target(values, io.env);
    if (!values.json) io.stderr(`aep doctor: probing ${t.relay} and the managed daemons (read-only)\n`);
    const lines = [...judge(await runProbes(t, aepHome(io.env, io.cwd), io.env), { all: values.all === true }), ...(await (await import('../console/cors-check.js')).consoleCorsLines(t.relay, io.env))];
    const findings = lines.filter((l) => l.level === 'finding').length;
    io.stdout(values.json ? `${JSON.stringify({ ok: findings === 0, lines })}\n` : renderReport(lines, t.relay));
    return findings === 0 ? 0 : 1;
  },
};
