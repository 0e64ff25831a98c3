// AEP extension for pi: load it by explicit path (the settings `extensions` array, or
// `pi -e /path/to/pi-extension.js`). It forwards pi's notification events to the AEP adapter
// daemon (`aep adapter pi`, 127.0.0.1:8396) and never breaks the agent:
// - by default it registers notification events only, never an interception surface
//   (`tool_call`, `tool_result`, `input`, `context`, `before_*`, `session_before_*`, `user_bash`),
//   and every handler returns nothing; `message_update` and `tool_execution_update` are added only
//   with AEP_PI_DELTAS=1;
// - AEP_PI_CONTROL=1 is the one opt-in that registers `tool_call` (scoped by AEP_PI_GATE_TOOLS, a
//   regular expression over the tool name, default every tool): the call is held until the daemon
//   answers; only a `{"block":true}` answer blocks it. The handler is guarded throughout, because a
//   throwing `tool_call` handler blocks the tool: any failure, timeout or bad answer lets it run;
// - forwarding is fire-and-forget on a bounded in-order queue (one retry, each POST bounded by
//   1500 ms); the agent never waits on the daemon, and forwarding errors are swallowed.
// Environment: AEP_PI_PORT, then AEP_ADAPTER_PORT (default 8396); AEP_ATTENTION_TIMEOUT_MS
// (default 55000; the gate waits at most this + 5000 ms); AEP_PI_DELTAS; AEP_PI_CONTROL;
// AEP_PI_GATE_TOOLS.

const DEFAULT_PORT = 8396;
const POST_TIMEOUT_MS = 1500;
const RETRY_MS = 200;
const MAX_QUEUE = 256;

/** The notification events forwarded by default. */
const NOTIFICATIONS = [
  'session_start', 'session_shutdown', 'session_compact', 'session_info_changed', 'session_tree',
  'agent_start', 'agent_end', 'agent_settled', 'turn_start', 'turn_end',
  'message_start', 'message_end', 'tool_execution_start', 'tool_execution_end',
  'model_select', 'thinking_level_select',
];

/** The stream updates forwarded only with AEP_PI_DELTAS=1. */
const DELTAS = ['message_update', 'tool_execution_update'];

/** @param {string} name */
function env(name) {
  try {
    /** @type {any} */
    const g = globalThis;
    const value = g.process && g.process.env ? g.process.env[name] : undefined;
    return typeof value === 'string' && value !== '' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** @param {string | undefined} value @param {number} fallback */
function int(value, fallback) {
  const n = Number(value);
  return value !== undefined && Number.isInteger(n) && n >= 0 ? n : fallback;
}

/** The session id from pi's session manager, or undefined. @param {any} ctx */
function sessionOf(ctx) {
  try {
    const id = ctx && ctx.sessionManager && ctx.sessionManager.getSessionId();
    return typeof id === 'string' && id !== '' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** The session file (undefined for an ephemeral session), or undefined. @param {any} ctx */
function sessionFileOf(ctx) {
  try {
    const file = ctx && ctx.sessionManager && typeof ctx.sessionManager.getSessionFile === 'function' ? ctx.sessionManager.getSessionFile() : undefined;
    return typeof file === 'string' && file !== '' ? file : undefined;
  } catch {
    return undefined;
  }
}

/** The extension factory pi calls with its ExtensionAPI. @param {any} pi */
export default function aepPiExtension(pi) {
  const port = int(env('AEP_PI_PORT') ?? env('AEP_ADAPTER_PORT'), DEFAULT_PORT);
  const holdMs = int(env('AEP_ATTENTION_TIMEOUT_MS'), 55000) + 5000;
  const deltas = env('AEP_PI_DELTAS') === '1';
  const control = env('AEP_PI_CONTROL') === '1';
  let gate = null;
  try {
    gate = new RegExp(env('AEP_PI_GATE_TOOLS') ?? '.*');
  } catch {
    gate = null; // an invalid scope gates nothing: tool_call stays unregistered
  }
  const base = `http://127.0.0.1:${port}/hook/`;
  let queue = Promise.resolve();
  let queued = 0;

  /** One POST; resolves with the reply text, or null on any failure. Never rejects. @param {string} name @param {string} body @param {number} ms */
  async function post(name, body, ms) {
    try {
      const res = await fetch(base + name, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(ms) });
      const text = await res.text();
      return res.ok ? text : null;
    } catch {
      return null;
    }
  }

  /** Queue one event behind the ones before it (one retry on failure); drop it when the queue is full. @param {string} name @param {string} body */
  function forward(name, body) {
    if (queued >= MAX_QUEUE) return;
    queued++;
    queue = queue
      .then(async () => {
        if ((await post(name, body, POST_TIMEOUT_MS)) !== null) return;
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        await post(name, body, POST_TIMEOUT_MS);
      })
      .then(() => void queued--, () => void queued--);
  }

  /** @param {string} name @param {any} event @param {any} ctx @param {boolean} delta */
  function bodyOf(name, event, ctx, delta) {
    const file = name === 'session_start' ? sessionFileOf(ctx) : undefined;
    return JSON.stringify({ session: sessionOf(ctx), event: { ...(event || {}), type: name }, ...(file ? { session_file: file } : {}), ...(delta ? { deltas: true } : {}) });
  }

  for (const name of [...NOTIFICATIONS, ...(deltas ? DELTAS : [])]) {
    const delta = DELTAS.includes(name);
    pi.on(name, (/** @type {any} */ event, /** @type {any} */ ctx) => {
      try {
        forward(name, bodyOf(name, event, ctx, delta));
      } catch {
        // fail open
      }
      return undefined;
    });
  }

  if (control && gate) {
    const scope = gate;
    pi.on('tool_call', async (/** @type {any} */ event, /** @type {any} */ ctx) => {
      try {
        if (!event || typeof event.toolName !== 'string' || !scope.test(event.toolName)) return undefined;
        const body = bodyOf('tool_call', event, ctx, false);
        await Promise.race([queue, new Promise((resolve) => setTimeout(resolve, POST_TIMEOUT_MS))]);
        const reply = await post('tool_call', body, holdMs);
        const answer = reply ? JSON.parse(reply) : null;
        if (answer && answer.block === true) return { block: true, reason: typeof answer.reason === 'string' ? answer.reason : 'Blocked via AEP attention loop' };
        return undefined;
      } catch {
        return undefined; // a thrown error would block the tool: never
      }
    });
  }
}
