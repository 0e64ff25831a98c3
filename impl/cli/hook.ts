/** `aep hook <name> <HookEvent>`: the fail-open shim a vendor's hook configuration runs. */
import { attentionTimeout, resolvePort } from '../adapter-kit/config.js';
import { SHIM_CONNECT_TIMEOUT_MS, forwardHook } from '../adapter-kit/shim.js';
import { ADAPTERS } from './adapter.js';
import { EXIT } from './io.js';
import type { Verb } from './verb.js';

export const verb: Verb = {
  name: 'hook',
  summary: "fail-open hook shim: vendor hook JSON on stdin -> adapter daemon -> the vendor's reply on stdout",
  help: `usage: aep hook <name> <HookEvent> [--port N]

Reads the vendor's hook JSON on stdin, POSTs it to the adapter daemon at
http://127.0.0.1:<port>/hook/<HookEvent>, and writes the daemon's reply to stdout.

Fail-open: it ALWAYS exits 0. When the daemon is down, refuses, or does not answer within
${SHIM_CONNECT_TIMEOUT_MS} ms, it prints the vendor's neutral reply (Claude Code: {}) at once, so
the vendor behaves as if unhooked. A held hook (a permission prompt waiting for a human) may
take up to AEP_ATTENTION_TIMEOUT_MS + 5 s; the daemon itself frees it at the attention timeout.

adapters: ${Object.keys(ADAPTERS).join(', ')}

flags:
  --port N   daemon port (default: AEP_<NAME>_PORT, then AEP_ADAPTER_PORT, then the adapter's port)

environment:
  AEP_ATTENTION_TIMEOUT_MS   the daemon's hold bound (default 55000); the reply bound is this + 5000
  AEP_DEBUG=1                say on stderr why the neutral reply was used

exit codes: always 0 (a hook must never break the vendor)
`,
  options: { port: { type: 'string' } },
  allowPositionals: true,
  strict: false,
  async run({ values, positionals }, io) {
    const [name, hookEvent] = positionals;
    const warn = (why: string): void => io.stderr(`aep hook: ${why}\n`);
    const load = name === undefined ? undefined : ADAPTERS[name];
    if (!load || !hookEvent) {
      warn(`usage: aep hook <${Object.keys(ADAPTERS).join('|')}> <HookEvent>; doing nothing (fail-open)`);
      return EXIT.ok;
    }
    const def = await load();
    const neutral = def.neutralReply(hookEvent);
    const port = resolvePort(def.agent, def.defaultPort, typeof values.port === 'string' ? values.port : undefined, io.env);
    const hold = attentionTimeout(io.env);
    if (typeof port === 'string' || typeof hold === 'string') {
      warn(`${typeof port === 'string' ? port : hold}; answering neutrally`);
      io.stdout(neutral);
      return EXIT.ok;
    }
    let body: Buffer;
    try {
      body = await io.readStdin();
    } catch {
      body = Buffer.from('{}');
    }
    const { stdout, fellBack } = await forwardHook({ port, hookEvent, body, neutral, replyTimeoutMs: hold + 5000 });
    if (fellBack && io.env.AEP_DEBUG) warn(`${fellBack}; answered neutrally`);
    io.stdout(stdout);
    return EXIT.ok;
  },
};
