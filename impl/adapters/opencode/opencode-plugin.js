// AEP forwarder plugin for OpenCode: copy this file into `.opencode/plugins/` (or
// `~/.config/opencode/plugins/`). It forwards OpenCode's moments to the AEP adapter daemon
// (`aep adapter opencode`, 127.0.0.1:8390) and never breaks the host:
// - Bun-clean: plain ESM, `fetch`, no Node built-ins; the only export is the plugin function
//   (OpenCode treats every exported function as a plugin);
// - observation only: it registers `event`, `tool.execute.before`, `tool.execute.after` and
//   `permission.ask` (plus the lifecycle `dispose`, which lets queued moments out before OpenCode
//   exits), never a mutating hook (`chat.*`, `shell.env`, `experimental.*`), and never touches a
//   tool's `output`;
// - fail-open: every handler catches everything; moments go out in order on a bounded queue, each
//   POST bounded by 1500 ms, so a dead or slow daemon costs the host nothing; the held
//   `permission.ask` waits at most AEP_ATTENTION_TIMEOUT_MS + 5000 ms and sets `output.status`
//   only when the daemon answers allow or deny (otherwise OpenCode's own prompt decides).
// Environment: AEP_OPENCODE_PORT, then AEP_ADAPTER_PORT (default 8390); AEP_ATTENTION_TIMEOUT_MS
// (default 55000). Type-checked against @opencode-ai/plugin (see the README).

const DEFAULT_PORT = 8390;
const POST_TIMEOUT_MS = 1500;
const MAX_QUEUE = 256;

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

/** The session a bus event names, if any. @param {any} event */
function sessionOf(event) {
  const p = (event && event.properties) || {};
  if (typeof p.sessionID === 'string') return p.sessionID;
  if (p.info && typeof p.info.sessionID === 'string') return p.info.sessionID;
  if (p.info && typeof p.info.id === 'string' && String(event.type).startsWith('session.')) return p.info.id;
  return undefined;
}

/** @type {import('@opencode-ai/plugin').Plugin} */
export const AepOpenCodePlugin = async (input) => {
  const port = int(env('AEP_OPENCODE_PORT') ?? env('AEP_ADAPTER_PORT'), DEFAULT_PORT);
  const holdMs = int(env('AEP_ATTENTION_TIMEOUT_MS'), 55000) + 5000;
  const base = `http://127.0.0.1:${port}/hook/`;
  /** @type {string | undefined} */
  let serverUrl;
  try {
    serverUrl = input && input.serverUrl ? String(input.serverUrl) : undefined;
  } catch {
    serverUrl = undefined;
  }
  /** @type {string | undefined} */
  let lastSession;
  let queue = Promise.resolve();
  let queued = 0;

  /** One POST; resolves with the reply text, or null on any failure. Never rejects. @param {string} kind @param {string} body @param {number} ms */
  async function post(kind, body, ms) {
    try {
      const res = await fetch(base + kind, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(ms) });
      const text = await res.text();
      return res.ok ? text : null;
    } catch {
      return null;
    }
  }

  /** The moment as the daemon's body, serialized now (a later mutation by another plugin is not ours). @param {Record<string, unknown>} moment */
  function body(moment) {
    return JSON.stringify({ ...moment, ...(lastSession ? { session_id: lastSession } : {}), ...(serverUrl ? { server_url: serverUrl } : {}) });
  }

  /** Queue a moment behind the ones before it; drop it when the queue is full. @param {string} kind @param {string} text */
  function forward(kind, text) {
    if (queued >= MAX_QUEUE) return;
    queued++;
    queue = queue.then(() => post(kind, text, POST_TIMEOUT_MS)).then(() => void queued--);
  }

  return {
    event: async ({ event }) => {
      try {
        const session = sessionOf(event);
        if (session) lastSession = session;
        forward('bus', body({ kind: 'bus', event }));
      } catch {
        // fail open
      }
    },
    'tool.execute.before': async (hookInput, output) => {
      try {
        if (typeof hookInput.sessionID === 'string') lastSession = hookInput.sessionID;
        forward('tool.before', body({ kind: 'tool.before', input: hookInput, output: { args: output && output.args } }));
      } catch {
        // fail open
      }
    },
    'tool.execute.after': async (hookInput, output) => {
      try {
        if (typeof hookInput.sessionID === 'string') lastSession = hookInput.sessionID;
        const o = output || {};
        forward('tool.after', body({ kind: 'tool.after', input: hookInput, output: { title: o.title, output: o.output, metadata: o.metadata } }));
      } catch {
        // fail open
      }
    },
    // Lifecycle, not mutation: when OpenCode disposes the instance (`opencode run` exits right
    // after its last message), let the moments still queued reach the daemon, bounded.
    dispose: async () => {
      try {
        await Promise.race([queue, new Promise((resolve) => setTimeout(resolve, POST_TIMEOUT_MS))]);
      } catch {
        // fail open
      }
    },
    'permission.ask': async (permission, output) => {
      try {
        const text = body({ kind: 'permission.ask', permission });
        // The ask follows the moments before it, but never waits on a wedged queue for long.
        await Promise.race([queue, new Promise((resolve) => setTimeout(resolve, POST_TIMEOUT_MS))]);
        const reply = await post('permission.ask', text, holdMs);
        const status = reply ? JSON.parse(reply).status : undefined;
        if (status === 'allow' || status === 'deny') output.status = status;
      } catch {
        // fail open: OpenCode's own prompt decides
      }
    },
  };
};
